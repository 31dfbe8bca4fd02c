import TegulaGeometry
import TegulaSupport
import TegulaTileset
import TegulaWarp

/// The tile stage's settings, checked once where they are made and never optional: the zooms
/// asked for, the tile size and pixel ratio, the folder's row order, the max zoom's kernel and
/// the encoding. Its two front ends make it: `tegula tile`'s options and a pipeline file's
/// `tile:` section; a ``TileJob`` runs it.
public struct TileSettings: Sendable, Hashable {
    /// The zooms asked for (either end may be chosen from the scan).
    public let zooms: ZoomRequest
    /// Tile side in map units of 256-px tiles: 256 or 512.
    public let tileSize: Int
    /// Pixel ratio: 2 writes `@2x` tiles of twice the pixels.
    public let scale: Int
    /// Folder row order.
    public let layout: TileOrigin
    /// Kernel at the max zoom.
    public let resampling: Resampling
    /// Format, quality, auto-lossy format and WebP effort.
    public let encoding: TileEncoding

    /// The tile sizes there are.
    public static let tileSizes = [256, 512]
    /// The pixel ratios there are.
    public static let scales = [1, 2]

    /// Every default: zooms auto, 256-px tiles at scale 1, xyz rows, bilinear, PNG.
    public static let defaults = TileSettings(checked: .auto, 256, 1, .topLeft, .default, .png)

    /// Settings from their parts, the defaults for those left out. Checks the tile size, the
    /// scale (a ``TileSettingsError``), then the encoding (``TileEncoding/init(format:quality:autoLossy:webpEffort:)``).
    public init(
        zooms: ZoomRequest = .auto, tileSize: Int = 256, scale: Int = 1, layout: TileOrigin = .topLeft,
        resampling: Resampling = .default, format: TileFormat = .default, quality: Int? = nil,
        autoLossy: AutoLossy? = nil, webpEffort: WebPEffort? = nil
    ) throws {
        try Self.check(tileSize: tileSize, scale: scale)
        let encoding = try TileEncoding(format: format, quality: quality, autoLossy: autoLossy, webpEffort: webpEffort)
        self.init(checked: zooms, tileSize, scale, layout, resampling, encoding)
    }

    private init(
        checked zooms: ZoomRequest, _ tileSize: Int, _ scale: Int, _ layout: TileOrigin, _ resampling: Resampling,
        _ encoding: TileEncoding
    ) {
        self.zooms = zooms
        self.tileSize = tileSize
        self.scale = scale
        self.layout = layout
        self.resampling = resampling
        self.encoding = encoding
    }

    /// Throws when the tile size is not one of ``tileSizes`` or the scale not one of ``scales``.
    public static func check(tileSize: Int, scale: Int) throws {
        guard tileSizes.contains(tileSize) else { throw TileSettingsError.tileSize(tileSize) }
        guard scales.contains(scale) else { throw TileSettingsError.scale(scale) }
    }

    /// Pixels per tile side as written.
    public var tilePixels: Int { tileSize * scale }

    /// These settings with other zooms.
    public func with(zooms: ZoomRequest) -> TileSettings {
        TileSettings(checked: zooms, tileSize, scale, layout, resampling, encoding)
    }

    /// These settings with another kernel (a pipeline map cut in another set from its scan: the
    /// warp's kernel when `tile.resampling` is not given).
    public func with(resampling: Resampling) -> TileSettings {
        TileSettings(checked: zooms, tileSize, scale, layout, resampling, encoding)
    }

    /// These settings with another encoding (`tegula serve --format` over a source's own).
    public func with(encoding: TileEncoding) -> TileSettings {
        TileSettings(checked: zooms, tileSize, scale, layout, resampling, encoding)
    }
}

/// The kinds of ``TileSettingsError``, with the value that was refused.
public enum TileSettingsReason: Sendable, Hashable {
    /// A tile size other than 256 or 512.
    case tileSize(Int)
    /// A pixel ratio other than 1 or 2.
    case scale(Int)
}

/// A tile size or scale that is none (the encoding's refusals are ``TileFormat/OptionError``s).
/// Its message is worded for a pipeline file's keys, ``commandLine`` for `tegula tile`'s options.
public typealias TileSettingsError = LocatedError<TileSettingsReason>

extension LocatedError where Reason == TileSettingsReason {
    /// `size` is not 256 or 512.
    public static func tileSize(_ size: Int) -> TileSettingsError {
        TileSettingsError(.tileSize(size), "tile_size \(size): expected 256 or 512")
    }

    /// `scale` is not 1 or 2.
    public static func scale(_ scale: Int) -> TileSettingsError {
        TileSettingsError(.scale(scale), "scale \(scale): expected 1 or 2")
    }

    /// The same refusal worded for the command line's options.
    public var commandLine: String {
        switch reason {
        case .tileSize(let size): "--tile-size must be 256 or 512, not \(size)"
        case .scale(let scale): "--scale must be 1 or 2, not \(scale)"
        }
    }
}
