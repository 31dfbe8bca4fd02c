import Foundation
import TegulaTestSupport
import Testing

/// `tegula warp --tms`: a scan warped into a tile matrix set's CRS onto a zoom's pixel grid,
/// against `gdalwarp -r bilinear -et 0` of the same scan into the same CRS and pixels, the set
/// read by Python from its JSON (morecantile's `TileMatrixSet.custom` for the British National
/// Grid, Tegula's copy of morecantile's UTM31WGS84Quad), the CRS read back by `gdalinfo`.
@Suite(.timeLimit(.minutes(20)))
struct WarpTileMatrixSetCLITests {
    /// A 75 × 68 px window of the Blue Marble over Great Britain, 8° W–2° E, 50°–59.07° N (its
    /// 7.5 px a degree), as a GeoTIFF in EPSG:4326 and as a VRT carrying five GCPs of that map.
    static func scan(in dir: URL) throws -> (geotiff: String, gcps: String) {
        let tif = dir.appendingPathComponent("gb.tif").path, vrt = dir.appendingPathComponent("gb-gcps.vrt").path
        _ = try ProgramRun.output(
            "gdal_translate",
            [
                "-q", "-srcwin", "1290", "232", "75", "68", "-a_srs", "EPSG:4326", "-a_ullr", "-8", "\(90 - 232 / 7.5)", "2", "50", BlueMarble.path,
                tif,
            ])
        let gcps = [(0.0, 0.0), (75, 0), (75, 68), (0, 68), (37.5, 34)].flatMap { p in
            ["-gcp", "\(p.0)", "\(p.1)", "\(-8 + p.0 / 7.5)", "\(90 - (232 + p.1) / 7.5)"]
        }
        _ = try ProgramRun.output("gdal_translate", ["-q", "-of", "VRT", "-a_srs", "EPSG:4326"] + gcps + [tif, vrt])
        return (tif, vrt)
    }

    /// Reads the warped GeoTIFF and the set's JSON, checks the image lies on the matrix's pixel
    /// grid (cell size, whole cells from the point of origin), `gdalwarp`s the scan into the same
    /// box and size in CRS, and prints `opaque_pixels psnr`.
    static let compareScript =
        InteropTests.tileHelpers + """
            import json
            import numpy as np
            from osgeo import gdal
            gdal.UseExceptions()
            warped, tms_path, zoom, source, crs, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6:]
            tms = json.load(open(tms_path))
            m = next(m for m in tms["tileMatrices"] if m["id"] == zoom)
            _, northing_first = tms_crs(tms)
            ox, oy = m["pointOfOrigin"][::-1] if northing_first else m["pointOfOrigin"]
            ds = gdal.Open(warped)
            gt, w, h = ds.GetGeoTransform(), ds.RasterXSize, ds.RasterYSize
            c = m["cellSize"]
            assert abs(gt[1] - c) < 1e-9 * c and abs(gt[5] + c) < 1e-9 * c, (gt, c)
            for edge, origin in ((gt[0], ox), (gt[3], oy)):
                assert abs((edge - origin) / c - round((edge - origin) / c)) < 1e-6, ("off the matrix's grid", edge, origin, c)
            te = [gt[0], gt[3] - h * c, gt[0] + w * c, gt[3]]
            ref = gdal.Warp("/vsimem/ref.tif", source, dstSRS=crs, outputBounds=te, width=w, height=h, resampleAlg="bilinear",
                            errorThreshold=0, dstAlpha=True, **({"polynomialOrder": 1} if extra == ["gcps"] else {})).ReadAsArray()
            got = ds.ReadAsArray()
            both = (got[3] == 255) & (ref[3] == 255)
            d = got[:3, both].astype(np.float64) - ref[:3, both].astype(np.float64)
            print(int(both.sum()), psnr(float((d * d).sum()), d.size))
            """

    /// morecantile's British National Grid over 238 375 m W … 900 000 m E, 0 … 1 376 256 m N.
    static let bngScript = """
        import sys, warnings, pyproj
        from morecantile import TileMatrixSet
        warnings.simplefilter("ignore")
        tms = TileMatrixSet.custom([-238375.0, 0.0, 900000.0, 1376256.0], pyproj.CRS.from_epsg(27700), id="BNG")
        open(sys.argv[1], "w").write(tms.model_dump_json(exclude_none=True))
        """

    /// One warp in a set against gdalwarp: on the grid, ≥ 45 dB over most of the image, the set's
    /// CRS in the file as GDAL reads it.
    func warpMatchesGdalwarp(tms: String, tmsJSON: String, zoom: Int, crs: String, crsID: String, gcps: Bool, in dir: URL) throws {
        let (tif, vrt) = try Self.scan(in: dir)
        let out = dir.appendingPathComponent("warped-\(zoom).tif").path
        let source = gcps ? ["warp", vrt, "--fit-srs", "gcp", "--transform", "polynomial1"] : ["warp", tif]
        let r = try TegulaBinary.run(source + ["-o", out, "--tms", tms, "--zoom", "\(zoom)", "--quiet"])
        try #require(r.status == 0, "\(r.stderr)")
        let answer = try InteropTests.python(Self.compareScript, [out, tmsJSON, "\(zoom)", gcps ? vrt : tif, crs] + (gcps ? ["gcps"] : []))
        let fields = answer.split(separator: " ")
        let opaque = try #require(fields.first.flatMap { Int($0) }), db = try #require(fields.last.flatMap { Double($0) })
        let info = try InteropTests.gdalinfo([out])
        let size = try #require(info["size"] as? [Int])
        #expect(opaque > size[0] * size[1] / 3, "\(opaque) opaque pixels compared of \(size)")
        #expect(db >= 45, "\(tms) zoom \(zoom): \(db) dB against gdalwarp -et 0")
        let wkt = try #require((info["coordinateSystem"] as? [String: Any])?["wkt"] as? String)
        #expect(wkt.hasSuffix(crsID + "]"), "\(wkt.suffix(200))")
    }

    @Test func aScanWarpedIntoACustomBritishNationalGridMatchesGdalwarp() throws {
        let dir = try TemporaryFolder.make("warp-tms")
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("bng.json").path
        _ = try InteropTests.python(Self.bngScript, [json])
        try warpMatchesGdalwarp(tms: json, tmsJSON: json, zoom: 2, crs: "EPSG:27700", crsID: "ID[\"EPSG\",27700]", gcps: false, in: dir)
    }

    @Test func aGCPFitWarpedIntoUTM31WGS84QuadMatchesGdalwarp() throws {
        let dir = try TemporaryFolder.make("warp-tms")
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = TegulaBinary.packageRoot.appendingPathComponent("Sources/TegulaGeometry/TileMatrixSets/UTM31WGS84Quad.json").path
        try warpMatchesGdalwarp(tms: "UTM31WGS84Quad", tmsJSON: json, zoom: 7, crs: "EPSG:32631", crsID: "ID[\"EPSG\",32631]", gcps: true, in: dir)
    }

    @Test func aZoomTheSetDoesNotHaveIsOneLineAndNoFile() throws {
        let dir = try TemporaryFolder.make("warp-tms")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (tif, _) = try Self.scan(in: dir)
        let out = dir.appendingPathComponent("w.tif").path
        let r = try TegulaBinary.run(["warp", tif, "-o", out, "--tms", "UTM31WGS84Quad", "--zoom", "0"])
        #expect(r.status != 0)
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("zooms 1-24"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
