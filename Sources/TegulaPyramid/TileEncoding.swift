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

    enum Coverage { case empty, opaque, partial }

    static func coverage(_ px: UnsafePointer<UInt8>, count: Int) -> Coverage {
        var anyOpaque = false, allOpaque = true
        var i = 3
        let n = count * 4
        while i < n {
            let a = px[i]
            if a != 0 { anyOpaque = true }
            if a != 255 { allOpaque = false }
            if anyOpaque && !allOpaque { return .partial }
            i += 4
        }
        return allOpaque ? .opaque : (anyOpaque ? .partial : .empty)
    }

    /// Encoded bytes, or nil for an empty tile.
    func encode(_ px: UnsafePointer<UInt8>, size: Int) throws -> [UInt8]? {
        let count = size * size
        let cov = TileEncoder.coverage(px, count: count)
        if cov == .empty { return nil }
        let needsRGB = cov == .opaque || format == .jpeg
        if needsRGB {
            if rgb.count < count * 3 { rgb = [UInt8](repeating: 0, count: count * 3) }
            rgb.withUnsafeMutableBufferPointer { out in
                for i in 0..<count {
                    let a = Int(px[i * 4 + 3])
                    if a == 255 {
                        out[i * 3] = px[i * 4]; out[i * 3 + 1] = px[i * 4 + 1]; out[i * 3 + 2] = px[i * 4 + 2]
                    } else {
                        let w = 255 - a
                        out[i * 3] = UInt8((Int(px[i * 4]) * a + 255 * w + 127) / 255)
                        out[i * 3 + 1] = UInt8((Int(px[i * 4 + 1]) * a + 255 * w + 127) / 255)
                        out[i * 3 + 2] = UInt8((Int(px[i * 4 + 2]) * a + 255 * w + 127) / 255)
                    }
                }
            }
        }
        switch format {
        case .png:
            if needsRGB {
                return rgb.withUnsafeBufferPointer { png.encode(pixels: $0.baseAddress!, width: size, height: size, channels: 3) }
            }
            return png.encode(pixels: px, width: size, height: size, channels: 4)
        case .jpeg:
            return try rgb.withUnsafeBufferPointer {
                try Dataset.encode(pixels: $0.baseAddress!, width: size, height: size, bands: 3, driver: "JPEG",
                                   options: ["QUALITY=\(quality)"])
            }
        case .webp:
            if needsRGB {
                return try rgb.withUnsafeBufferPointer {
                    try Dataset.encode(pixels: $0.baseAddress!, width: size, height: size, bands: 3, driver: "WEBP",
                                       options: ["QUALITY=\(quality)"])
                }
            }
            return try Dataset.encode(pixels: px, width: size, height: size, bands: 4, driver: "WEBP",
                                      options: ["QUALITY=\(quality)"])
        }
    }
}
