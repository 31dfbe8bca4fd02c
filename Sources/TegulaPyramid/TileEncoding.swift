import Foundation
import TegulaBundle
import TegulaCodec
import TegulaGDAL

/// Classifies a tile (empty, opaque, partly transparent) and encodes it; one per worker.
///
/// Empty tiles are not written; opaque tiles drop their alpha channel (RGB PNG, smaller and
/// faster); JPEG has no alpha, so partly transparent JPEG tiles are flattened onto white.
final class TileEncoder {
    let format: TileFormat
    let quality: Int
    /// libdeflate level 1 with the Up filter: on the benchmark scan (BENCHMARKS.md) level 1 encodes
    /// about a third faster than level 2 for 5 % more bytes, still fewer than gdal2tiles writes;
    /// Paeth, Sub and Average give more bytes there.
    private let png = PNGEncoder(level: 1, filter: .up)
    private var rgb: [UInt8] = []

    init(format: TileFormat, quality: Int = 85) {
        self.format = format
        self.quality = quality
    }

    /// Encoded bytes, or nil for an empty tile.
    func encode(_ px: UnsafePointer<UInt8>, size: Int) throws -> [UInt8]? {
        let count = size * size
        let cov = AlphaCoverage(rgba: px, pixelCount: count)
        if cov == .empty { return nil }
        switch format {
        case .png:
            return png.encodeDroppingOpaqueAlpha(rgba: px, width: size, height: size, coverage: cov)
        case .jpeg:
            return try encodeRGB(px, size: size, driver: "JPEG")
        case .webp:
            if cov == .opaque { return try encodeRGB(px, size: size, driver: "WEBP") }
            return try Dataset.encode(pixels: px, width: size, height: size, bands: 4, driver: "WEBP",
                                      options: ["QUALITY=\(quality)"])
        }
    }

    /// The pixels over white, encoded by a GDAL driver without alpha.
    private func encodeRGB(_ px: UnsafePointer<UInt8>, size: Int, driver: String) throws -> [UInt8] {
        let count = size * size
        if rgb.count < count * 3 { rgb = [UInt8](repeating: 0, count: count * 3) }
        return try rgb.withUnsafeMutableBufferPointer {
            AlphaCoverage.flattenOntoWhite(px, pixelCount: count, into: $0.baseAddress!)
            return try Dataset.encode(pixels: $0.baseAddress!, width: size, height: size, bands: 3, driver: driver,
                                      options: ["QUALITY=\(quality)"])
        }
    }
}
