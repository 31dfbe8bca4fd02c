import Foundation
import TegulaTestSupport
import Testing

/// `tegula tile … -o OUT.gpkg` read back by GDAL's GPKG driver and checked against the
/// GeoPackage specification by GDAL's own validator (`validate_gpkg.py`, Debian's python3-gdal):
/// `gdalinfo` finds EPSG:3857, the cut's extent on the max zoom's pixel grid and every zoom;
/// `gdal_translate -oo ZOOM_LEVEL=z` of a zoom equals, pixel for pixel, a mosaic (numpy) of the
/// tiles `tegula tile` writes into a folder with the same options; SQLite shows the spec's
/// tables with the Web Mercator grid's matrices. The folder is the reference throughout.
@Suite(.timeLimit(.minutes(20)))
struct GeoPackageCLITests {
    static let zooms = 2...7
    /// Half the width of the Web Mercator world, metres.
    static let half = 20037508.342789244

    /// A Blue Marble crop over Europe (lon 4…22, lat 42…54) cut into a folder and a GeoPackage
    /// with the same options.
    struct Cut {
        let dir: URL
        let format: String
        let scale: Int
        var folder: String { dir.appendingPathComponent("eu").path }
        var gpkg: String { dir.appendingPathComponent("eu.gpkg").path }
        var tilePixels: Int { 256 * scale }

        init(format: String = "png", scale: Int = 1) throws {
            dir = try TemporaryFolder.make("gpkg-cli")
            self.format = format
            self.scale = scale
            let crop = dir.appendingPathComponent("eu.tif").path
            let t = try ProgramRun.run(
                "gdal_translate",
                ["-q", "-srcwin", "1380", "270", "135", "90", "-a_srs", "EPSG:4326", "-a_ullr", "4", "54", "22", "42", BlueMarble.path, crop])
            #expect(t.status == 0, "\(t.stderr)")
            for out in [folder, gpkg] {
                let r = try TegulaBinary.run([
                    "tile", crop, "-o", out, "--zoom", "\(zooms.lowerBound)-\(zooms.upperBound)", "--format", format,
                    "--scale", "\(scale)", "--quiet",
                ])
                #expect(r.status == 0, "\(r.stderr)")
            }
        }

        /// The folder's tiles as (z, x, y).
        func tiles() throws -> [[Int]] {
            try InteropTests.files(under: folder, skip: ["tiles.json", ".tegula-tileset"]).keys.map {
                $0.split(separator: "/").compactMap { Int($0.split(separator: ".")[0].split(separator: "@")[0]) }
            }
        }
    }

