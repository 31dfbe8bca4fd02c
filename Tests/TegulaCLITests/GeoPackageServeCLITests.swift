import Foundation
import TegulaTestSupport
import Testing

/// `tegula serve OUT.gpkg`: a GeoPackage served tile for tile, as a folder with its `tms.json` is
/// (OGC API – Tiles in its set, XYZ for WebMercatorQuad). The oracle is the file itself, read
/// by Python's `sqlite3` (every row of the tiles table, rows counted from the top as the
/// specification counts them), for GeoPackages `tegula tile` wrote and one GDAL's GPKG driver
/// wrote (`gdal_translate -of GPKG`, Web Mercator tiling scheme).
@Suite(.timeLimit(.minutes(20)))
struct GeoPackageServeCLITests {
    /// Fetches every tile row of each `ID=FILE` by the URL `TEMPLATE` (`{id}`, `{z}`, `{x}`,
    /// `{y}` the row from the top); prints `tiles equal` per file.
    static let check = """
        import sqlite3, sys, urllib.request
        base, template = sys.argv[1], sys.argv[2]
        for arg in sys.argv[3:]:
            id, path = arg.split("=", 1)
            db = sqlite3.connect(path)
            table = db.execute("SELECT table_name FROM gpkg_contents WHERE data_type = 'tiles'").fetchone()[0]
            rows = db.execute(f'SELECT zoom_level, tile_column, tile_row, tile_data FROM "{table}"').fetchall()
            equal = 0
            for z, x, y, data in rows:
                url = base + template.format(id=id, z=z, x=x, y=y)
                equal += urllib.request.urlopen(url).read() == bytes(data)
            print(len(rows), equal)
        """

    @Test func geoPackagesAreServedTileForTileInTheirSet() throws {
        let dir = try TemporaryFolder.make("gpkg-serve")
        defer { try? FileManager.default.removeItem(at: dir) }
        let world = try BlueMarble.georeferenced(in: dir)
        let crs84 = dir.appendingPathComponent("crs84.gpkg").path, merc = dir.appendingPathComponent("merc.gpkg").path
        var r = try TegulaBinary.run(["tile", world, "-o", crs84, "--tms", "WorldCRS84Quad", "--zoom", "0-2", "--quiet"])
        try #require(r.status == 0, "\(r.stderr)")
        r = try TegulaBinary.run(["tile", world, "-o", merc, "--zoom", "0-2", "--quiet"])
        try #require(r.status == 0, "\(r.stderr)")
        let gdal = dir.appendingPathComponent("gdal.gpkg").path
        _ = try ProgramRun.output(
            "gdal_translate",
            [
                "-q", "-of", "GPKG", "-co", "TILING_SCHEME=GoogleMapsCompatible", "-co", "ZOOM_LEVEL_STRATEGY=LOWER", "-co", "TILE_FORMAT=PNG", world,
                gdal,
            ])
        let server = try LocalHTTPServer.tegula(["serve", crs84, merc, gdal])
        defer { server.stop() }
        let inSet = try InteropTests.python(
            Self.check, [server.base, "/ogcapi/collections/{id}/map/tiles/WorldCRS84Quad/{z}/{y}/{x}", "crs84=\(crs84)"])
        let xyz = try InteropTests.python(Self.check, [server.base, "/{id}/{z}/{x}/{y}.png", "merc=\(merc)", "gdal=\(gdal)"])
        let counts = (inSet + "\n" + xyz).split(separator: "\n").map { $0.split(separator: " ").compactMap { Int($0) } }
        try #require(counts.count == 3, "\(inSet) / \(xyz)")
        for (name, c) in zip(["crs84", "merc", "gdal"], counts) {
            #expect(c.count == 2 && c[0] > 0 && c[1] == c[0], "\(name): tiles, equal: \(c)")
        }
        // WorldCRS84Quad's zoom 0 has two tiles side by side: the set is the file's, not Web Mercator's.
        #expect(counts[0][0] == 2 + 8 + 32, "\(counts[0])")
    }

    @Test func aGeoPackageWithNoTilesIsRefusedInOneLine() throws {
        let dir = try TemporaryFolder.make("gpkg-serve")
        defer { try? FileManager.default.removeItem(at: dir) }
        let features = dir.appendingPathComponent("features.gpkg").path
        let point = dir.appendingPathComponent("point.geojson")
        try Data(#"{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [4.9, 52.4]}}"#.utf8).write(to: point)
        _ = try ProgramRun.output("ogr2ogr", ["-f", "GPKG", features, point.path])
        let r = try TegulaBinary.run(["serve", features, "--port", "0"])
        #expect(r.status != 0)
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("no tiles table"), "\(r.stderr)")
    }
}
