import Foundation
import Testing
import TegulaTestSupport

/// Rasters that claim more than their bytes (issue 16 item 2), made by GDAL's VRT driver in a
/// few hundred bytes: one claiming 10⁶ × 10⁶ pixels over a 64² GeoTIFF, one claiming 10,000
/// bands. What holds or copies a raster whole refuses it from its header, in one line, before
/// allocating; what streams (warp, tile) runs in bounded memory. Peak RSS: RELIABILITY.md.
struct RasterCapTests {
    /// `small.tif` (64², 3 bands, EPSG:4326), `huge.vrt` over it claiming 10⁶ × 10⁶ px (with a
    /// geotransform), `plain.vrt` the same without one, `bands.vrt` claiming 10,000 bands, and
    /// GCPs for the plain one.
    static func fixtures(in dir: String) throws {
        let made = try ProgramRun.run("gdal_translate", ["-q", "-of", "GTiff", "-outsize", "64", "64", "-a_srs", "EPSG:4326",
                                                        "-a_ullr", "5", "53", "15", "43", Schagen1689.scan,
                                                        dir + "/small.tif"])
        #expect(made.status == 0, "\(made.stderr)")
        let bands = (1...3).map { b in
            "<VRTRasterBand dataType=\"Byte\" band=\"\(b)\"><SimpleSource><SourceFilename relativeToVRT=\"1\">small.tif</SourceFilename>"
                + "<SourceBand>\(b)</SourceBand><SrcRect xOff=\"0\" yOff=\"0\" xSize=\"64\" ySize=\"64\"/><DstRect xOff=\"0\" yOff=\"0\" xSize=\"64\" ySize=\"64\"/></SimpleSource></VRTRasterBand>"
        }.joined()
        try "<VRTDataset rasterXSize=\"1000000\" rasterYSize=\"1000000\"><SRS>EPSG:4326</SRS><GeoTransform>5, 0.00001, 0, 53, 0, -0.00001</GeoTransform>\(bands)</VRTDataset>"
            .write(toFile: dir + "/huge.vrt", atomically: false, encoding: .utf8)
        try "<VRTDataset rasterXSize=\"1000000\" rasterYSize=\"1000000\">\(bands)</VRTDataset>".write(toFile: dir + "/plain.vrt", atomically: false, encoding: .utf8)
        let many = (1...10_000).map { "<VRTRasterBand dataType=\"Byte\" band=\"\($0)\"/>" }.joined()
        try "<VRTDataset rasterXSize=\"64\" rasterYSize=\"64\"><SRS>EPSG:4326</SRS><GeoTransform>5, 0.02, 0, 53, 0, -0.02</GeoTransform>\(many)</VRTDataset>"
            .write(toFile: dir + "/bands.vrt", atomically: false, encoding: .utf8)
        try "x,y,lon,lat\n0,0,5,53\n1000000,0,15,53\n0,1000000,5,43\n1000000,1000000,15,43\n".write(toFile: dir + "/gcps.csv", atomically: false, encoding: .utf8)
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
        try Self.refused(["georef", dir + "/plain.vrt", "--gcps", dir + "/gcps.csv", "-o", out + "/g.tif"],
                         [dir + "/plain.vrt", "1000000 × 1000000", "2793 GiB", "OUT.vrt"], out: out)
        try Self.refused(["georef", dir + "/plain.vrt", "--gcps", dir + "/gcps.csv", "--mask", dir + "/mask.wkt", "-o", out + "/g.vrt"],
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
        #expect(warp.status == 0 && FileManager.default.fileExists(atPath: out + "/w.tif"), "\(warp.stderr)")
        let tile = try TegulaBinary.run(["tile", dir + "/huge.vrt", "-o", out + "/t.pmtiles", "--zoom", "2-6", "--quiet"])
        #expect(tile.status == 0, "\(tile.stderr)")
        let tiles = try TilesetDigest.of(out + "/t.pmtiles").tiles
        #expect(tiles > 10)
    }

    @Test func tenThousandBandsAreRefusedByEveryCommandThatReadsAScan() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/out"
        let scan = dir + "/bands.vrt"
        for args in [["warp", scan, "-o", out + "/w.tif", "--zoom", "5"], ["tile", scan, "-o", out + "/t.pmtiles", "--zoom", "2-5"],
                     ["georef", scan, "--gcps", dir + "/gcps.csv", "-o", out + "/g.vrt"], ["edit", scan, "-o", out + "/g.points", "--port", "0"]] {
            try Self.refused(args, [scan, "10000 bands", "past the 64"], out: out)
        }
    }
}
