import Foundation
import TegulaTestSupport
import Testing

/// `tegula serve`'s WMTS read by the two clients people use, on loopback: GDAL's WMTS driver
/// (`gdalinfo`, `gdal_translate WMTS:http://…/WMTSCapabilities.xml,layer=…,zoom_level=Z`, RESTful)
/// and OWSLib's `WebMapTileService` (KVP capabilities and GetTile), through
/// `scripts/wmts_check.py`: every tile OWSLib fetches is the file's bytes, every zoom GDAL mosaics
/// is the files' pixels (numpy) at the right place. Web Mercator tilesets in every form
/// `tegula tile` writes (folder, MBTiles, PMTiles, `@2x`), a folder cut by `tegula tile --tms
/// WorldCRS84Quad`, and one in EuropeanETRS89_LAEAQuad (EPSG:3035, northing first) cut by GDAL
/// alone (`scripts/tms_tiles.py`).
@Suite(.timeLimit(.minutes(20)))
struct WMTSClientCLITests {
    static let check = TegulaBinary.packageRoot.appendingPathComponent("scripts/wmts_check.py").path
    static let cutter = TegulaBinary.packageRoot.appendingPathComponent("scripts/tms_tiles.py").path

    /// The counts `wmts_check.py` prints.
    struct Counts: Decodable, Equatable {
        var owslib_tiles: Int
        var missing_404: Int
        var gdal_mosaics: Int
        var gdal_pixels: Int
    }

