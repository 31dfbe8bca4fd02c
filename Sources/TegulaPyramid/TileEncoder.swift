import TegulaCodec
import TegulaTileset

/// Classifies a tile (empty, opaque, partly transparent) and encodes it; one per worker.
///
/// Empty tiles are not written; opaque tiles drop their alpha channel (RGB PNG, smaller and
/// faster); JPEG has no alpha, so partly transparent JPEG tiles are flattened onto white.
/// WebP is lossless unless a quality is given; PNG8 keeps transparency in its palette; `auto`
/// writes JPEG (or lossy WebP, `autoLossy`) for opaque tiles and PNG for the others.
package final class TileEncoder {
    let format: TileFormat
    /// JPEG's quality, or WebP's lossy quality (nil = lossless WebP; for `auto`, the default).
    let quality: Int?
    /// The lossy format of an `auto` tileset's opaque tiles.
    let autoLossy: AutoLossy
    /// libwebp's effort for lossless WebP tiles.
    let webpEffort: WebPEffort
    /// libdeflate level 1 with the Up filter: on the benchmark scan (BENCHMARKS.md) level 1 encodes
    /// about a third faster than level 2 for 5 % more bytes, still fewer than gdal2tiles writes;
    /// Paeth, Sub and Average give more bytes there.
    private let png = PNGEncoder(level: 1, filter: .up)
    private lazy var jpeg = JPEGEncoder(quality: quality ?? Self.defaultJPEGQuality)
    private lazy var webp = WebPEncoder(quality: quality, losslessEffort: webpEffort.level)
    private lazy var autoWebP = WebPEncoder(quality: quality ?? Self.defaultAutoWebPQuality)
    private lazy var png8 = PNG8Encoder()
    private var rgb: [UInt8] = []

    /// JPEG's quality when none is given.
    static let defaultJPEGQuality = 85
    /// Lossy WebP's quality for `auto`'s opaque tiles when none is given.
    static let defaultAutoWebPQuality = 85

    package init(format: TileFormat, quality: Int? = nil, autoLossy: AutoLossy = .default, webpEffort: WebPEffort = .default) {
        self.format = format
        self.quality = quality
        self.autoLossy = autoLossy
        self.webpEffort = webpEffort
    }

    /// Encoded bytes, or nil for an empty tile.
    package func encode(_ px: UnsafePointer<UInt8>, size: Int) throws -> [UInt8]? {
        let count = size * size
        let cov = AlphaCoverage(rgba: px, pixelCount: count)
        if cov == .empty { return nil }
        switch format {
        case .png:
            return png.encodeDroppingOpaqueAlpha(rgba: px, width: size, height: size, coverage: cov)
        case .auto:
            // MapTiler's hybrid: lossy exactly where no pixel is transparent, lossless PNG elsewhere.
            if cov == .opaque {
                switch autoLossy {
                case .jpeg: return try jpeg.encode(pixels: px, width: size, height: size, channels: 4)
                case .webp: return try autoWebP.encode(pixels: px, width: size, height: size, channels: 4)
                }
            }
            return png.encodeDroppingOpaqueAlpha(rgba: px, width: size, height: size, coverage: cov)
        case .jpeg:
            // TurboJPEG reads RGBA as RGB: opaque tiles go in as they are, others over white.
            if cov == .opaque { return try jpeg.encode(pixels: px, width: size, height: size, channels: 4) }
            if rgb.count < count * 3 { rgb = [UInt8](repeating: 0, count: count * 3) }
            let jpeg = self.jpeg
            return try rgb.withUnsafeMutableBufferPointer {
                AlphaCoverage.flattenOntoWhite(px, pixelCount: count, into: $0.baseAddress!)
                return try jpeg.encode(pixels: $0.baseAddress!, width: size, height: size, channels: 3)
            }
        case .webp:
            return try webp.encode(pixels: px, width: size, height: size, channels: 4)
        case .png8:
            return try png8.encode(rgba: px, width: size, height: size)
        }
    }
}
