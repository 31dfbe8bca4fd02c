import Foundation
import TegulaTestSupport
import Testing

/// The viewer showing tilesets cut in other tile matrix sets than WebMercatorQuad in their own CRS
/// (issue 44 item 3), in headless Chromium: the Blue Marble cut by `tegula tile --tms
/// WorldCRS84Quad`, and the same picture laid over 160 × 80 km of Britain (`gdal_translate
/// -a_srs EPSG:27700 -a_ullr`) cut in the British National Grid of `tegula grid --tms-from
/// EPSG:27700` (morecantile's custom grid's extent), both served by `tegula serve`.
/// scripts/viewer_tms_check.py holds each view to oracles that are not Tegula: pyproj places the
/// view's centre in the set's CRS, morecantile reads the folder's tms.json and gives the tiles the
/// view must load and where each must lie; the screenshot's pixels at the centre are the folder's.
/// Screenshots stay in TEGULA_VIEWER_OUT (default: the system's temporary folder,
/// tegula-viewer-test) as viewer-crs84.png and viewer-bng.png.
@Suite(.timeLimit(.minutes(20)))
struct ViewerTileMatrixSetTests {
    @Test func theViewerShowsWorldCRS84QuadAndBritishNationalGridTilesWhereTheirSetsPutThem() throws {
        let dir = try TemporaryFolder.make("viewer-tms")
        defer { try? FileManager.default.removeItem(at: dir) }
        let crs84 = dir.appendingPathComponent("crs84").path, bng = dir.appendingPathComponent("bng").path
        let world = try BlueMarble.georeferenced(in: dir)
        let cut = try TegulaBinary.run(["tile", world, "-o", crs84, "--tms", "WorldCRS84Quad", "--zoom", "0-3", "--quiet"])
        try #require(cut.status == 0, "\(cut.stderr)")
        let grid = dir.appendingPathComponent("bng.json").path
        let made = try TegulaBinary.run(["grid", "--tms-from", "EPSG:27700", "--extent", "-238375,0,900000,1376256", "--id", "BNG", "-o", grid])
        try #require(made.status == 0, "\(made.stderr)")
        let placed = dir.appendingPathComponent("britain.vrt").path
        _ = try ProgramRun.output(
            "gdal_translate",
            ["-q", "-of", "VRT", "-a_srs", "EPSG:27700", "-a_ullr", "400000", "300000", "560000", "220000", BlueMarble.path, placed])
        let cutBNG = try TegulaBinary.run(["tile", placed, "-o", bng, "--tms", grid, "--zoom", "4-7", "--quiet"])
        try #require(cutBNG.status == 0, "\(cutBNG.stderr)")

        let server = try LocalHTTPServer.tegula(["serve", crs84, bng])
        defer { server.stop() }
        let out =
            ProcessInfo.processInfo.environment["TEGULA_VIEWER_OUT"]
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("tegula-viewer-test").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let script = TegulaBinary.packageRoot.appendingPathComponent("scripts/viewer_tms_check.py").path
        let python = try LocalHTTPServer.venv("python3")
        let views: [(page: String, folder: String, crs: String, lon: String, lat: String, z: String, name: String)] = [
            ("/", crs84, "OGC:CRS84", "12.5", "41.9", "3", "viewer-crs84"),
            ("/?tms=BNG", bng, "EPSG:27700", "-1.3", "52.1", "7", "viewer-bng"),
        ]
        for v in views {
            let r = try ProgramRun.run(python, [script, server.base + v.page, v.folder, v.crs, v.lon, v.lat, v.z, v.name, out])
            print(r.stdout)
            #expect(r.status == 0, "viewer_tms_check \(v.name) failed:\n\(r.stdout)\(r.stderr)")
            #expect(r.stdout.contains("ok   each tile lies where its bounds put it"), "\(r.stdout)")
            #expect(r.stdout.contains("ok   the screenshot shows tile"), "\(r.stdout)")
        }
    }
}
