import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaTestSupport
import Testing

@testable import TegulaWarp

/// Test rasters made here, and image comparison helpers.
enum WarpFixtures {
    /// Warp with tegula and with gdalwarp onto exactly the same grid: both RGBA images.
    static func warpWithBoth(srs: String, geoTransform: [Double], size: Int, zoom: Int, resampling: Resampling) throws
        -> (ours: [UInt8], theirs: [UInt8], result: WarpJob.Result)
    {
        let dir = try TemporaryFolder.make("warp")
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = dir.appendingPathComponent("src.tif").path
        try PatternGeoTIFF.write(to: src, width: size, height: size, geoTransform: geoTransform, srs: srs)
        let ds = try Dataset(path: src)
        let mapping = try GeoTransformMapping(width: size, height: size, geoTransform: ds.geoTransform!, crs: CRS(ds.spatialReference!))
        let source = try WarpSource(path: src, mapping: mapping)
        let ours = dir.appendingPathComponent("ours.tif").path
        let result = try WarpJob(source: source, zoom: zoom, resampling: resampling, jobs: 2).run(output: ours)
        let gt = result.geoTransform
        let res = gt[1]
        let te = [gt[0], gt[3] - Double(result.height) * res, gt[0] + Double(result.width) * res, gt[3]]
        let theirs = dir.appendingPathComponent("gdal.tif").path
        let gdalwarp = try ProgramRun.run(
            "gdalwarp",
            ["-q", "-t_srs", "EPSG:3857", "-te"] + te.map { "\($0)" }
                + ["-tr", "\(res)", "\(res)", "-r", resampling.rawValue, "-et", "0", "-dstalpha", src, theirs])
        #expect(gdalwarp.status == 0, "\(gdalwarp.stderr)")
        let a = try WarpFixtures.rgba(ours), b = try WarpFixtures.rgba(theirs)
        #expect(a.w == b.w && a.h == b.h)
        return (a.px, b.px, result)
    }

    /// Read all four bands of an RGBA raster.
    static func rgba(_ path: String) throws -> (w: Int, h: Int, px: [UInt8], gt: [Double]) {
        let d = try Dataset(path: path)
        var px = [UInt8](repeating: 0, count: d.width * d.height * 4)
        try px.withUnsafeMutableBufferPointer {
            try d.readBytes(x: 0, y: 0, width: d.width, height: d.height, bands: [1, 2, 3, 4], into: $0.baseAddress!)
        }
        return (d.width, d.height, px, d.geoTransform?.coefficients ?? [])
    }

    /// PSNR over pixels opaque in both, and the fraction of identical such pixels. With no such
    /// pixel the PSNR is 0 dB, not a perfect score: a transparent warp agrees with nothing.
    static func compare(_ a: [UInt8], _ b: [UInt8]) -> (psnr: Double, identical: Double, overlap: Int, alphaMismatch: Int) {
        var se = 0.0, n = 0, same = 0, mismatch = 0
        for i in stride(from: 0, to: min(a.count, b.count), by: 4) {
            if (a[i + 3] == 0) != (b[i + 3] == 0) { mismatch += 1 }
            guard a[i + 3] == 255, b[i + 3] == 255 else { continue }
            n += 1
            var eq = true
            for c in 0..<3 {
                let d = Double(a[i + c]) - Double(b[i + c])
                se += d * d
                if d != 0 { eq = false }
            }
            if eq { same += 1 }
        }
        guard n > 0 else { return (0, 0, 0, mismatch) }
        let mse = se / Double(n * 3)
        return (mse == 0 ? 99 : 10 * log10(255 * 255 / mse), Double(same) / Double(n), n, mismatch)
    }
}
