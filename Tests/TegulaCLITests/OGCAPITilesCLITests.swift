import Foundation
import TegulaTestSupport
import Testing

/// `tegula serve`'s OGC API – Tiles on loopback, walked from its landing page by the links it
/// gives and validated by Python `jsonschema` against the specifications' own schemas (the OGC
/// API – Tiles 1.0 OpenAPI document's responses and the 2D Tile Matrix Set 2.0 `tileSet.json` and
/// `tileMatrixSet.json`, vendored in Tests/Schemas): `scripts/ogc_schema_check.py`. Served: a
/// Web Mercator folder, MBTiles and PMTiles, `@2x` tiles, and a folder in
/// EuropeanETRS89_LAEAQuad cut by GDAL (`scripts/tms_tiles.py`).
@Suite(.timeLimit(.minutes(20)))
struct OGCAPITilesCLITests {
    static let check = TegulaBinary.packageRoot.appendingPathComponent("scripts/ogc_schema_check.py").path

    @Test func everyAnswerValidatesAgainstTheSpecificationsSchemas() throws {
        let dir = try TemporaryFolder.make("ogcapi")
        defer { try? FileManager.default.removeItem(at: dir) }
        let world = try BlueMarble.georeferenced(in: dir)
        var paths: [String] = []
        for (name, extra) in [("bm", [String]()), ("bm-mb.mbtiles", []), ("bm-pm.pmtiles", []), ("bm-2x", ["--scale", "2"])] {
            let out = dir.appendingPathComponent(name).path
            let r = try TegulaBinary.run(["tile", world, "-o", out, "--zoom", "0-1", "--quiet"] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            paths.append(out)
        }
        let laea = dir.appendingPathComponent("laea").path
        let set = TegulaBinary.packageRoot.appendingPathComponent("Sources/TegulaGeometry/TileMatrixSets/EuropeanETRS89_LAEAQuad.json").path
        _ = try ProgramRun.output(
            "python3",
            [TegulaBinary.packageRoot.appendingPathComponent("scripts/tms_tiles.py").path, world, set, laea, "0:0-0:0-0", "1:0-1:0-1"])
        let server = try LocalHTTPServer.tegula(["serve"] + paths + [laea])
        defer { server.stop() }

        let r = try ProgramRun.run("python3", [Self.check, server.base + "/ogcapi"])
        #expect(r.status == 0, "\(r.stderr)")
        let counts = try JSONDecoder().decode([String: Int].self, from: Data(r.stdout.utf8))
        // Five collections, each one tileset; three sets (WebMercatorQuad, its @2x, the LAEA one),
        // each listed and each a tileset's tiling scheme.
        #expect(counts["LandingPage"] == 1 && counts["Conformance"] == 1 && counts["CollectionsList"] == 1, "\(counts)")
        #expect(counts["Collection"] == 5 && counts["TileSetsList"] == 5 && counts["TileSet"] == 5 && counts["tileSet.json"] == 5)
        #expect(counts["TileMatrixSetsList"] == 1 && counts["tileMatrixSet.json"] == 3 && counts["TileMatrixSet"] == 3 + 5)
        #expect(counts["tiles"] == 5 && counts["NotFound"] == 1)
    }
}
