import TegulaSupport

/// The image format of a tileset's tiles, as `--format` names it: the raw value is the name.
/// `png8` (palette PNG) is stored and declared as `png`; see ``stored``. `auto` mixes a lossy
/// format (JPEG, or WebP with ``AutoLossy/webp``) for opaque tiles and PNG for tiles with
/// transparency, which only a folder can hold honestly: each file carries its own extension.
/// PNG by default.
public enum TileFormat: String, CaseIterable, NamedValue, Codable {
    /// Lossless RGB/RGBA PNG (libdeflate).
    case png
    /// JPEG (TurboJPEG); transparent pixels are flattened onto white.
    case jpeg = "jpg"
    /// WebP (libwebp): lossless, or lossy with a quality.
    case webp
    /// Palette PNG with tRNS (libimagequant), stored as `png`.
    case png8
    /// JPEG (or lossy WebP, ``AutoLossy``) for fully opaque tiles, lossless PNG for tiles with
    /// transparency (MapTiler's hybrid).
    case auto

    /// The formats a tileset's files may have: JPEG, WebP and PNG for `auto` (whichever lossy
    /// format it was cut with), else the one ``stored`` format.
    public var tileFormats: [TileFormat] { self == .auto ? [.jpeg, .webp, .png] : [stored] }

    /// The `Content-Type` of one tile's bytes: sniffed for `auto`, else ``contentType``.
    public func contentType(of bytes: [UInt8]) -> String {
        self == .auto ? (TileFormat(sniffing: bytes) ?? .png).contentType : contentType
    }

    /// The file extension of one tile's bytes: sniffed for `auto`, else ``fileExtension``.
    public func fileExtension(of bytes: [UInt8]) -> String {
        self == .auto ? (TileFormat(sniffing: bytes) ?? .png).fileExtension : fileExtension
    }

    /// The format a container declares for these tiles: `png8` tiles are PNGs.
    public var stored: TileFormat { self == .png8 ? .png : self }

    /// The qualities `--quality` accepts.
    public static let qualities = 1...100

    /// Whether a quality applies (JPEG's, or WebP's lossy mode); PNG and PNG8 take none.
    public var takesQuality: Bool { self == .jpeg || self == .webp || self == .auto }

    /// Refuses a quality outside ``qualities`` or for a format that takes none, in one line.
    public static func checkQuality(_ quality: Int, for format: TileFormat) throws {
        guard qualities.contains(quality) else {
            throw OptionError.qualityOutOfRange(quality)
        }
        guard format.takesQuality else {
            throw OptionError.qualityNotTaken(by: format)
        }
    }

    /// An encoding option that does not fit the format: a quality out of range or given for a
    /// format without one, a WebP effort out of range or for tiles that are not lossless WebP, an
    /// auto-lossy format for a format other than `auto` (``TileOptionReason``).
    public typealias OptionError = LocatedError<TileOptionReason>

    /// The HTTP `Content-Type` of a tile (for `auto`, of its PNG tiles; see ``contentType(of:)``).
    public var contentType: String {
        switch self {
        case .png, .png8, .auto: return "image/png"
        case .jpeg: return "image/jpeg"
        case .webp: return "image/webp"
        }
    }

    /// The file extension used in folder layouts and URLs (without the dot); `auto` tiles each
    /// have their own (``fileExtension(of:)``), this is the one of its PNG tiles.
    public var fileExtension: String { self == .auto ? TileFormat.png.rawValue : stored.rawValue }

    /// The PMTiles v3 tile-type byte (2 png, 3 jpeg, 4 webp; 0 unknown for `auto`, which the
    /// writer refuses).
    var pmtilesType: UInt8 {
        switch self {
        case .auto: return 0
        case .png, .png8: return 2
        case .jpeg: return 3
        case .webp: return 4
        }
    }

    /// The format for a PMTiles v3 tile-type byte, or nil for vector or unknown types.
    init?(pmtilesType: UInt8) {
        switch pmtilesType {
        case 2: self = .png
        case 3: self = .jpeg
        case 4: self = .webp
        default: return nil
        }
    }

    /// The format used when none is named.
    public static let `default` = TileFormat.png
    /// The canonical name (for stored formats, the MBTiles `format` value).
    public var name: String { rawValue }
    /// Every format's name, `jpg` also read as `jpeg`.
    public static var names: [String] { ["png", "jpg", "webp", "png8", "auto"] }
    /// "tile format".
    public static var kind: String { "tile format" }
    /// Decodes a name with ``init(name:)``.
    public init(from decoder: Decoder) throws { self = try Self.decodeNamed(from: decoder) }
    /// Encodes the canonical name.
    public func encode(to encoder: Encoder) throws { try encodeName(to: encoder) }

    /// Parses a format name: `png`, `jpg`, `jpeg`, `webp`, `png8`, `auto` (any case).
    public init?(name: String) {
        switch name.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "webp": self = .webp
        case "png8": self = .png8
        case "auto": self = .auto
        default: return nil
        }
    }

    /// Sniffs the stored format from an image's first bytes (PNG, JPEG or RIFF/WEBP signature).
    public init?(sniffing bytes: [UInt8]) {
        switch ImageSignature(of: bytes) {
        case .png: self = .png
        case .jpeg: self = .jpeg
        case .webp: self = .webp
        case nil: return nil
        }
    }
}
