import Foundation
import TegulaTestSupport
import Testing

/// `tegula serve`'s OGC API – Tiles on loopback, walked from its landing page by the links it
/// gives and validated by Python `jsonschema` against the specifications' own schemas (the OGC
/// API – Tiles 1.0 OpenAPI document's responses and the 2D Tile Matrix Set 2.0 `tileSet.json` and
/// `tileMatrixSet.json`, vendored in Tests/Schemas): `scripts/ogc_schema_check.py`. Served: a
/// Web Mercator folder, MBTiles and PMTiles, `@2x` tiles, a folder and a GeoPackage cut by `tegula
/// tile --tms WorldCRS84Quad`, one in EuropeanETRS89_LAEAQuad cut by GDAL (`scripts/tms_tiles.py`),
/// and the scan itself, rendered on demand.
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
        let crs84 = dir.appendingPathComponent("crs84").path
        #expect(try TegulaBinary.run(["tile", world, "-o", crs84, "--tms", "WorldCRS84Quad", "--zoom", "0-1", "--quiet"]).status == 0)
        let gpkg = dir.appendingPathComponent("crs84-gp.gpkg").path
        #expect(try TegulaBinary.run(["tile", world, "-o", gpkg, "--tms", "WorldCRS84Quad", "--zoom", "0-1", "--quiet"]).status == 0)
        // The scan itself is served too: tiles rendered on demand, a collection of its own.
        let server = try LocalHTTPServer.tegula(["serve"] + paths + [laea, crs84, gpkg, world])
        defer { server.stop() }

        let r = try ProgramRun.run("python3", [Self.check, server.base + "/ogcapi"])
        #expect(r.status == 0, "\(r.stderr)")
        let counts = try JSONDecoder().decode([String: Int].self, from: Data(r.stdout.utf8))
        // Eight collections, each one tileset; four sets (WebMercatorQuad, its @2x, the LAEA one,
        // WorldCRS84Quad), each listed and each a tileset's tiling scheme.
        #expect(counts["LandingPage"] == 1 && counts["Conformance"] == 1 && counts["CollectionsList"] == 1, "\(counts)")
        #expect(counts["Collection"] == 8 && counts["TileSetsList"] == 8 && counts["TileSet"] == 8 && counts["tileSet.json"] == 8, "\(counts)")
        #expect(counts["TileMatrixSetsList"] == 1 && counts["tileMatrixSet.json"] == 4 && counts["TileMatrixSet"] == 4 + 8, "\(counts)")
        #expect(counts["tiles"] == 8 && counts["NotFound"] == 1, "\(counts)")
    }
}
