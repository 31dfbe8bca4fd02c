import Foundation
import TegulaCodec
import TegulaGDAL
import TegulaTestSupport
import Testing

/// The one "drop alpha if opaque, then encode" every tile writer uses: opaque images become RGB
/// PNGs with the same bytes as encoding their RGB directly; anything else keeps its alpha. The
/// pixels are checked through GDAL's PNG driver (libpng), not only through Tegula's own decoder.
struct OpaqueAlphaTests {
    /// The PNG colour type in IHDR (2 = RGB, 6 = RGBA).
    static func colourType(_ png: [UInt8]) -> UInt8 { png[25] }

    /// The PNG as GDAL's PNG driver reads it: band count and pixel-interleaved bytes.
    static func readByGDAL(_ png: [UInt8], width: Int, height: Int) throws -> (bands: Int, pixels: [UInt8]) {
        let dir = try TemporaryFolder.make("opaque-alpha")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.png").path
        try Data(png).write(to: URL(fileURLWithPath: path))
        let d = try Dataset(path: path)
        #expect(d.driverName == "PNG" && d.width == width && d.height == height)
        var px = [UInt8](repeating: 0, count: width * height * d.bandCount)
        try px.withUnsafeMutableBufferPointer {
            try d.readBytes(x: 0, y: 0, width: width, height: height, bands: Array(1...d.bandCount), into: $0.baseAddress!)
        }
        return (d.bandCount, px)
    }

    @Test func opaqueImagesLoseOnlyTheirAlpha() throws {
        let rgb = CodecFixtures.sample(width: 31, height: 17, channels: 3)
        let rgba = rgb.rgba
        let encoder = PNGEncoder(level: 1, filter: .up)
        let png = encoder.encodeDroppingOpaqueAlpha(rgba)
        #expect(Self.colourType(png) == 2)
        #expect(png == PNGEncoder(level: 1, filter: .up).encode(rgb))  // byte for byte
        #expect(try PNGDecoder.decode(png) == rgba)
        let gdal = try Self.readByGDAL(png, width: 31, height: 17)
        #expect(gdal.bands == 3 && gdal.pixels == rgb.pixels, "GDAL reads the RGB pixels")
    }

    @Test func partlyTransparentImagesKeepTheirAlpha() throws {
        var img = CodecFixtures.sample(width: 31, height: 17, channels: 3).rgba
        img.pixels[4 * 100 + 3] = 254
        let png = PNGEncoder().encodeDroppingOpaqueAlpha(img)
        #expect(Self.colourType(png) == 6)
        #expect(png == PNGEncoder().encode(img))
        #expect(try PNGDecoder.decode(png) == img)
        let gdal = try Self.readByGDAL(png, width: 31, height: 17)
        #expect(gdal.bands == 4 && gdal.pixels == img.pixels, "GDAL reads the RGBA pixels, alpha 254 included")
    }

    @Test func coverageAndFlatteningOntoWhite() {
        let px: [UInt8] = [10, 20, 30, 255, 200, 100, 0, 0, 100, 50, 0, 128]
        #expect(AlphaCoverage(rgba: px, pixelCount: 3) == .partial)
        #expect(AlphaCoverage(rgba: px, pixelCount: 1) == .opaque)
        #expect(AlphaCoverage(rgba: [1, 2, 3, 0, 4, 5, 6, 0], pixelCount: 2) == .empty)
        var out = [UInt8](repeating: 0, count: 9)
        AlphaCoverage.flattenOntoWhite(px, pixelCount: 3, into: &out)
        // Opaque kept exactly; alpha 0 is white; alpha 128: (100·128 + 255·127 + 127) / 255 = 177.
        #expect(out == [10, 20, 30, 255, 255, 255, 177, 152, 127])
    }

    /// The word-at-a-time scan agrees with reading every alpha, wherever the one odd alpha sits
    /// (first pixel, inside a 64-pixel stretch, at its edges, in the tail) and whatever the size.
    @Test(arguments: [1, 2, 63, 64, 65, 127, 128, 129, 256 * 256])
    func coverageFindsEveryOddAlpha(pixelCount n: Int) {
        func reference(_ a: [UInt8]) -> AlphaCoverage {
            let alphas = stride(from: 3, to: a.count, by: 4).map { a[$0] }
            return alphas.allSatisfy { $0 == 255 } ? .opaque : alphas.allSatisfy { $0 == 0 } ? .empty : .partial
        }
        for base in [UInt8(255), 0] {
            var px = [UInt8](repeating: 7, count: n * 4)
            for i in 0..<n { px[i * 4 + 3] = base }
            #expect(AlphaCoverage(rgba: px, pixelCount: n) == (base == 255 ? .opaque : .empty))
            for at in Set([0, 1, 31, 62, 63, 64, 65, n / 2, n - 2, n - 1].filter { $0 >= 0 && $0 < n }) {
                for odd: UInt8 in [0, 1, 254, 255] where odd != base {
                    var q = px
                    q[at * 4 + 3] = odd
                    #expect(AlphaCoverage(rgba: q, pixelCount: n) == reference(q), "n \(n), alpha \(odd) at \(at) among \(base)")
                }
            }
        }
    }
}