    /// `gdalinfo -json`, which must open the file without a warning (GDAL 3.6 warns of a
    /// GeoPackage version newer than it knows).
    static func gdalinfo(_ arguments: [String]) throws -> [String: Any] {
        let r = try ProgramRun.run("gdalinfo", ["-json"] + arguments)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    /// The pixel size of zoom `z` with tiles of `pixels` across.
    static func resolution(_ z: Int, pixels: Int = 256) -> Double { 2 * half / Double(pixels) / Double(1 << z) }

    /// GDAL opens the GeoPackage in EPSG:3857 over the max zoom's tiles (the content's bounds),
    /// at the max zoom's pixel size; each zoom opened with `-oo ZOOM_LEVEL` keeps that extent at
    /// its own pixel size.
    @Test func gdalinfoFindsTheCRSTheExtentAndEveryZoom() throws {
        let cut = try Cut()
        let info = try Self.gdalinfo([cut.gpkg])
        #expect(info["driverShortName"] as? String == "GPKG")
        let wkt = (info["coordinateSystem"] as? [String: Any])?["wkt"] as? String ?? ""
        #expect(wkt.contains("ID[\"EPSG\",3857]"), "CRS: \(wkt.suffix(120))")
        let top = try cut.tiles().filter { $0[0] == Self.zooms.upperBound }
        let xs = top.map { $0[1] }, ys = top.map { $0[2] }
        let (x0, x1, y0, y1) = (try #require(xs.min()), try #require(xs.max()), try #require(ys.min()), try #require(ys.max()))
        let span = 2 * Self.half / Double(1 << Self.zooms.upperBound)
        let left = -Self.half + Double(x0) * span, north = Self.half - Double(y0) * span
        for z in Self.zooms {
            let level = try Self.gdalinfo(["-oo", "ZOOM_LEVEL=\(z)", cut.gpkg])
            let gt = try #require(level["geoTransform"] as? [Double])
            let size = try #require(level["size"] as? [Int])
            let res = Self.resolution(z)
            #expect(abs(gt[1] - res) < 1e-9 * res && abs(gt[5] + res) < 1e-9 * res && gt[2] == 0 && gt[4] == 0, "zoom \(z): \(gt)")
            #expect(abs(gt[0] - left) < 1e-6 && abs(gt[3] - north) < 1e-6, "zoom \(z) origin \(gt[0]), \(gt[3]); the cut's \(left), \(north)")
            let columns = (x1 - x0 + 1) * 256 >> (Self.zooms.upperBound - z), rows = (y1 - y0 + 1) * 256 >> (Self.zooms.upperBound - z)
            #expect(size == [columns, rows], "zoom \(z): \(size) px, the cut's \(columns) × \(rows)")
            #expect(level["bands"].map { ($0 as? [Any])?.count } == 4, "RGBA")
        }
        // Without ZOOM_LEVEL it is the max zoom.
        let gt = try #require(info["geoTransform"] as? [Double])
        #expect(abs(gt[1] - Self.resolution(Self.zooms.upperBound)) < 1e-9)
    }

    /// Reads `tif` (`gdal_translate` of one zoom) and the folder's tiles of that zoom with GDAL's
    /// Python bindings, places the tiles on the zoom's pixel grid and compares RGBA (colour only
    /// where alpha > 0; `zoom_mosaic_difference` of scripts/tile_helpers.py): prints `tiles opaque
    /// alpha_diff colour_diff`. A tile is `{x}/{y}{SUFFIX}.png`, `.jpg` or `.webp`, whichever
    /// exists (an `auto` folder has both).
    static let compareScript =
        InteropTests.tileHelpers + """
            tif, folder, z, px, suffix = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
            R = 20037508.342789244
            print(*zoom_mosaic_difference(tif, folder, z, (-R, R), 2 * R / px / 2 ** z, px, suffix=suffix))
            """

    /// `gdal_translate` of one zoom (to GeoTIFF, or to PNG as most people ask for it) has exactly
    /// the pixels of the folder's tiles at that zoom, for every format and at scale 2.
    @Test(arguments: [
        (7, "png", 1, "GTiff"), (4, "png", 1, "GTiff"), (2, "png", 1, "PNG"), (7, "jpeg", 1, "GTiff"), (5, "webp", 1, "GTiff"),
        (7, "auto", 1, "PNG"), (6, "png", 2, "GTiff"),
    ])
    func gdalTranslateOfAZoomHasTheFoldersPixels(zoom: Int, format: String, scale: Int, driver: String) throws {
        let cut = try Cut(format: format, scale: scale)
        let out = cut.dir.appendingPathComponent("z\(zoom)." + (driver == "PNG" ? "png" : "tif")).path
        let r = try ProgramRun.run("gdal_translate", ["-q", "-oo", "ZOOM_LEVEL=\(zoom)", "-of", driver, cut.gpkg, out])
        #expect(r.status == 0, "\(r.stderr)")
        if driver == "PNG" {
            // A PNG carries no georeference of its own: GDAL writes it beside, as .aux.xml.
            #expect(FileManager.default.fileExists(atPath: out + ".aux.xml"))
        }
        let fields = try InteropTests.python(
            Self.compareScript, [out, cut.folder, "\(zoom)", "\(cut.tilePixels)", scale == 2 ? "@2x" : ""]
        ).split(separator: " ").compactMap { Int($0) }
        try #require(fields.count == 4)
        let atZoom = try cut.tiles().filter { $0[0] == zoom }.count
        #expect(atZoom > 0 && fields[0] == atZoom, "\(fields[0]) of the folder's \(atZoom) tiles at zoom \(zoom) lie in GDAL's raster")
        #expect(fields[1] > 0, "some opaque pixels")
        #expect(fields[2] == 0 && fields[3] == 0, "pixels differing from the folder's tiles: alpha \(fields[2]), colour \(fields[3])")
    }

    /// One `sqlite3` answer, rows as lines and columns joined by `|`.
    static func sql(_ path: String, _ query: String) throws -> String {
        let r = try ProgramRun.run("sqlite3", [path, query])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The specification's tables as SQLite shows them: the application id, EPSG:3857 in
    /// `gpkg_spatial_ref_sys` with PROJ's WKT, the tiles in `gpkg_contents`, the whole Web Mercator
    /// square in `gpkg_tile_matrix_set`, a matrix a zoom (2^z wide and high, 256 or 512 px tiles,
    /// the zoom's pixel size); WebP registered as `gpkg_webp`; and GDAL's validator finds nothing.
    @Test(arguments: [("png", 1), ("webp", 1), ("auto", 2)])
    func theSpecificationsTablesHoldTheGrid(format: String, scale: Int) throws {
        let cut = try Cut(format: format, scale: scale)
        #expect(try Self.sql(cut.gpkg, "PRAGMA application_id; PRAGMA user_version;") == "1196444487\n10300")
        #expect(try Self.sql(cut.gpkg, "SELECT organization, organization_coordsys_id FROM gpkg_spatial_ref_sys WHERE srs_id = 3857") == "EPSG|3857")
        let wkt = try Self.sql(cut.gpkg, "SELECT definition FROM gpkg_spatial_ref_sys WHERE srs_id = 3857")
        let proj = try ProgramRun.run("gdalsrsinfo", ["-o", "wkt1", "--single-line", "EPSG:3857"]).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(wkt == proj, "the definition is PROJ's WKT of EPSG:3857")
        #expect(try Self.sql(cut.gpkg, "SELECT table_name, data_type, srs_id FROM gpkg_contents") == "tiles|tiles|3857")
        let set = try Self.sql(cut.gpkg, "SELECT srs_id, min_x, min_y, max_x, max_y FROM gpkg_tile_matrix_set").split(separator: "|")
        #expect(
            set.first == "3857" && set.dropFirst().compactMap { Double($0) }.map { abs(abs($0) - Self.half) < 1e-6 } == [true, true, true, true],
            "\(set)")
        let matrices = try Self.sql(
            cut.gpkg,
            "SELECT zoom_level, matrix_width, matrix_height, tile_width, tile_height, pixel_x_size, pixel_y_size FROM gpkg_tile_matrix ORDER BY zoom_level"
        ).split(separator: "\n").map { $0.split(separator: "|").compactMap { Double($0) } }
        #expect(matrices.map { Int($0[0]) } == Array(Self.zooms))
        for m in matrices {
            let z = Int(m[0]), res = Self.resolution(z, pixels: cut.tilePixels)
            #expect(m[1] == Double(1 << z) && m[2] == Double(1 << z), "zoom \(z) matrix \(m)")
            #expect(m[3] == Double(cut.tilePixels) && m[4] == Double(cut.tilePixels), "zoom \(z) tile size \(m)")
            #expect(abs(m[5] - res) < 1e-9 * res && abs(m[6] - res) < 1e-9 * res, "zoom \(z) pixel size \(m)")
        }
        let count = try Self.sql(cut.gpkg, "SELECT count(*) FROM tiles")
        #expect(Int(count) == (try cut.tiles().count), "as many tiles as the folder")
        let webp = try Self.sql(cut.gpkg, "SELECT table_name, column_name, extension_name FROM gpkg_extensions")
        #expect(webp == (format == "webp" ? "tiles|tile_data|gpkg_webp" : ""), "gpkg_extensions: \(webp)")
        let v = try ProgramRun.run("python3", ["-m", "osgeo_utils.samples.validate_gpkg", "--warning-as-error", cut.gpkg])
        #expect(v.status == 0, "validate_gpkg: \(v.stdout) \(v.stderr)")
    }

    /// What a GeoPackage output refuses, in one line, leaving OUT as it was: `--resume` (the file
    /// is written whole, so nothing is left to resume) and an existing GeoPackage that holds more
    /// than one tile pyramid (a user's data); a GeoPackage `tegula tile` wrote is replaced.
    @Test func aGeoPackageOutputRefusesResumeAndAnotherGeoPackage() throws {
        let cut = try Cut()
        let crop = cut.dir.appendingPathComponent("eu.tif").path
        let fresh = cut.dir.appendingPathComponent("fresh.gpkg").path
        let resume = try TegulaBinary.run(["tile", crop, "-o", fresh, "--zoom", "3-4", "--resume", "--quiet"])
        #expect(resume.status != 0 && resume.stderr.contains("nothing to resume"), "\(resume.stderr)")
        #expect(resume.stderr.split(separator: "\n").count == 1, "one line: \(resume.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fresh))

        // A second table in gpkg_contents makes it a GeoPackage tegula did not write alone.
        let before = try Data(contentsOf: URL(fileURLWithPath: cut.gpkg))
        _ = try Self.sql(cut.gpkg, "INSERT INTO gpkg_contents (table_name, data_type, srs_id) VALUES ('notes', 'attributes', 0)")
        let theirs = try Data(contentsOf: URL(fileURLWithPath: cut.gpkg))
        #expect(theirs != before)
        let refused = try TegulaBinary.run(["tile", crop, "-o", cut.gpkg, "--zoom", "3-4", "--quiet"])
        #expect(refused.status != 0 && refused.stderr.contains("is not a tileset"), "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: cut.gpkg)) == theirs, "left untouched")

        _ = try Self.sql(cut.gpkg, "DELETE FROM gpkg_contents WHERE table_name = 'notes'")
        let replaced = try TegulaBinary.run(["tile", crop, "-o", cut.gpkg, "--zoom", "3-4", "--quiet"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try Self.sql(cut.gpkg, "SELECT min(zoom_level), max(zoom_level) FROM tiles") == "3|4")
        let left = try FileManager.default.contentsOfDirectory(atPath: cut.dir.path).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "no temporary file left beside: \(left)")
    }

    /// A pipeline's maps and its composite written as GeoPackages hold, tile for tile, the bytes
    /// of the same pipeline written as PMTiles (read by Python `pmtiles`): the composite's reduce
    /// and each map's cut choose their writer by the output's form alike; GDAL's validator finds
    /// nothing in any of them.
    @Test func aPipelinesMapsAndCompositeAreGeoPackagesOfTheSameTiles() throws {
        let folder = try TemporaryFolder.make("gpkg-pipeline").path
        let file = try TestCollection.make(in: folder, sheets: 3, upsample: 1, maxZoom: 5)
        let yaml = try String(contentsOfFile: file, encoding: .utf8)
        let gpkgFile = folder + "/collection-gpkg.yml"
        try yaml.replacingOccurrences(of: "out/", with: "gpkg/").replacingOccurrences(of: ".pmtiles", with: ".gpkg")
            .write(toFile: gpkgFile, atomically: true, encoding: .utf8)
        for f in [file, gpkgFile] {
            let r = try TegulaBinary.run(["run", f, "--quiet"])
            #expect(r.status == 0, "\(f): \(r.stderr)")
        }
        let outputs = try FileManager.default.contentsOfDirectory(atPath: folder + "/gpkg").filter { $0.hasSuffix(".gpkg") }.sorted()
        #expect(outputs == ["all.gpkg", "sheet-01.gpkg", "sheet-02.gpkg", "sheet-03.gpkg"], "\(outputs)")
        for name in outputs {
            let gpkg = folder + "/gpkg/" + name, pmtiles = folder + "/out/" + name.replacingOccurrences(of: ".gpkg", with: ".pmtiles")
            let counts = try InteropTests.python(
                """
                import sys, sqlite3
                from pmtiles.reader import MmapSource, all_tiles
                with open(sys.argv[2], 'rb') as f:
                    want = {(z, x, y): data for (z, x, y), data in all_tiles(MmapSource(f))}
                got = {(z, x, y): bytes(d) for z, x, y, d in sqlite3.connect(sys.argv[1]).execute(
                    'SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles')}
                print(len(want), len(got), sum(got.get(k) != v for k, v in want.items()))
                """, [gpkg, pmtiles]
            ).split(separator: " ").compactMap { Int($0) }
            #expect(
                counts.count == 3 && counts[0] > 0 && counts[1] == counts[0] && counts[2] == 0,
                "\(name): PMTiles, GeoPackage tiles, differing: \(counts)")
            let v = try ProgramRun.run("python3", ["-m", "osgeo_utils.samples.validate_gpkg", "--warning-as-error", gpkg])
            #expect(v.status == 0, "validate_gpkg \(name): \(v.stdout) \(v.stderr)")
        }
    }

    /// Like ``compareScript`` in any tile matrix set: the zoom's origin and cell size come from the
    /// folder's `tms.json` (top-left sets).
    static let compareInSetScript =
        InteropTests.tileHelpers + """
            import json
            tif, folder, z = sys.argv[1], sys.argv[2], int(sys.argv[3])
            m = next(m for m in json.load(open(folder + '/tms.json'))['tileMatrices'] if m['id'] == str(z))
            print(*zoom_mosaic_difference(tif, folder, z, m['pointOfOrigin'], m['cellSize'], m['tileWidth'], exts=('png',)))
            """

    /// The `--tms` argument and the scan of a case of ``aCutInAnotherTileMatrixSetReadsBackThroughGDAL``:
    /// a built-in set and the Europe crop, or for `BNG` the British National Grid as `tegula grid
    /// --tms-from EPSG:27700` makes it over the grid's published extent (morecantile's custom set,
    /// `GridCustomCLITests`) and the Blue Marble laid over 2.4° × 0.7° of England in WGS 84 degrees
    /// (as `OnDemandGridCLITests`).
    static func setAndScan(_ tms: String, in dir: URL) throws -> (set: String, scan: String) {
        guard tms == "BNG" else { return (tms, dir.appendingPathComponent("eu.tif").path) }
        let (grid, scan) = try OnDemandGridCLITests.britishGridAndEngland(in: dir)
        return (grid, scan)
    }

    /// `tegula tile --tms SET -o OUT.gpkg` beside `-o folder/` with the same options: GDAL opens the
    /// GeoPackage in the set's CRS (`gpkg_spatial_ref_sys` from PROJ) without a warning, at the max
    /// zoom's cell size with its origin at the top-left corner of the max zoom's tiles, and
    /// `gdal_translate` of every zoom has exactly the folder's pixels on the set's grid (its
    /// `tms.json`); GDAL's validator finds nothing. In two built-in sets and a national grid.
    @Test(arguments: [
        ("WorldCRS84Quad", "ID[\"OGC\",\"CRS84\"]"), ("UTM31WGS84Quad", "ID[\"EPSG\",32631]"), ("BNG", "ID[\"EPSG\",27700]"),
    ])
    func aCutInAnotherTileMatrixSetReadsBackThroughGDAL(tms: String, crsID: String) throws {
        let cut = try Cut()
        let (set, scan) = try Self.setAndScan(tms, in: cut.dir)
        let folder = cut.dir.appendingPathComponent("grid").path, gpkg = cut.dir.appendingPathComponent("grid.gpkg").path
        for out in [folder, gpkg] {
            let r = try TegulaBinary.run(["tile", scan, "--tms", set, "-o", out, "--zoom", "2-6", "--quiet"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let info = try Self.gdalinfo([gpkg])
        let wkt = (info["coordinateSystem"] as? [String: Any])?["wkt"] as? String ?? ""
        #expect(wkt.contains(crsID), "CRS: \(wkt.suffix(120))")
        let sets = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/tms.json"))) as? [String: Any]
        let six = try #require((sets?["tileMatrices"] as? [[String: Any]])?.first { $0["id"] as? String == "6" })
        let cell = try #require(six["cellSize"] as? Double)
        let gt = try #require(info["geoTransform"] as? [Double])
        #expect(abs(gt[1] - cell) < 1e-9 * cell && abs(gt[5] + cell) < 1e-9 * cell, "pixel size \(gt), zoom 6's cell \(cell)")
        let tiles = try InteropTests.files(under: folder, skip: ["tiles.json", ".tegula-tileset", "tms.json"]).keys
        // The origin: the top-left corner of zoom 6's first column and row of tiles, in the set's numbers.
        let top6 = tiles.filter { $0.hasPrefix("6/") }.map { $0.split(separator: "/").compactMap { Int($0.split(separator: ".")[0]) } }
        let origin = try #require(six["pointOfOrigin"] as? [Double]), width = try #require(six["tileWidth"] as? Int)
        let (column, row) = (try #require(top6.map { $0[1] }.min()), try #require(top6.map { $0[2] }.min()))
        let left = origin[0] + Double(column * width) * cell, top = origin[1] - Double(row * width) * cell
        #expect(abs(gt[0] - left) < 1e-6 * cell && abs(gt[3] - top) < 1e-6 * cell, "origin \(gt[0]), \(gt[3]); zoom 6's tiles from \(left), \(top)")
        for z in 2...6 {
            let tif = cut.dir.appendingPathComponent("grid-z\(z).tif").path
            let r = try ProgramRun.run("gdal_translate", ["-q", "-oo", "ZOOM_LEVEL=\(z)", gpkg, tif])
            #expect(r.status == 0, "\(r.stderr)")
            let fields = try InteropTests.python(Self.compareInSetScript, [tif, folder, "\(z)"]).split(separator: " ").compactMap { Int($0) }
            try #require(fields.count == 4)
            let atZoom = tiles.filter { $0.hasPrefix("\(z)/") }.count
            #expect(atZoom > 0 && fields[0] == atZoom, "zoom \(z): \(fields[0]) of the folder's \(atZoom) tiles in GDAL's raster")
            #expect(
                fields[1] > 0 && fields[2] == 0 && fields[3] == 0, "zoom \(z): opaque \(fields[1]), alpha differing \(fields[2]), colour \(fields[3])"
            )
        }
        let v = try ProgramRun.run("python3", ["-m", "osgeo_utils.samples.validate_gpkg", "--warning-as-error", gpkg])
        #expect(v.status == 0, "validate_gpkg: \(v.stdout) \(v.stderr)")
    }
}
