import Foundation
import Testing
import TegulaGDAL
import TegulaGeometry
import TegulaTestSupport
@testable import TegulaWarp

/// Warping georeferenced rasters (geotransform + CRS) against `gdalwarp -et 0` on the same grid.
struct GeoTransformWarpTests {
    /// Warp with tegula and with gdalwarp onto exactly the same grid, and compare.
    static func compareWithGDAL(srs: String, geoTransform: [Double], size: Int, zoom: Int,
                                resampling: Resampling) throws -> (psnr: Double, identical: Double, overlap: Int, alphaMismatch: Int, result: WarpJob.Result) {
        let w = try WarpFixtures.warpWithBoth(srs: srs, geoTransform: geoTransform, size: size, zoom: zoom, resampling: resampling)
        let c = WarpFixtures.compare(w.ours, w.theirs)
        print("warp vs gdalwarp \(srs) z\(zoom) \(resampling): PSNR \(c.psnr) dB, identical \(c.identical), overlap \(c.overlap), alpha mismatch \(c.alphaMismatch)")
        return (c.psnr, c.identical, c.overlap, c.alphaMismatch, w.result)
    }

    @Test(arguments: [Resampling.bilinear, .cubic])
    func geographicSourceMatchesGdalwarp(resampling: Resampling) throws {
        let c = try Self.compareWithGDAL(srs: "EPSG:4326", geoTransform: [5, 0.01, 0, 50, 0, -0.01], size: 600,
                                         zoom: 7, resampling: resampling)
        #expect(c.overlap > 100_000)
        #expect(c.psnr >= 40, "PSNR \(c.psnr)")
        #expect(Double(c.alphaMismatch) / Double(c.overlap) < 0.01)
        #expect(c.result.worstGridError <= 0.01)
    }

    @Test func utmSourceMatchesGdalwarp() throws {
        // 600 px of 100 m around 500 km easting, 5000 km northing in UTM 32N.
        let c = try Self.compareWithGDAL(srs: "EPSG:32632", geoTransform: [470000, 100, 0, 5030000, 0, -100], size: 600,
                                         zoom: 10, resampling: .bilinear)
        #expect(c.overlap > 100_000)
        #expect(c.psnr >= 40, "PSNR \(c.psnr)")
    }

    @Test func nearestIsAlmostAllIdentical() throws {
        let c = try Self.compareWithGDAL(srs: "EPSG:4326", geoTransform: [5, 0.01, 0, 50, 0, -0.01], size: 600,
                                         zoom: 7, resampling: .near)
        #expect(c.overlap > 100_000)
        #expect(c.identical >= 0.99, "identical \(c.identical)")
    }

    @Test func shrinkingWidensTheKernel() throws {
        // Zoom 5 is about 4× coarser than the source: the kernel must widen as gdalwarp's does.
        let c = try Self.compareWithGDAL(srs: "EPSG:4326", geoTransform: [5, 0.01, 0, 50, 0, -0.01], size: 600,
                                         zoom: 5, resampling: .bilinear)
        #expect(c.overlap > 5_000, "overlap \(c.overlap)")
        #expect(c.psnr >= 40, "PSNR \(c.psnr)")
    }

    @Test func outputIsOnTheZoomGrid() throws {
        let c = try Self.compareWithGDAL(srs: "EPSG:4326", geoTransform: [5, 0.01, 0, 50, 0, -0.01], size: 200,
                                         zoom: 8, resampling: .near)
        let gt = c.result.geoTransform
        let res = WebMercator.resolution(zoom: 8)
        #expect(gt[1] == res && gt[5] == -res)
        let col = (gt[0] + WebMercator.halfCircumference) / res
        let row = (WebMercator.halfCircumference - gt[3]) / res
        #expect(abs(col - col.rounded()) < 1e-6 && abs(row - row.rounded()) < 1e-6)
    }
}