    static func run(_ base: String, _ layers: [String: String]) throws -> Counts {
        let r = try ProgramRun.run("python3", [check, base] + layers.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
        #expect(r.status == 0, "\(r.stderr)")
        return try JSONDecoder().decode(Counts.self, from: Data(r.stdout.utf8))
    }

    @Test func gdalAndOWSLibReadEveryWebMercatorTilesetTileForTile() throws {
        let dir = try TemporaryFolder.make("wmts")
        defer { try? FileManager.default.removeItem(at: dir) }
        let world = try BlueMarble.georeferenced(in: dir)
        let folder = dir.appendingPathComponent("bm").path
        let mb = dir.appendingPathComponent("bm-mb.mbtiles").path, pm = dir.appendingPathComponent("bm-pm.pmtiles").path
        let retina = dir.appendingPathComponent("bm-2x").path
        for (out, extra) in [(folder, [String]()), (mb, []), (pm, []), (retina, ["--scale", "2"])] {
            let r = try TegulaBinary.run(["tile", world, "-o", out, "--zoom", "0-2", "--quiet"] + extra)
            #expect(r.status == 0, "\(r.stderr)")
        }
        // A region at zooms 2-5: limits that are not whole matrices, and the set described to 5.
        let crop = dir.appendingPathComponent("eu.tif").path
        _ = try ProgramRun.output(
            "gdal_translate",
            ["-q", "-srcwin", "1380", "270", "135", "90", "-a_srs", "EPSG:4326", "-a_ullr", "4", "54", "22", "42", BlueMarble.path, crop])
        let eu = dir.appendingPathComponent("eu").path
        #expect(try TegulaBinary.run(["tile", crop, "-o", eu, "--zoom", "2-5", "--quiet"]).status == 0)
        let server = try LocalHTTPServer.tegula(["serve", folder, mb, pm, retina, eu])
        defer { server.stop() }

        let counts = try Self.run(server.base, ["bm": folder, "bm-mb": folder, "bm-pm": folder, "bm-2x": retina, "eu": eu])
        let euTiles = try Self.files(eu)
        // Every tile in the limits: 21 a world tileset (the @2x one in WebMercatorQuad@2x, 512 px
        // tiles), eu's rectangles; 4 × 3 + 4 mosaics.
        #expect(counts.owslib_tiles + counts.missing_404 == 4 * 21 + Self.rectangles(euTiles), "\(counts)")
        #expect(counts.owslib_tiles == 4 * 21 + euTiles.count && counts.gdal_mosaics == 4 * 3 + 4, "\(counts)")
    }

    /// A folder cut by `tegula tile --tms WorldCRS84Quad` (geographic, two columns at zoom 0) and
    /// one in EuropeanETRS89_LAEAQuad cut by GDAL alone.
    @Test func gdalAndOWSLibReadFoldersCutInOtherTileMatrixSets() throws {
        let dir = try TemporaryFolder.make("wmts")
        defer { try? FileManager.default.removeItem(at: dir) }
        let world = try BlueMarble.georeferenced(in: dir)
        let crs84 = dir.appendingPathComponent("crs84").path
        let cut = try TegulaBinary.run(["tile", world, "-o", crs84, "--tms", "WorldCRS84Quad", "--zoom", "0-2", "--quiet"])
        #expect(cut.status == 0, "\(cut.stderr)")
        let laea = dir.appendingPathComponent("laea").path
        let set = TegulaBinary.packageRoot.appendingPathComponent("Sources/TegulaGeometry/TileMatrixSets/EuropeanETRS89_LAEAQuad.json").path
        _ = try ProgramRun.output("python3", [Self.cutter, world, set, laea, "0:0-0:0-0", "1:0-1:0-1", "2:1-3:0-2", "3:3-5:2-4"])
        let server = try LocalHTTPServer.tegula(["serve", crs84, laea])
        defer { server.stop() }
        let caps = String(decoding: try server.get("/wmts/1.0.0/WMTSCapabilities.xml").body, as: UTF8.self)
        // The CRS's axis order: EPSG:3035 gives the northing first.
        #expect(caps.contains("<TopLeftCorner>5500000.0 2000000.0</TopLeftCorner>"), "\(caps)")
        #expect(caps.contains("<ows:SupportedCRS>urn:ogc:def:crs:EPSG::3035</ows:SupportedCRS>"))
        #expect(
            caps.contains(
                "<TileMatrix>2</TileMatrix><MinTileRow>0</MinTileRow><MaxTileRow>2</MaxTileRow><MinTileCol>1</MinTileCol><MaxTileCol>3</MaxTileCol>"))
        #expect(
            caps.contains("<ows:SupportedCRS>urn:ogc:def:crs:OGC:1.3:CRS84</ows:SupportedCRS>")
                && caps.contains("<TopLeftCorner>-180.0 90.0</TopLeftCorner>"))
        // XYZ paths and TileJSON name Web Mercator tiles: a folder in another set has neither, and
        // the refusal names the standards' paths (a tile in WorldCRS84Quad's range of both).
        for path in ["/crs84.json", "/crs84/1/1/0.png", "/laea/1/0/0.png"] {
            let r = try server.get(path)
            let text = String(decoding: r.body, as: UTF8.self)
            #expect(
                r.status == 404 && text.contains("is in the tile matrix set") && text.contains("/ogcapi/collections/"), "\(path): \(r.status) \(text)"
            )
        }
        let counts = try Self.run(server.base, ["crs84": crs84, "laea": laea])
        let crs84Tiles = try Self.files(crs84)
        #expect(crs84Tiles.count == 2 + 8 + 32 && Self.rectangles(crs84Tiles) == crs84Tiles.count)
        let tiles = 1 + 4 + 9 + 9 + crs84Tiles.count
        #expect(counts == Counts(owslib_tiles: tiles, missing_404: 0, gdal_mosaics: 4 + 3, gdal_pixels: 256 * 256 * tiles))
    }

    /// The z/x/y of every tile file under a folder (`z/x/y.png`).
    static func files(_ folder: String) throws -> [[Int]] {
        try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.map { p in
            p.dropLast(4).split(separator: "/").map { Int($0)! }
        }
    }

    /// The tiles in the rectangles of columns and rows the files span, zoom by zoom.
    static func rectangles(_ tiles: [[Int]]) -> Int {
        Dictionary(grouping: tiles) { $0[0] }.values.map { t in
            (t.map { $0[1] }.max()! - t.map { $0[1] }.min()! + 1) * (t.map { $0[2] }.max()! - t.map { $0[2] }.min()! + 1)
        }.reduce(0, +)
    }
}
