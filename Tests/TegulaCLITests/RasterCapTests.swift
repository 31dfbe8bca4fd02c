import Foundation
import TegulaTestSupport
import Testing

/// Rasters that claim more than their bytes (issue 16 item 2), made by GDAL's VRT driver in a
/// few hundred bytes: one claiming 10⁶ × 10⁶ pixels over a 64² GeoTIFF, one claiming 10,000
/// bands. What holds or copies a raster whole refuses it from its header, in one line, before
/// allocating; what streams (warp, tile) runs in bounded memory. Peak RSS: RELIABILITY.md.
@Suite(.timeLimit(.minutes(20)))
struct RasterCapTests {
    /// `small.tif` (64², 3 bands, EPSG:4326), `huge.vrt` over it claiming 10⁶ × 10⁶ px (with a
    /// geotransform, 10° × 10°; small.tif fills its first 10⁵ × 10⁵, 1° × 1°, each of its pixels
    /// 1562.5² of the VRT's, the rest zeros), `plain.vrt` the same without a geotransform and
    /// small.tif in its first 64², `bands.vrt` claiming 10,000 bands, and GCPs for the plain one.
    static func fixtures(in dir: String) throws {
        let made = try ProgramRun.run(
            "gdal_translate",
            [
                "-q", "-of", "GTiff", "-outsize", "64", "64", "-a_srs", "EPSG:4326",
                "-a_ullr", "5", "53", "15", "43", Schagen1689.scan,
                dir + "/small.tif",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        func bands(_ side: Int) -> String {
            (1...3).map { b in
                "<VRTRasterBand dataType=\"Byte\" band=\"\(b)\"><SimpleSource><SourceFilename relativeToVRT=\"1\">small.tif</SourceFilename>"
                    + "<SourceBand>\(b)</SourceBand><SrcRect xOff=\"0\" yOff=\"0\" xSize=\"64\" ySize=\"64\"/><DstRect xOff=\"0\" yOff=\"0\" xSize=\"\(side)\" ySize=\"\(side)\"/></SimpleSource></VRTRasterBand>"
            }.joined()
        }
        try
            "<VRTDataset rasterXSize=\"1000000\" rasterYSize=\"1000000\"><SRS>EPSG:4326</SRS><GeoTransform>5, 0.00001, 0, 53, 0, -0.00001</GeoTransform>\(bands(100_000))</VRTDataset>"
            .write(toFile: dir + "/huge.vrt", atomically: false, encoding: .utf8)
        try "<VRTDataset rasterXSize=\"1000000\" rasterYSize=\"1000000\">\(bands(64))</VRTDataset>".write(
            toFile: dir + "/plain.vrt", atomically: false, encoding: .utf8)
        let many = (1...10_000).map { "<VRTRasterBand dataType=\"Byte\" band=\"\($0)\"/>" }.joined()
        try
            "<VRTDataset rasterXSize=\"64\" rasterYSize=\"64\"><SRS>EPSG:4326</SRS><GeoTransform>5, 0.02, 0, 53, 0, -0.02</GeoTransform>\(many)</VRTDataset>"
            .write(toFile: dir + "/bands.vrt", atomically: false, encoding: .utf8)
        try "x,y,lon,lat\n0,0,5,53\n1000000,0,15,53\n0,1000000,5,43\n1000000,1000000,15,43\n".write(
            toFile: dir + "/gcps.csv", atomically: false, encoding: .utf8)
        try "POLYGON((10 10, 900000 10, 900000 900000, 10 900000, 10 10))\n".write(toFile: dir + "/mask.wkt", atomically: false, encoding: .utf8)
    }

    /// A new folder holding the fixtures and an empty `out/`.
    static func folder() throws -> String {
        let dir = try TemporaryFolder.make("caps").path
        try fixtures(in: dir)
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: false)
        return dir
    }

    /// One line, exit 1, naming the file and containing `words`; nothing written into `out`.
    static func refused(_ args: [String], _ words: [String], out: String) throws {
        let r = try TegulaBinary.run(args)
        #expect(r.status == 1 && r.stderr.split(separator: "\n").count == 1 && words.allSatisfy { r.stderr.contains($0) }, "\(args): \(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty, "\(args) wrote something")
    }

    @Test func hugeClaimsAreRefusedWhereHeldOrCopiedAndStreamedElsewhere() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/out"
        // Copied whole: georef OUT.tif. Held whole: a mask raster, the editor's scan.
        try Self.refused(
            ["georef", dir + "/plain.vrt", "--gcps", dir + "/gcps.csv", "-o", out + "/g.tif"],
            [dir + "/plain.vrt", "1000000 × 1000000", "2793 GiB", "OUT.vrt"], out: out)
        try Self.refused(
            ["georef", dir + "/plain.vrt", "--gcps", dir + "/gcps.csv", "--mask", dir + "/mask.wkt", "-o", out + "/g.vrt"],
            [dir + "/plain.vrt", "mask raster", "931 GiB"], out: out)
        // The editor reads its scan through the IIIF service of `tegula serve` now, window by
        // window, so it meets the same cap as tiles on demand rather than a memory budget.
        try Self.refused(["edit", dir + "/plain.vrt", "-o", out + "/g.points", "--port", "0"], [dir + "/plain.vrt", "2^34 pixels"], out: out)
        // Served on demand: its reduced copies would read every claimed pixel first.
        try Self.refused(["serve", dir + "/huge.vrt", "--port", "0"], [dir + "/huge.vrt", "1000000 × 1000000", "2^34", "tegula tile"], out: out)
        // A VRT output references the scan: written at once.
        let vrt = try TegulaBinary.run(["georef", dir + "/plain.vrt", "--gcps", dir + "/gcps.csv", "-o", out + "/g.vrt"])
        #expect(vrt.status == 0, "\(vrt.stderr)")
        // Streamed: the warp and the tiles read only the windows their output needs.
        let warp = try TegulaBinary.run(["warp", dir + "/huge.vrt", "-o", out + "/w.tif", "--zoom", "7", "--quiet"])
        #expect(warp.status == 0, "\(warp.stderr)")
        let warped = try Self.warpAgainstGdalwarp(out + "/w.tif", dir: dir)
        print("warp huge.vrt --zoom 7 vs gdalwarp -r bilinear of small.tif over 5–6° E, 52–53° N: \(warped)")
        #expect(warped.epsg == 3857 && warped.bands == 4 && warped.margins.allSatisfy { $0 >= 0 && $0 < 1 }, "\(warped)")
        #expect(warped.covered >= 0.999, "\(warped)")
        // Measured: all of the ground opaque, 37.46 dB, the same in 3 runs.
        #expect(warped.scan > 10_000 && warped.psnr >= 36.4, "\(warped)")
        #expect(warped.rest > 1_000_000 && warped.restBlack == warped.rest, "\(warped)")
        let tile = try TegulaBinary.run(["tile", dir + "/huge.vrt", "-o", out + "/t.pmtiles", "--zoom", "2-6", "--quiet"])
        #expect(tile.status == 0, "\(tile.stderr)")
        let tiles = try TilesetDigest.of(out + "/t.pmtiles").tiles
        #expect(tiles > 10)
    }

