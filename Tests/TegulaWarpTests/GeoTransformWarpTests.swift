import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaTestSupport
import Testing

@testable import TegulaWarp

/// Warping georeferenced rasters (geotransform + CRS) against `gdalwarp -et 0` on the same grid.
struct GeoTransformWarpTests {
    /// Warp with tegula and with gdalwarp onto exactly the same grid, and compare.
    static func compareWithGDAL(
        srs: String, geoTransform: [Double], size: Int, zoom: Int,
        resampling: Resampling
    ) throws -> (psnr: Double, identical: Double, overlap: Int, alphaMismatch: Int, result: WarpJob.Result) {
        let w = try WarpFixtures.warpWithBoth(srs: srs, geoTransform: geoTransform, size: size, zoom: zoom, resampling: resampling)
        let c = WarpFixtures.compare(w.ours, w.theirs)
        print(
            "warp vs gdalwarp \(srs) z\(zoom) \(resampling): PSNR \(c.psnr) dB, identical \(c.identical), overlap \(c.overlap), alpha mismatch \(c.alphaMismatch)"
        )
        return (c.psnr, c.identical, c.overlap, c.alphaMismatch, w.result)
    }

    /// Pixels transparent in one warp and not the other, at most: measured 0 for every case here
    /// but UTM (1 of 310,072), so 5 px is the margin.
    static let alphaMismatchMargin = 5

    @Test(arguments: [Resampling.bilinear, .cubic])
    func geographicSourceMatchesGdalwarp(resampling: Resampling) throws {
        let c = try Self.compareWithGDAL(
            srs: "EPSG:4326", geoTransform: [5, 0.01, 0, 50, 0, -0.01], size: 600,
            zoom: 7, resampling: resampling)
        #expect(c.overlap > 100_000)
        #expect(c.psnr >= 72.5, "PSNR \(c.psnr)")  // measured 74.33 dB bilinear, 73.03 cubic; less 0.5 dB
        #expect(c.alphaMismatch <= Self.alphaMismatchMargin, "alpha differs at \(c.alphaMismatch) px")
        #expect(c.result.worstGridError <= 0.01)
    }

    @Test func utmSourceMatchesGdalwarp() throws {
        // 600 px of 100 m around 500 km easting, 5000 km northing in UTM 32N.
        let c = try Self.compareWithGDAL(
            srs: "EPSG:32632", geoTransform: [470000, 100, 0, 5030000, 0, -100], size: 600,
            zoom: 10, resampling: .bilinear)
        #expect(c.overlap > 100_000)
        #expect(c.psnr >= 67.35, "PSNR \(c.psnr)")  // measured 67.86 dB, less 0.5 dB
        #expect(c.alphaMismatch <= Self.alphaMismatchMargin, "alpha differs at \(c.alphaMismatch) px")
    }

    /// Nearest picks one source pixel per output pixel, as gdalwarp does: almost all identical
    /// (measured 99.879 %: 528 of 437,892 px differ; floor 99.8 %), and each of the rest a
    /// rounding at a source pixel's edge, not a wrong pixel: it holds the colour gdalwarp gives one
    /// of its 8 neighbours (measured: all 528) and differs by at most 8 levels in a channel
    /// (measured 5; the pattern's smooth channels change by at most 5 levels from one source
    /// pixel to the next, its 40/210 checks by 170).
    @Test func nearestIsAlmostAllIdentical() throws {
        let w = try WarpFixtures.warpWithBoth(
            srs: "EPSG:4326", geoTransform: [5, 0.01, 0, 50, 0, -0.01], size: 600, zoom: 7,
            resampling: .near)
        let c = WarpFixtures.compare(w.ours, w.theirs)
        let rest = Self.nearestRest(w.ours, w.theirs, width: w.result.width)
        #expect(c.overlap > 100_000)
        #expect(c.identical >= 0.998, "identical \(c.identical)")
        #expect(rest.neighbour == rest.differing, "\(rest.differing - rest.neighbour) of \(rest.differing) differing px hold no neighbour's colour")
        #expect(rest.maxDiff <= 8, "a differing px is \(rest.maxDiff) levels off")
        #expect(c.alphaMismatch <= Self.alphaMismatchMargin, "alpha differs at \(c.alphaMismatch) px")
    }

    /// The pixels where a nearest warp differs from gdalwarp's: how many, how many of them hold
    /// the colour gdalwarp gives one of the 8 neighbouring pixels (the same source pixel picked
    /// for a neighbour: a rounding at a pixel's edge), and the largest difference in a channel.
    static func nearestRest(_ a: [UInt8], _ b: [UInt8], width: Int) -> (differing: Int, neighbour: Int, maxDiff: Int) {
        let height = a.count / 4 / width
        var differing = 0, neighbour = 0, maxDiff = 0
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                guard a[i + 3] == 255, b[i + 3] == 255, a[i..<i + 3] != b[i..<i + 3] else { continue }
                differing += 1
                for c in 0..<3 { maxDiff = max(maxDiff, abs(Int(a[i + c]) - Int(b[i + c]))) }
                search: for dy in -1...1 {
                    for dx in -1...1 where (dx, dy) != (0, 0) {
                        let nx = x + dx, ny = y + dy
                        guard nx >= 0, ny >= 0, nx < width, ny < height else { continue }
                        let j = (ny * width + nx) * 4
                        if b[j + 3] == 255 && a[i..<i + 3] == b[j..<j + 3] { neighbour += 1; break search }
                    }
                }
            }
        }
        return (differing, neighbour, maxDiff)
    }

    @Test func shrinkingWidensTheKernel() throws {
        // Zoom 5 is about 4× coarser than the source: the kernel must widen as gdalwarp's does.
        let c = try Self.compareWithGDAL(
            srs: "EPSG:4326", geoTransform: [5, 0.01, 0, 50, 0, -0.01], size: 600,
            zoom: 5, resampling: .bilinear)
        #expect(c.overlap > 5_000, "overlap \(c.overlap)")
        #expect(c.psnr >= 43.35, "PSNR \(c.psnr)")  // measured 43.89 dB, less 0.5 dB
        #expect(c.alphaMismatch <= Self.alphaMismatchMargin, "alpha differs at \(c.alphaMismatch) px")
    }

    @Test func outputIsOnTheZoomGrid() throws {
        let c = try Self.compareWithGDAL(
            srs: "EPSG:4326", geoTransform: [5, 0.01, 0, 50, 0, -0.01], size: 200,
            zoom: 8, resampling: .near)
        let gt = c.result.geoTransform
        let res = WebMercator.resolution(zoom: 8)
        #expect(gt[1] == res && gt[5] == -res)
        let col = (gt[0] + WebMercator.halfCircumference) / res
        let row = (WebMercator.halfCircumference - gt[3]) / res
        #expect(abs(col - col.rounded()) < 1e-6 && abs(row - row.rounded()) < 1e-6)
        #expect(c.alphaMismatch <= Self.alphaMismatchMargin, "alpha differs at \(c.alphaMismatch) px")
    }
}
