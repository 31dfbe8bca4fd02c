import Foundation
import TegulaTestSupport
import Testing

/// `tegula edit SCAN --reference URL` with a tileset on a server (issue 42 item 4), in headless
/// Chromium (scripts/suggest_check.py, its `matched` phase): the reference is the Schagen sheet of
/// ``EditSuggestCLITests`` cut into tiles by `tegula tile` and served on loopback by Python's
/// `http.server`, named by its TileJSON's URL or by a bare XYZ template with `--reference-bounds`.
/// The page shows it as a layer whose tiles come from that server, and Suggest and snap match
/// against it; the oracle is the affine map the re-scan was made with.
@Suite(.timeLimit(.minutes(20)), .serialized)
struct EditURLReferenceCLITests {
    /// The re-scan, its truth, and the reference's tiles (zooms 5–10) served from `dir`.
    static func served(in dir: String) throws -> (scan: String, truth: [Double], server: LocalHTTPServer) {
        let (reference, scan, truth) = try EditSuggestCLITests.fixtures(in: dir)
        try ProgramRun.output(try BuiltTegula.path(), ["tile", reference, "-o", dir + "/tiles", "--zoom", "5-10"])
        return (scan, truth, try LocalHTTPServer.python(serving: URL(fileURLWithPath: dir)))
    }

    /// The sheet's bounds in degrees, `WEST,SOUTH,EAST,NORTH`, by the spherical Mercator formulas.
    static var sheetBounds: String {
        let r = 6_378_137.0
        let left = EditSuggestCLITests.left, top = EditSuggestCLITests.top, res = EditSuggestCLITests.resolution
        func lon(_ x: Double) -> Double { x / r * 180 / .pi }
        func lat(_ y: Double) -> Double { atan(sinh(y / r)) * 180 / .pi }
        return "\(lon(left)),\(lat(top - 1350 * res)),\(lon(left + 2700 * res)),\(lat(top))"
    }

    /// The editor on `reference` (and `extra` arguments), checked in Chromium against the truth.
    static func check(_ what: String, reference: String, extra: [String] = [], scan: String, truth: [Double], tiles: String, dir: String) throws {
        let server = try LocalHTTPServer.tegula(
            [
                "edit", scan, "-o", dir + "/\(what).points", "--reference", reference,
                "--basemap", EditSuggestCLITests.noBasemap, "--render-threads", "2",
            ] + extra)
        defer { server.stop() }
        let run = try ProgramRun.run(
            "/usr/bin/env",
            [
                "REFERENCE_TILES=\(tiles)", "/usr/bin/python3", PackageRoot.path("scripts/suggest_check.py"), server.base + "/", dir,
                "matched", "\(EditSuggestCLITests.left)", "\(EditSuggestCLITests.top)", "\(EditSuggestCLITests.resolution)",
                "\(EditSuggestCLITests.scale)",
            ] + truth.map { "\($0)" })
        print(run.stdout, run.stderr)
        #expect(run.status == 0, "suggest_check \(what): \(run.stdout) \(run.stderr)")
    }

    @Test func aTileJSONURLIsShownAsALayerFromItsServerAndSuggestMatchesAgainstIt() throws {
        let dir = try TemporaryFolder.make("edit-tilejson").path
        let (scan, truth, files) = try Self.served(in: dir)
        defer { files.stop() }
        try Self.check("tilejson", reference: files.base + "/tiles/tiles.json", scan: scan, truth: truth, tiles: files.base + "/tiles/", dir: dir)
        print("editor with a TileJSON reference: \(dir)/suggest.png")
    }

    @Test func anXYZTemplateWithItsBoundsIsShownAsALayerFromItsServerAndSuggestMatchesAgainstIt() throws {
        let dir = try TemporaryFolder.make("edit-xyz").path
        let (scan, truth, files) = try Self.served(in: dir)
        defer { files.stop() }
        try Self.check(
            "xyz", reference: files.base + "/tiles/{z}/{x}/{y}.png", extra: ["--reference-bounds", Self.sheetBounds], scan: scan,
            truth: truth, tiles: files.base + "/tiles/", dir: dir)
        print("editor with an XYZ reference: \(dir)/suggest.png")
    }
}
