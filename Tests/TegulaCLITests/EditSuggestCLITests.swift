import Foundation
import TegulaTestSupport
import Testing

/// `tegula edit SCAN --reference REF` end to end in headless Chromium (scripts/suggest_check.py):
/// the reference is the real Schagen scan given a Web Mercator grid by `gdal_translate`, the scan
/// is it re-scanned by `gdalwarp` through a known affine map (rotated 10°, 1.25 times larger); the
/// oracle is that map. Suggest's pairs, keep, drop, undo and redo, snap of a point placed by hand
/// 3 reference pixels off and of a point placed on the scan alone; an unrelated reference (Blue
/// Marble) proposes nothing and the page says so.
@Suite(.timeLimit(.minutes(20)), .serialized)
struct EditSuggestCLITests {
    /// The reference's grid: top-left corner (EPSG:3857) and its 100 m pixels.
    static let left = 400_000.0, top = 7_100_000.0, resolution = 100.0
    /// The re-scan: scan pixels per reference pixel, and the rotation.
    static let scale = 1.25, degrees = 10.0

    /// The reference GeoTIFF and the re-scan made from it, with the affine map scan pixel →
    /// reference pixel (u = a x + b y + c, v = d x + e y + f) the re-scan was made with.
    static func fixtures(in dir: String) throws -> (reference: String, scan: String, truth: [Double]) {
        let reference = dir + "/reference.tif", scan = dir + "/rescan.jpg"
        try ProgramRun.output(
            "gdal_translate",
            [
                "-q", "-a_srs", "EPSG:3857", "-a_ullr", "\(left)", "\(top)", "\(left + 2700 * resolution)",
                "\(top - 1350 * resolution)", Schagen1689.scan, reference,
            ])
        // Reference pixel (u, v) → scan pixel: k R (u − centre) + shift, the shift putting the
        // rotated sheet's corner at (0, 0).
        let (w, h) = (2700.0, 1350.0), k = scale, a = degrees * .pi / 180
        func rotated(_ u: Double, _ v: Double) -> (Double, Double) {
            (k * (cos(a) * (u - w / 2) - sin(a) * (v - h / 2)), k * (sin(a) * (u - w / 2) + cos(a) * (v - h / 2)))
        }
        let corners = [(0.0, 0.0), (w, 0), (0, h), (w, h)].map { rotated($0.0, $0.1) }
        let x0 = corners.map(\.0).min()!, y0 = corners.map(\.1).min()!
        let width = Int((corners.map(\.0).max()! - x0).rounded()), height = Int((corners.map(\.1).max()! - y0).rounded())
        var gcps: [String] = []
        for (u, v) in [(0.0, 0.0), (w, 0), (0, h), (w, h), (w / 2, h / 2)] {
            let (x, y) = rotated(u, v)
            gcps += ["-gcp", "\(u)", "\(v)", "\(x - x0)", "\(-(y - y0))"]
        }
        try ProgramRun.output("gdal_translate", ["-q", "-of", "VRT", "-a_srs", "EPSG:3857"] + gcps + [Schagen1689.scan, dir + "/src.vrt"])
        try ProgramRun.output(
            "gdalwarp",
            [
                "-q", "-overwrite", "-order", "1", "-r", "cubic", "-te", "0", "\(-height)", "\(width)", "0",
                "-ts", "\(width)", "\(height)", "-wo", "INIT_DEST=255", dir + "/src.vrt", dir + "/warped.tif",
            ])
        try ProgramRun.output("gdal_translate", ["-q", "-of", "JPEG", "-co", "QUALITY=90", "-co", "WORLDFILE=NO", dir + "/warped.tif", scan])
        // The inverse: u = R⁻¹ (p + (x0, y0)) / k + centre.
        let (c, s) = (cos(a) / k, sin(a) / k)
        let truth = [c, s, c * x0 + s * y0 + w / 2, -s, c, -s * x0 + c * y0 + h / 2]
        return (reference, scan, truth)
    }

    /// A basemap that answers nothing, so that no test reaches the internet.
    static let noBasemap = "http://127.0.0.1:9/{z}/{x}/{y}.png"

    @Test func suggestedPairsLieWithinAPixelOfTheTruthAreKeptOrDroppedAndSnapFindsTheTwin() throws {
        let dir = try TemporaryFolder.make("edit-suggest").path
        let (reference, scan, truth) = try Self.fixtures(in: dir)
        let server = try LocalHTTPServer.tegula([
            "edit", scan, "-o", dir + "/rescan.points", "--reference", reference,
            "--basemap", Self.noBasemap, "--render-threads", "2",
        ])
        defer { server.stop() }
        let check = PackageRoot.path("scripts/suggest_check.py")
        let run = try ProgramRun.run(
            "/usr/bin/python3",
            [
                check, server.base + "/", dir, "matched", "\(Self.left)", "\(Self.top)",
                "\(Self.resolution)", "\(Self.scale)",
            ] + truth.map { "\($0)" })
        print(run.stdout, run.stderr)
        #expect(run.status == 0, "suggest_check matched: \(run.stdout) \(run.stderr)")
        print("editor with a reference: \(dir)/suggest.png, \(dir)/snapped.png")
    }

    @Test func anUnrelatedReferenceProposesNothingAndThePageSaysSo() throws {
        let dir = try TemporaryFolder.make("edit-suggest-unrelated").path
        let (_, scan, _) = try Self.fixtures(in: dir)
        let world = try BlueMarble.georeferenced(in: URL(fileURLWithPath: dir), north: 85, south: -85)
        let server = try LocalHTTPServer.tegula([
            "edit", scan, "-o", dir + "/rescan.points", "--reference", world,
            "--basemap", Self.noBasemap, "--render-threads", "2",
        ])
        defer { server.stop() }
        let run = try ProgramRun.run("/usr/bin/python3", [PackageRoot.path("scripts/suggest_check.py"), server.base + "/", dir, "unrelated"])
        print(run.stdout, run.stderr)
        #expect(run.status == 0, "suggest_check unrelated: \(run.stdout) \(run.stderr)")
        print("editor with an unrelated reference: \(dir)/unrelated.png")
    }
}
