import Foundation
import TegulaTestSupport
import Testing

/// Tegula's tilesets opened by the programs users already run: GDAL's MBTiles driver
/// (`gdalinfo`, `gdal_translate`), mbutil's `mb-util`, the Python `pmtiles` reader, and a
/// TileJSON 3.0.0 schema (Tests/Schemas, written from the specification) checked by Python
/// `jsonschema`. The reference in every comparison is `tegula tile`'s own folder output; GDAL,
/// mb-util and the pmtiles reader are given PNG, JPEG and WebP tilesets.
@Suite(.timeLimit(.minutes(20)))
struct InteropTests {
    static let zooms = 2...7

    /// A Blue Marble crop over Europe (lon 4…22, lat 42…54, 135 × 90 px) cut by `tegula tile`
    /// into a folder, an MBTiles and a PMTiles with the same options.
    /// `bundles` picks the outputs besides the folder, the reference every test compares with.
    struct Pyramid {
        enum Bundle { case mbtiles, pmtiles }
        let dir: URL
        /// `tegula tile --format`: png, jpeg or webp.
        let format: String
        /// The tiles' file extension (and MBTiles `format`): png, jpg or webp.
        var ext: String { format == "jpeg" ? "jpg" : format }
        var folder: String { dir.appendingPathComponent("eu").path }
        var mbtiles: String { dir.appendingPathComponent("eu-mb.mbtiles").path }
        var pmtiles: String { dir.appendingPathComponent("eu-pm.pmtiles").path }

        init(_ bundles: Set<Bundle> = [.mbtiles, .pmtiles], format: String = "png") throws {
            dir = try TemporaryFolder.make("interop")
            self.format = format
            let crop = dir.appendingPathComponent("eu.tif").path
            let t = try ProgramRun.run(
                "gdal_translate",
                [
                    "-q", "-srcwin", "1380", "270", "135", "90", "-a_srs", "EPSG:4326",
                    "-a_ullr", "4", "54", "22", "42", BlueMarble.path, crop,
                ])
            #expect(t.status == 0, "\(t.stderr)")
            for out in [folder] + (bundles.contains(.mbtiles) ? [mbtiles] : []) + (bundles.contains(.pmtiles) ? [pmtiles] : []) {
                let r = try TegulaBinary.run([
                    "tile", crop, "-o", out, "--zoom", "\(zooms.lowerBound)-\(zooms.upperBound)",
                    "--format", format, "--quiet",
                ])
                #expect(r.status == 0, "\(r.stderr)")
            }
        }

        func remove() { try? FileManager.default.removeItem(at: dir) }
    }

