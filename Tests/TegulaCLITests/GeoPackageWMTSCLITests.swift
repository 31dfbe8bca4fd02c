import Foundation
import TegulaTestSupport
import Testing

/// A folder of GeoPackages in other tile matrix sets than WebMercatorQuad, served by `tegula serve
/// DIR` and read through WMTS by the two clients people use (`scripts/wmts_check.py`: OWSLib's
/// `WebMapTileService` fetching every tile of the limits, GDAL's WMTS driver mosaicking every
/// zoom). One GeoPackage `tegula tile --tms EuropeanETRS89_LAEAQuad` wrote, one GDAL's GPKG
/// driver wrote in a grid of its own (`gdal_translate -of GPKG`, its default custom tiling, in
/// EPSG:3035, northing first, with `gdaladdo` levels), beside one of features alone. The oracles
/// read the files without Tegula: Python's `sqlite3` (every tile row, the folder `wmts_check.py`
/// compares with), and GDAL's GPKG driver (the file's own raster and geotransform, which GDAL's
/// WMTS driver, opened with no option, must hold pixel for pixel at the same place).
@Suite(.timeLimit(.minutes(20)))
struct GeoPackageWMTSCLITests {
    /// Writes each `FILE=FOLDER`'s tile rows as `FOLDER/z/column/row.png` (rows from the top, as
    /// the file counts them); prints the rows written.
    static let dump = """
        import os, sqlite3, sys
        count = 0
        for arg in sys.argv[1:]:
            path, out = arg.split("=", 1)
            db = sqlite3.connect(path)
            table = db.execute("SELECT table_name FROM gpkg_contents WHERE data_type = 'tiles'").fetchone()[0]
            for z, x, y, data in db.execute(f'SELECT zoom_level, tile_column, tile_row, tile_data FROM "{table}"'):
                os.makedirs(f"{out}/{z}/{x}", exist_ok=True)
                open(f"{out}/{z}/{x}/{y}.png", "wb").write(data)
                count += 1
        print(count)
        """

    /// For each `LAYER=FILE`: the layer opened by GDAL's WMTS driver with no option must cover the
    /// file's raster (GDAL's GPKG driver, its last zoom) within twice its area, and its window over
    /// that raster's box must be that raster, pixel for pixel, at its geotransform. Prints
    /// `LAYER covers area-ratio equal`.
    static let placement = """
        import sys
        import numpy as np
        from osgeo import gdal
        gdal.UseExceptions()
        gdal.SetConfigOption("GDAL_ENABLE_WMS_CACHE", "NO")
        base = sys.argv[1]
        for arg in sys.argv[2:]:
            layer, path = arg.split("=", 1)
            own = gdal.Open(path)
            gt = own.GetGeoTransform()
            box = [gt[0], gt[3], gt[0] + own.RasterXSize * gt[1], gt[3] + own.RasterYSize * gt[5]]
            served = gdal.Open(f"WMTS:{base}/wmts/1.0.0/WMTSCapabilities.xml,layer={layer}")
            sg = served.GetGeoTransform()
            sbox = [sg[0], sg[3], sg[0] + served.RasterXSize * sg[1], sg[3] + served.RasterYSize * sg[5]]
            covers = sbox[0] <= box[0] and sbox[1] >= box[1] and sbox[2] >= box[2] and sbox[3] <= box[3]
            area = (sbox[2] - sbox[0]) * (sbox[1] - sbox[3]) / ((box[2] - box[0]) * (box[1] - box[3]))
            cut = gdal.Translate("/vsimem/cut.tif", served, projWin=box)
            cg = cut.GetGeoTransform()
            placed = all(abs(cg[i] - gt[i]) <= 1e-6 * abs(gt[1]) for i in range(6))
            equal = placed and np.array_equal(cut.ReadAsArray(), own.ReadAsArray())
            print(layer, int(covers), round(area, 2), int(equal))
        """

    @Test func gdalAndOWSLibReadAFolderOfGeoPackagesInOtherSetsTileForTile() throws {
        let dir = try TemporaryFolder.make("gpkg-wmts")
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("gpkgs").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Europe from 4° to 22° E, 42° to 54° N.
        let crop = dir.appendingPathComponent("eu.tif").path
        _ = try ProgramRun.output(
            "gdal_translate",
            ["-q", "-srcwin", "1380", "270", "135", "90", "-a_srs", "EPSG:4326", "-a_ullr", "4", "54", "22", "42", BlueMarble.path, crop])
        let laea = folder + "/laea.gpkg", custom = folder + "/custom.gpkg"
        let cut = try TegulaBinary.run(["tile", crop, "-o", laea, "--tms", "EuropeanETRS89_LAEAQuad", "--zoom", "0-4", "--quiet"])
        try #require(cut.status == 0, "\(cut.stderr)")
        let lambert = dir.appendingPathComponent("lambert.tif").path
        _ = try ProgramRun.output("gdalwarp", ["-q", "-t_srs", "EPSG:3035", "-tr", "5000", "5000", "-dstalpha", crop, lambert])
        _ = try ProgramRun.output("gdal_translate", ["-q", "-of", "GPKG", "-co", "TILE_FORMAT=PNG", lambert, custom])
        _ = try ProgramRun.output("gdaladdo", ["-q", "-r", "average", custom, "2", "4"])
        let point = dir.appendingPathComponent("point.geojson")
        try Data(#"{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [4.9, 52.4]}}"#.utf8).write(to: point)
        _ = try ProgramRun.output("ogr2ogr", ["-f", "GPKG", folder + "/features.gpkg", point.path])

        let server = try LocalHTTPServer.tegula(["serve", folder])
        defer { server.stop() }
        let laeaTiles = dir.appendingPathComponent("laea-tiles").path, customTiles = dir.appendingPathComponent("custom-tiles").path
        let rows = try #require(Int(try InteropTests.python(Self.dump, ["\(laea)=\(laeaTiles)", "\(custom)=\(customTiles)"])))
        let counts = try WMTSClientCLITests.run(server.base, ["laea": laeaTiles, "custom": customTiles])
        // Every tile row of both files, fetched by OWSLib; every zoom (5 + 3) mosaicked by GDAL.
        #expect(rows == 58 + 6 && counts.owslib_tiles == rows && counts.gdal_mosaics == 5 + 3, "\(rows) rows, \(counts)")
        let placed = try InteropTests.python(Self.placement, [server.base, "laea=\(laea)", "custom=\(custom)"])
        for line in placed.split(separator: "\n") {
            let words = line.split(separator: " ")
            #expect(words.count == 4 && words[1] == "1" && (Double(words[2]) ?? 9) < 2 && words[3] == "1", "\(line)")
        }
        #expect(placed.split(separator: "\n").count == 2, "\(placed)")
        // The file of features alone is passed over, not served and not refused.
        #expect(!server.output.contains("features"), "\(server.output)")
    }
}
