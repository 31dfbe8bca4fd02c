import Foundation
import Testing
@testable import TegulaWarp

/// Lanczos and average against `gdalwarp -r lanczos|average -et 0` on the same grid (issue 16
/// item 6: the kernels had no independent oracle), at about the source's resolution (zoom 7)
/// and shrunk about 4× (zoom 5), where the kernel must widen as gdalwarp's does.
///
/// The fixture's red and green bands are smooth, its blue band a hard-edged checkerboard. On the
/// smooth bands both kernels agree with GDAL's (measured: lanczos 43.5 and 52.8 dB, average 49.5
/// and 48.8 dB at zoom 7); a kernel of the wrong kind does not (Tegula's lanczos against
/// gdalwarp's near: 30.9 dB over all bands). On the hard edges they differ, not yet explained
/// (RELIABILITY.md): GDAL's lanczos rings far more than Tegula's (up to 175 levels apart at an
/// edge; Tegula's lanczos is closer to gdalwarp's cubic, 45.4 dB, than to its lanczos, and
/// gdalwarp's own lanczos and cubic are 29.5 dB apart), and GDAL's average weighs the source
/// pixels a target pixel partly covers by area where Tegula's box counts them whole or not at
/// all. So the edges are bounded below at what was measured, not hidden.
struct ResamplingOracleTests {
    /// PSNR of one band over pixels opaque in both.
    static func bandPSNR(_ a: [UInt8], _ b: [UInt8], band: Int) -> Double {
        var se = 0.0, n = 0
        for i in stride(from: 0, to: min(a.count, b.count), by: 4) where a[i + 3] == 255 && b[i + 3] == 255 {
            let d = Double(a[i + band]) - Double(b[i + band])
            se += d * d
            n += 1
        }
        return n == 0 ? 0 : se == 0 ? 99 : 10 * log10(255 * 255 / (se / Double(n)))
    }

    @Test(arguments: [(Resampling.lanczos, 7, 23.0), (.lanczos, 5, 23.0), (.average, 7, 27.0), (.average, 5, 27.0)])
    func kernelMatchesGdalwarp(resampling: Resampling, zoom: Int, edgeFloor: Double) throws {
        let w = try GeoTransformWarpTests.warpWithBoth(srs: "EPSG:4326", geoTransform: [5, 0.01, 0, 50, 0, -0.01],
                                                       size: 600, zoom: zoom, resampling: resampling)
        let c = Fixtures.compare(w.ours, w.theirs)
        let bands = (0..<3).map { Self.bandPSNR(w.ours, w.theirs, band: $0) }
        print("\(resampling) z\(zoom) vs gdalwarp -r \(resampling) -et 0: PSNR red \(bands[0]), green \(bands[1]), blue (edges) \(bands[2]) dB; overlap \(c.overlap), alpha mismatch \(c.alphaMismatch)")
        #expect(c.overlap > (zoom == 7 ? 100_000 : 5_000), "overlap \(c.overlap)")
        #expect(bands[0] >= 40 && bands[1] >= 40, "smooth bands: \(bands)")
        #expect(bands[2] >= edgeFloor, "hard edges: \(bands)")
        #expect(Double(c.alphaMismatch) / Double(c.overlap) < 0.02, "alpha mismatch \(c.alphaMismatch) of \(c.overlap)")
    }
}
