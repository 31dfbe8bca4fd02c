import Foundation
import TegulaTestSupport
import Testing

/// A scan rendered on demand in another tile matrix set (`tegula serve SCAN --tms
/// UTM31WGS84Quad`), read through WMTS by the two clients people use (`scripts/wmts_check.py`:
/// OWSLib's `WebMapTileService` fetching every tile of the layer's limits by KVP GetTile, GDAL's
/// WMTS driver mosaicking every zoom through the RESTful capabilities). The scan is the Blue
/// Marble's 0°–6° E, 43°–49° N (France, the zone's own meridians), 45 px enlarged to 180 so that it
/// has two zooms, 5 and 6. The tiles the clients get are compared with the folder `tegula tile
/// --tms UTM31WGS84Quad` cuts from the same scan, decoded by GDAL and compared by numpy: at the max
/// zoom the served bytes and GDAL's mosaic must be the files'; below it, where on demand averages
/// the max zoom down in one step and the cut halves it zoom by zoom, at 45 dB or more.
/// (`OnDemandGridCLITests` checks the tiles' pixels against gdalwarp; this suite checks the clients.)
@Suite(.timeLimit(.minutes(20)))
struct OnDemandWMTSCLITests {
    @Test func gdalAndOWSLibReadAScanRenderedOnDemandInUTM31AsTheCutTiles() throws {
        let dir = try TemporaryFolder.make("ondemand-wmts")
        defer { try? FileManager.default.removeItem(at: dir) }
        let scan = dir.appendingPathComponent("france.tif").path
        _ = try ProgramRun.output(
            "gdal_translate",
            [
                "-q", "-srcwin", "1350", "307", "45", "45", "-outsize", "180", "180", "-r", "bilinear", "-a_srs", "EPSG:4326",
                "-a_ullr", "0", "49", "6", "43", BlueMarble.path, scan,
            ])
        let cut = dir.appendingPathComponent("cut").path
        let tiled = try TegulaBinary.run(["tile", scan, "-o", cut, "--tms", "UTM31WGS84Quad", "--quiet"])
        try #require(tiled.status == 0, "\(tiled.stderr)")

        let server = try LocalHTTPServer.tegula(["serve", scan, "--tms", "UTM31WGS84Quad"])
        defer { server.stop() }
        let r = try ProgramRun.run(try LocalHTTPServer.venv("python3"), [WMTSClientCLITests.check, "--min-db", "45", server.base, "france=\(cut)"])
        try #require(r.status == 0, "wmts_check failed: \(r.stderr)")
        let counts = try JSONDecoder().decode(PipelineWMTSCLITests.Counts.self, from: Data(r.stdout.utf8))
        let (owslibNear, gdalNear) = (try #require(counts.owslib_near), try #require(counts.gdal_near))
        // The cut's 8 tiles, 4 a zoom: zoom 6's equal, zoom 5's near; both zooms mosaicked by GDAL.
        #expect(counts.owslib_tiles + owslibNear == 8 && counts.missing_404 == 0, "\(r.stdout)")
        #expect(counts.owslib_tiles >= 4 && owslibNear <= 4, "\(r.stdout)")
        #expect(counts.gdal_mosaics == 2 && gdalNear <= 1 && (counts.lowest_db ?? .infinity) >= 45, "\(r.stdout)")
    }
}
