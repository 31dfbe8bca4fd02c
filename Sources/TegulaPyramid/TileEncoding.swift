import TegulaTileset

/// How tiles are encoded: the format, its quality, `auto`'s lossy format and lossless WebP's
/// effort, checked together once where they are made (``TileFormat/checkQuality(_:for:)``,
/// ``AutoLossy/check(_:for:)``, ``WebPEffort/check(for:quality:)``, in that order). Part of
/// ``TileSettings``; on its own, `tegula serve --format` and a composite's tiles.
public struct TileEncoding: Sendable, Hashable {
    /// The tile image format.
    public let format: TileFormat
    /// JPEG's or lossy WebP's quality (``TileFormat/qualities``); nil = JPEG 85, WebP lossless.
    public let quality: Int?
    /// The lossy format of `auto`'s opaque tiles (`--auto-lossy`).
    public let autoLossy: AutoLossy
    /// libwebp's effort for lossless WebP tiles (`--webp-effort`).
    public let webpEffort: WebPEffort

    /// PNG, the defaults.
    public static let png = TileEncoding(checked: .default, nil, .default, .default)

    /// An encoding from its parts; an auto-lossy format or an effort given (not nil) must suit
    /// the format. Throws the first ``TileFormat/OptionError`` met.
    public init(format: TileFormat = .default, quality: Int? = nil, autoLossy: AutoLossy? = nil, webpEffort: WebPEffort? = nil) throws {
        if let quality { try TileFormat.checkQuality(quality, for: format) }
        if let autoLossy { try AutoLossy.check(autoLossy, for: format) }
        if webpEffort != nil { try WebPEffort.check(for: format, quality: quality) }
        self.init(checked: format, quality, autoLossy ?? .default, webpEffort ?? .default)
    }

    private init(checked format: TileFormat, _ quality: Int?, _ autoLossy: AutoLossy, _ webpEffort: WebPEffort) {
        self.format = format
        self.quality = quality
        self.autoLossy = autoLossy
        self.webpEffort = webpEffort
    }

    /// An encoder of tiles in this encoding (one per worker).
    package func encoder() -> TileEncoder {
        TileEncoder(format: format, quality: quality, autoLossy: autoLossy, webpEffort: webpEffort)
    }
}