    /// Every file under `root` by its relative path, except those `skip` names.
    static func files(under root: String, skip: Set<String> = []) throws -> [String: Data] {
        var found: [String: Data] = [:]
        let base = URL(fileURLWithPath: root).standardizedFileURL.path
        guard let walk = FileManager.default.enumerator(atPath: base) else { return [:] }
        for case let relative as String in walk {
            var isDir: ObjCBool = false
            let path = base + "/" + relative
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue,
                !skip.contains(relative)
            else { continue }
            found[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
        return found
    }

    /// The folder's tiles (`z/x/y.png`), without its TileJSON and marker.
    static func folderTiles(_ p: Pyramid) throws -> [String: Data] {
        try files(under: p.folder, skip: ["tiles.json", ".tegula-tileset"])
    }

    /// The first lines of a script that uses `scripts/tile_helpers.py` (the one Python helper):
    /// `sys` imported, the helpers' folder on the path, their functions imported.
    static let tileHelpers = """
        import sys
        sys.path.insert(0, "\(TegulaBinary.packageRoot.appendingPathComponent("scripts").path)")
        from tile_helpers import *

        """

    static func python(_ script: String, _ arguments: [String]) throws -> String {
        let r = try ProgramRun.run("python3", ["-c", script] + arguments)
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: GDAL's MBTiles driver

    static func gdalinfo(_ arguments: [String]) throws -> [String: Any] {
        let r = try ProgramRun.run("gdalinfo", ["-json"] + arguments)
        #expect(r.status == 0, "\(r.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    static func resolution(_ z: Int) -> Double { 2 * 20037508.342789244 / 256 / Double(1 << z) }

    /// `gdalinfo` sees the tileset at its max zoom with our bounds, and lower zooms as overviews;
    /// opened at each zoom (`-oo ZOOM_LEVEL`, `USE_BOUNDS=NO`: the tiles' own extent) it finds
    /// exactly the tiles the folder holds at that zoom.
    @Test func gdalinfoSeesEveryZoomLevel() throws {
        let p = try Pyramid([.mbtiles])
        defer { p.remove() }
        let info = try Self.gdalinfo([p.mbtiles])
        #expect(info["driverShortName"] as? String == "MBTiles")
        let gt = try #require(info["geoTransform"] as? [Double])
        let res7 = Self.resolution(7)
        #expect(abs(gt[1] - res7) < 1e-6 && abs(gt[5] + res7) < 1e-6, "pixel size of zoom 7: \(gt)")
        // Origin at the bounds' west and north edges (lon 4, lat 54 in EPSG:3857).
        let west = 4 * 20037508.342789244 / 180, north = 6378137 * log(tan(Double.pi / 4 + 54 * Double.pi / 360))
        #expect(abs(gt[0] - west) < res7 && abs(gt[3] - north) < res7, "\(gt)")
        let bands = try #require(info["bands"] as? [[String: Any]])
        #expect(bands.count == 4, "RGBA")
        let metadata = (info["metadata"] as? [String: Any])?[""] as? [String: String]
        #expect(metadata?["ZOOM_LEVEL"] == "7" && metadata?["minzoom"] == "2" && metadata?["maxzoom"] == "7", "\(String(describing: metadata))")
        // Overviews are the zooms below, each half the one above (GDAL lists them down to about one tile).
        let width = try #require(info["size"] as? [Int])[0]
        let overviews = try #require(bands.first?["overviews"] as? [[String: Any]])
        #expect((2...5).contains(overviews.count), "\(overviews)")
        for (i, o) in overviews.enumerated() {
            let w = try #require(o["size"] as? [Int])[0]
            #expect(abs(w - (width >> (i + 1))) <= 1, "overview \(i): \(w) px for \(width) at zoom 7")
        }
        let tiles = try Self.folderTiles(p).keys.map { $0.split(separator: "/").compactMap { Int($0.split(separator: ".")[0]) } }
        for z in Self.zooms {
            let level = try Self.gdalinfo(["-oo", "ZOOM_LEVEL=\(z)", "-oo", "USE_BOUNDS=NO", p.mbtiles])
            let g = try #require(level["geoTransform"] as? [Double])
            let size = try #require(level["size"] as? [Int])
            let xs = tiles.filter { $0[0] == z }.map { $0[1] }, ys = tiles.filter { $0[0] == z }.map { $0[2] }
            let columns = try #require(xs.max()) - xs.min()! + 1, rows = try #require(ys.max()) - ys.min()! + 1
            #expect(abs(g[1] - Self.resolution(z)) < 1e-6, "zoom \(z): \(g)")
            #expect(size == [columns * 256, rows * 256], "zoom \(z): \(size) for \(columns) × \(rows) tiles")
            #expect(abs(g[0] - (-20037508.342789244 + Double(xs.min()! * 256) * g[1])) < 1e-3, "zoom \(z) west edge")
        }
    }

    /// Reads `tif` (from `gdal_translate` of one zoom) and the folder's tiles (`.EXT`) of that zoom
    /// with GDAL's Python bindings, places the tiles on the zoom's pixel grid and compares RGBA
    /// (colour only where alpha > 0; `zoom_mosaic_difference` of scripts/tile_helpers.py): prints
    /// `tiles opaque alpha_diff colour_diff`.
    static let compareScript =
        tileHelpers + """
            tif, folder, z, ext = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
            R = 20037508.342789244
            print(*zoom_mosaic_difference(tif, folder, z, (-R, R), 2 * R / 256 / 2 ** z, 256, exts=(ext,), res_tolerance=1e-6))
            """

    @Test(arguments: [(7, "png"), (5, "png"), (2, "png"), (7, "jpeg"), (4, "jpeg"), (7, "webp"), (4, "webp")])
    func gdalTranslateReadsAZoomWithTheFoldersPixels(zoom: Int, format: String) throws {
        let p = try Pyramid([.mbtiles], format: format)
        defer { p.remove() }
        let tif = p.dir.appendingPathComponent("z\(zoom).tif").path
        let r = try ProgramRun.run("gdal_translate", ["-q", "-oo", "ZOOM_LEVEL=\(zoom)", "-oo", "USE_BOUNDS=NO", "-of", "GTiff", p.mbtiles, tif])
        #expect(r.status == 0, "\(r.stderr)")
        let fields = try Self.python(Self.compareScript, [tif, p.folder, "\(zoom)", p.ext]).split(separator: " ").compactMap { Int($0) }
        try #require(fields.count == 4)
        let tilesAtZoom = try Self.folderTiles(p).keys.filter { $0.hasPrefix("\(zoom)/") }.count
        #expect(fields[0] == tilesAtZoom, "every tile of zoom \(zoom) lies in GDAL's window")
        #expect(fields[1] > 0, "some opaque pixels")
        #expect(fields[2] == 0 && fields[3] == 0, "pixels differing from the folder's tiles: alpha \(fields[2]), colour \(fields[3])")
    }

    /// A PNG is what most people ask gdal_translate for; its pixels equal the GTiff's.
    @Test func gdalTranslateWritesAZoomAsPNG() throws {
        let p = try Pyramid([.mbtiles])
        defer { p.remove() }
        let png = p.dir.appendingPathComponent("z6.png").path, tif = p.dir.appendingPathComponent("z6.tif").path
        for (out, format) in [(png, "PNG"), (tif, "GTiff")] {
            let r = try ProgramRun.run("gdal_translate", ["-q", "-oo", "ZOOM_LEVEL=6", "-of", format, p.mbtiles, out])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let same = try Self.python(
            """
            import sys, numpy as np
            from osgeo import gdal
            a, b = (gdal.Open(f).ReadAsArray() for f in sys.argv[1:3])
            print(a.shape[0], a.shape == b.shape and bool(np.array_equal(a, b)))
            """, [png, tif])
        #expect(same == "4 True")
    }

    // MARK: mbutil

    @Test(arguments: ["png", "jpeg", "webp"])
    func mbutilExportsTheMBTilesToTheFoldersTiles(format: String) throws {
        let p = try Pyramid([.mbtiles], format: format)
        defer { p.remove() }
        let out = p.dir.appendingPathComponent("exported").path
        let r = try ProgramRun.run("mb-util", ["--scheme=xyz", "--image_format=\(p.ext)", p.mbtiles, out])
        #expect(r.status == 0, "\(r.stderr)")
        let exported = try Self.files(under: out, skip: ["metadata.json"])
        let folder = try Self.folderTiles(p)
        #expect(!folder.isEmpty)
        #expect(Set(exported.keys) == Set(folder.keys), "same z/x/y set")
        let differing = folder.filter { exported[$0.key] != $0.value }.map(\.key).sorted()
        #expect(differing.isEmpty, "tiles differing byte for byte: \(differing.prefix(5))")
        // mb-util's metadata.json is the MBTiles metadata table.
        let meta = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/metadata.json"))) as? [String: Any]
        #expect(
            meta?["format"] as? String == p.ext && meta?["minzoom"] as? String == "2" && meta?["maxzoom"] as? String == "7",
            "\(String(describing: meta))")
    }

    // MARK: Python pmtiles

    @Test(arguments: ["png", "jpeg", "webp"])
    func pmtilesReaderListsAndReadsEveryTile(format: String) throws {
        let p = try Pyramid([.pmtiles], format: format)
        defer { p.remove() }
        let folder = try Self.folderTiles(p)
        let out = try Self.python(
            """
            import sys, os
            from pmtiles.reader import Reader, MmapSource, all_tiles
            path, folder, ext = sys.argv[1], sys.argv[2], '.' + sys.argv[3]
            with open(path, 'rb') as f:
                src = MmapSource(f)
                r = Reader(src)
                h = r.header()
                listed = {(z, x, y): data for (z, x, y), data in all_tiles(src)}
                want = {}
                for root, _, names in os.walk(folder):
                    for n in names:
                        if n.endswith(ext):
                            z, x = (int(s) for s in os.path.relpath(root, folder).split('/'))
                            want[(z, x, int(n[:-len(ext)]))] = open(os.path.join(root, n), 'rb').read()
                differ = sum(listed.get(k) != v for k, v in want.items())
                got = sum(r.get(*k) == v for k, v in want.items())
                print(len(listed), len(want), len(set(listed) ^ set(want)), differ, got,
                      h['tile_type'].name, h['min_zoom'], h['max_zoom'])
            """, [p.pmtiles, p.folder, p.ext])
        let n = folder.count
        #expect(n > 0)
        let type = ["png": "PNG", "jpeg": "JPEG", "webp": "WEBP"][format] ?? "?"
        #expect(out == "\(n) \(n) 0 0 \(n) \(type) 2 7", "listed, folder, symmetric difference, differing, read by get(), type, zooms")
    }

    // MARK: TileJSON 3.0.0

    static let schema = TegulaBinary.packageRoot.appendingPathComponent("Tests/Schemas/tilejson-3.0.0.schema.json").path

    /// Validates each file against the schema, plus the rules a schema cannot state; prints one
    /// JSON array of error lists (empty = valid).
    static let validateScript = """
        import sys, json
        from jsonschema import Draft202012Validator
        schema = json.load(open(sys.argv[1]))
        Draft202012Validator.check_schema(schema)
        validator = Draft202012Validator(schema)
        report = []
        for path in sys.argv[2:]:
            doc = json.load(open(path))
            errors = sorted('/'.join(map(str, e.absolute_path)) + ': ' + e.message for e in validator.iter_errors(doc))
            if isinstance(doc, dict) and not errors:
                lo, hi = doc.get('minzoom', 0), doc.get('maxzoom', 30)
                w, s, e, n = doc.get('bounds', [-180, -85.0511287798066, 180, 85.0511287798066])
                if lo > hi:
                    errors.append('minzoom: greater than maxzoom')
                if 'center' in doc:
                    lon, lat, z = doc['center']
                    if not lo <= z <= hi:
                        errors.append('center: zoom outside minzoom..maxzoom')
                    inside = (w <= lon <= e) if w <= e else (lon >= w or lon <= e)
                    if not (inside and s <= lat <= n):
                        errors.append('center: outside bounds')
                if s > n:
                    errors.append('bounds: south above north')
            report.append(errors)
        print(json.dumps(report))
        """

    static func validate(_ documents: [String]) throws -> [[String]] {
        let out = try python(validateScript, [schema] + documents)
        return try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String]])
    }

    /// The TileJSON `tegula serve` hands out for each kind of tileset is valid TileJSON 3.0.0.
    @Test func servedTileJSONValidates() throws {
        let p = try Pyramid()
        defer { p.remove() }
        let server = try LocalHTTPServer.tegula(["serve", p.folder, p.mbtiles, p.pmtiles])
        defer { server.stop() }
        var docs: [String] = []
        for id in ["eu", "eu-mb", "eu-pm"] {
            let r = try server.get("/\(id).json")
            #expect(r.status == 200)
            let path = p.dir.appendingPathComponent("\(id).tilejson").path
            try r.body.write(to: URL(fileURLWithPath: path))
            docs.append(path)
        }
        #expect(try Self.validate(docs) == [[], [], []])
    }

    /// `tegula tile`'s tiles.json meets every rule but one: its `tiles` template is relative to
    /// the folder (a folder has no URL until it is served), where TileJSON 3.0.0 says endpoints
    /// MUST be absolute. `tegula serve` answers with absolute ones (test above).
    @Test func folderTileJSONValidatesButForItsRelativeTemplate() throws {
        let p = try Pyramid([])
        defer { p.remove() }
        let tilesJSON = p.folder + "/tiles.json"
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: tilesJSON))) as? [String: Any])
        #expect(doc["tiles"] as? [String] == ["{z}/{x}/{y}.png"])
        var absolute = doc
        absolute["tiles"] = ["https://maps.example.org/eu/{z}/{x}/{y}.png"]
        let fixed = p.dir.appendingPathComponent("absolute.json").path
        try JSONSerialization.data(withJSONObject: absolute).write(to: URL(fileURLWithPath: fixed))
        let report = try Self.validate([tilesJSON, fixed])
        #expect(report[0].count == 1 && report[0].first?.hasPrefix("tiles/0: '{z}/{x}/{y}.png' does not match") == true, "\(report[0])")
        #expect(report[1] == [], "with an absolute template everything else is valid")
    }

    /// The schema and the checks beside it reject what the specification forbids.
    @Test func schemaRejectsInvalidTileJSON() throws {
        let dir = try TemporaryFolder.make("interop")
        defer { try? FileManager.default.removeItem(at: dir) }
        let good: [String: Any] = [
            "tilejson": "3.0.0", "tiles": ["https://a.example/{z}/{x}/{y}.png"], "minzoom": 2, "maxzoom": 7,
            "bounds": [4, 42, 22, 54], "center": [13, 48, 5], "name": "eu", "footprint": ["type": "Polygon"],
        ]
        let cases: [(String, [String: Any], String)] = [
            ("good", good, ""),
            ("version", good.merging(["tilejson": "2.2.0"]) { $1 }, "tilejson: '3.0.0' was expected"),
            ("no tiles", good.filter { $0.key != "tiles" }, ": 'tiles' is a required property"),
            ("empty tiles", good.merging(["tiles": [String]()]) { $1 }, "tiles: [] should be non-empty"),
            ("scheme", good.merging(["scheme": "zxy"]) { $1 }, "scheme: 'zxy' is not one of"),
            ("zoom", good.merging(["maxzoom": 31]) { $1 }, "maxzoom: 31 is greater than the maximum of 30"),
            ("bounds", good.merging(["bounds": [4, 42, 22]]) { $1 }, "bounds: [4, 42, 22] is too short"),
            ("latitude", good.merging(["bounds": [4, 42, 22, 95]]) { $1 }, "bounds/3: 95 is greater than the maximum of 90"),
            ("vector", good.merging(["tiles": ["https://a.example/{z}/{x}/{y}.pbf"]]) { $1 }, ": 'vector_layers' is a required property"),
            ("zooms", good.filter { $0.key != "center" }.merging(["minzoom": 8]) { $1 }, "minzoom: greater than maxzoom"),
            ("center zoom", good.merging(["center": [13, 48, 9]]) { $1 }, "center: zoom outside minzoom..maxzoom"),
            ("center", good.merging(["center": [30, 48, 5]]) { $1 }, "center: outside bounds"),
        ]
        var paths: [String] = []
        for (i, c) in cases.enumerated() {
            let path = dir.appendingPathComponent("\(i).json").path
            try JSONSerialization.data(withJSONObject: c.1).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let report = try Self.validate(paths)
        try #require(report.count == cases.count)
        for (c, errors) in zip(cases, report) {
            if c.2.isEmpty {
                #expect(errors.isEmpty, "\(c.0): \(errors)")
            } else {
                #expect(errors.count == 1 && errors[0].hasPrefix(c.2), "\(c.0): \(errors)")
            }
        }
    }
}
