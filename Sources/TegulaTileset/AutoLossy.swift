import TegulaSupport

/// The lossy format `--format auto` writes for fully opaque tiles (`--auto-lossy`): JPEG, as
/// MapTiler's hybrid does (the default), or lossy WebP (about a third fewer bytes at the same
/// look; every current browser and MapLibre read it). Tiles with transparency stay lossless PNG.
public enum AutoLossy: String, CaseIterable, NamedValue, Codable {
    case jpeg
    case webp

    /// The tile format of the opaque tiles.
    public var format: TileFormat { self == .jpeg ? .jpeg : .webp }

    /// The one used when none is named.
    public static let `default` = AutoLossy.jpeg
    /// Parses `jpeg` (or `jpg`) or `webp`, any case.
    public init?(name: String) {
        switch name.lowercased() {
        case "jpeg", "jpg": self = .jpeg
        case "webp": self = .webp
        default: return nil
        }
    }
    /// The canonical name.
    public var name: String { rawValue }
    /// Both names.
    public static var names: [String] { allCases.map(\.rawValue) }
    /// "lossy format for auto".
    public static var kind: String { "lossy format for auto" }
    /// Decodes a name with ``init(name:)``.
    public init(from decoder: Decoder) throws { self = try Self.decodeNamed(from: decoder) }
    /// Encodes the canonical name.
    public func encode(to encoder: Encoder) throws { try encodeName(to: encoder) }

    /// Refuses `--auto-lossy` for a format other than `auto`, in one line.
    public static func check(_ lossy: AutoLossy, for format: TileFormat) throws {
        guard format == .auto else {
            throw TileFormat.OptionError.autoLossyNotAuto(format)
        }
    }
}