    /// The streamed warp of `huge.vrt` (`w`) against what its pixels are: small.tif over the
    /// VRT's first 1° × 1°, each of its pixels 1562.5² of the VRT's (about 1.4² of the warp's),
    /// against gdalwarp -r bilinear of small.tif placed there (Tegula reads the VRT at a reduced
    /// scale, which GDAL's VRT driver resamples from small.tif: smoother than the VRT's own
    /// blocky pixels, so gdalwarp -r near of them is further off); and zeros over the rest of its
    /// 10° × 10°.
    struct HugeWarp: Decodable, CustomStringConvertible {
        /// `w`'s size, EPSG code and band count, and how far (in pixels) its extent reaches past the
        /// VRT's ground on the west, north, east and south.
        var size: [Int], epsg: Int?, bands: Int, margins: [Double]
        /// The share of the VRT's ground (inset by 2 px) that `w` has opaque.
        var covered: Double
        /// Pixels gdalwarp draws small.tif in, and the PSNR of `w`'s RGB there (opaque in both).
        var scan: Int, psnr: Double
        /// Opaque pixels of `w` over the rest of the VRT's ground (2 px away from small.tif's), and
        /// how many of them are black.
        var rest: Int, restBlack: Int
        var description: String {
            "\(size[0]) × \(size[1]) px, EPSG:\(epsg.map(String.init) ?? "?"), \(bands) bands, margins \(margins.map { String(format: "%.2f", $0) }) px, "
                + "\(String(format: "%.4f", covered)) of the ground opaque; "
                + "\(scan) px of small.tif at \(String(format: "%.2f", psnr)) dB; \(restBlack) of \(rest) opaque px beyond it black"
        }
    }

