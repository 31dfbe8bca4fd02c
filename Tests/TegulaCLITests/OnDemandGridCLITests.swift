import Foundation
import TegulaTestSupport
import Testing

/// Tiles rendered on demand in another tile matrix set (issue 44 item 1): `tegula serve SCAN --tms
/// bng.json` against `tegula tile SCAN --tms bng.json` of the same scan, the Blue Marble laid over
/// 2.4° × 0.7° of England in WGS 84 degrees (`gdal_translate -a_srs EPSG:4326 -a_ullr`), so each
/// tile is warped through PROJ into the British National Grid of `tegula grid --tms-from
/// EPSG:27700`. scripts/ondemand_grid_check.py asks for every tile of the cut by OGC API – Tiles
/// and by WMTS GetTile: the max zoom's bytes are the cut's; the lower zooms agree with `gdalwarp
/// -r bilinear -et 0` into morecantile's tile bounds at the max zoom's cell size, averaged down by
/// numpy, at 45 dB or more; the tileset's limits hold the cut's tiles, and a tile outside is 404.
/// The viewer shows the tiles made on demand in the set's CRS (scripts/viewer_tms_check.py, the cut
/// folder as the pixels the screen must show at zoom 7).
@Suite(.timeLimit(.minutes(20)))
struct OnDemandGridCLITests {
    /// The British National Grid as `tegula grid --tms-from EPSG:27700` makes it over the grid's
    /// published extent (`bng.json`, id BNG), and the Blue Marble laid over 2.4° × 0.7° of England
    /// in WGS 84 degrees (`england.vrt`), both in `dir`.
    static func britishGridAndEngland(in dir: URL) throws -> (grid: String, scan: String) {
        let grid = dir.appendingPathComponent("bng.json").path
        let made = try TegulaBinary.run(["grid", "--tms-from", "EPSG:27700", "--extent", "-238375,0,900000,1376256", "--id", "BNG", "-o", grid])
        try #require(made.status == 0, "\(made.stderr)")
        let scan = dir.appendingPathComponent("england.vrt").path
        _ = try ProgramRun.output(
            "gdal_translate", ["-q", "-of", "VRT", "-a_srs", "EPSG:4326", "-a_ullr", "-2", "52.6", "0.4", "51.9", BlueMarble.path, scan])
        return (grid, scan)
    }

    @Test func tilesRenderedOnDemandInTheBritishNationalGridAreTheCutTilesAndMatchGdalwarp() throws {
        let dir = try TemporaryFolder.make("ondemand-grid")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (grid, scan) = try Self.britishGridAndEngland(in: dir)
        let cut = dir.appendingPathComponent("cut").path
        let tiled = try TegulaBinary.run(["tile", scan, "-o", cut, "--tms", grid, "--quiet"])
        try #require(tiled.status == 0, "\(tiled.stderr)")

        let server = try LocalHTTPServer.tegula(["serve", scan, "--tms", grid])
        defer { server.stop() }
        let script = TegulaBinary.packageRoot.appendingPathComponent("scripts/ondemand_grid_check.py").path
        let r = try ProgramRun.run(try LocalHTTPServer.venv("python3"), [script, server.base, "england", "BNG", cut, scan, "EPSG:27700", "45"])
        print(r.stdout)
        #expect(r.status == 0, "ondemand_grid_check failed:\n\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("ok   the 136 tiles of the max zoom 7 are the cut tiles' bytes"), "\(r.stdout)")
        #expect(r.stdout.contains("ok   tiles below the max zoom on demand match gdalwarp"), "\(r.stdout)")

        let viewer = TegulaBinary.packageRoot.appendingPathComponent("scripts/viewer_tms_check.py").path
        let v = try ProgramRun.run(
            try LocalHTTPServer.venv("python3"), [viewer, server.base + "/", cut, "EPSG:27700", "-1.0", "52.3", "7", "viewer-ondemand-bng", dir.path])
        print(v.stdout)
        #expect(v.status == 0, "viewer_tms_check failed:\n\(v.stdout)\(v.stderr)")
    }
}