    static func warpAgainstGdalwarp(_ w: String, dir: String) throws -> HugeWarp {
        let json = try ProgramRun.output("gdalinfo", ["-json", w])
        let info = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let gt = try #require(info["geoTransform"] as? [Double]), size = try #require(info["size"] as? [Int])
        let te = [gt[0], gt[3] + Double(size[1]) * gt[5], gt[0] + Double(size[0]) * gt[1], gt[3]]
        try ProgramRun.output("gdal_translate", ["-q", "-a_ullr", "5", "53", "6", "52", dir + "/small.tif", dir + "/corner.tif"])
        try ProgramRun.output(
            "gdalwarp",
            ["-q", "-t_srs", "EPSG:3857", "-te"] + te.map { "\($0)" } + [
                "-ts", "\(size[0])", "\(size[1])",
                "-r", "bilinear", "-et", "0", "-dstalpha", dir + "/corner.tif", dir + "/oracle.tif",
            ])
        let ground = try ProgramRun.output("gdaltransform", ["-s_srs", "EPSG:4326", "-t_srs", "EPSG:3857", "-output_xy"], stdin: "5 53\n15 43\n")
        let counts = try ProgramRun.output(
            PackageRoot.path(".venv/bin/python3"),
            [
                "-c",
                """
                import sys, json, numpy
                from osgeo import gdal
                w, o = gdal.Open(sys.argv[1]), gdal.Open(sys.argv[2])
                a, b = w.ReadAsArray().astype(int), o.ReadAsArray().astype(int)
                gt = w.GetGeoTransform()
                x0, y0, x1, y1 = map(float, sys.argv[3].split())
                c0, c1 = max(int((x0 - gt[0]) / gt[1]) + 2, 0), int((x1 - gt[0]) / gt[1]) - 2
                r0, r1 = max(int((y0 - gt[3]) / gt[5]) + 2, 0), int((y1 - gt[3]) / gt[5]) - 2
                inside = numpy.zeros(a.shape[1:], bool)
                inside[r0:r1, c0:c1] = True
                scan = b[3] == 255
                rows, cols = numpy.nonzero(b[3])
                near = numpy.zeros_like(inside)
                near[max(rows.min() - 2, 0):rows.max() + 3, max(cols.min() - 2, 0):cols.max() + 3] = True
                rest = inside & ~near & (a[3] == 255)
                both = scan & (a[3] == 255)
                mse = ((a[:3] - b[:3]).astype(float) ** 2)[:, both].mean() if both.any() else -1
                margins = [(x0 - gt[0]) / gt[1], (y0 - gt[3]) / gt[5], (gt[0] + a.shape[2] * gt[1] - x1) / gt[1], (gt[3] + a.shape[1] * gt[5] - y1) / gt[5]]
                print(json.dumps({"size": [w.RasterXSize, w.RasterYSize], "epsg": int(w.GetSpatialRef().GetAuthorityCode(None) or 0), "margins": margins,
                                  "bands": w.RasterCount, "covered": float((a[3][inside] == 255).mean()) if inside.any() else 0,
                                  "scan": int(scan.sum()), "psnr": 0 if mse < 0 else 99 if mse == 0 else 10 * numpy.log10(255 ** 2 / mse),
                                  "rest": int(rest.sum()), "restBlack": int(((a[:3] == 0).all(axis=0) & rest).sum())}))
                """, w, dir + "/oracle.tif", ground,
            ])
        return try JSONDecoder().decode(HugeWarp.self, from: Data(counts.utf8))
    }

    @Test func tenThousandBandsAreRefusedByEveryCommandThatReadsAScan() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/out"
        let scan = dir + "/bands.vrt"
        for args in [
            ["warp", scan, "-o", out + "/w.tif", "--zoom", "5"], ["tile", scan, "-o", out + "/t.pmtiles", "--zoom", "2-5"],
            ["georef", scan, "--gcps", dir + "/gcps.csv", "-o", out + "/g.vrt"], ["edit", scan, "-o", out + "/g.points", "--port", "0"],
        ] {
            try Self.refused(args, [scan, "10000 bands", "past the 64"], out: out)
        }
    }
}
