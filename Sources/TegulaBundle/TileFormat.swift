import TegulaGeometry

/// The image format of a tileset's tiles; the raw value is the file extension and the MBTiles
/// `format` value (MBTiles 1.3 uses `jpg`). PNG by default.
public enum TileFormat: String, CaseIterable, NamedValue, Codable {
    case png
    case jpeg = "jpg"
    case webp

    /// The HTTP `Content-Type` of a tile.
    public var contentType: String {
        switch self {
        case .png: return "image/png"
        case .jpeg: return "image/jpeg"
        case .webp: return "image/webp"
        }
    }

    /// The file extension used in folder layouts and URLs (without the dot).
    public var fileExtension: String { rawValue }

    /// The PMTiles v3 tile-type byte (2 png, 3 jpeg, 4 webp).
    var pmtilesType: UInt8 {
        switch self {
        case .png: return 2
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
    /// The canonical name (the MBTiles `format` value).
    public var name: String { rawValue }
    /// Every format's name, `jpg` also read as `jpeg`.
    public static var names: [String] { ["png", "jpg", "webp"] }
    /// "tile format".
    public static var kind: String { "tile format" }
    /// Decodes a name with ``init(name:)``.
    public init(from decoder: Decoder) throws { self = try Self.decodeNamed(from: decoder) }
    /// Encodes the canonical name.
    public func encode(to encoder: Encoder) throws { try encodeName(to: encoder) }

    /// Parses a format name: `png`, `jpg`, `jpeg`, `webp` (any case).
    public init?(name: String) {
        switch name.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "webp": self = .webp
        default: return nil
        }
    }

    /// Sniffs the format from an image's first bytes (PNG, JPEG or RIFF/WEBP signature).
    public init?(sniffing bytes: [UInt8]) {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { self = .png }
        else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { self = .jpeg }
        else if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)),
                Array(bytes[8..<12]) == Array("WEBP".utf8) { self = .webp }
        else { return nil }
    }
}

/// How a tile folder numbers its rows: XYZ (row 0 at the top) or TMS (row 0 at the bottom,
/// with a `tilemapresource.xml`).
public enum FolderLayout: String, CaseIterable, NamedValue, Codable {
    case xyz
    case tms

    /// Parses `xyz` or `tms`, any case.
    public init?(name: String) { self.init(rawValue: name.lowercased()) }
    /// The canonical name.
    public var name: String { rawValue }
    /// Both names.
    public static var names: [String] { allCases.map(\.rawValue) }
    /// "folder layout".
    public static var kind: String { "folder layout" }
    /// Decodes a name with ``init(name:)``.
    public init(from decoder: Decoder) throws { self = try Self.decodeNamed(from: decoder) }
    /// Encodes the canonical name.
    public func encode(to encoder: Encoder) throws { try encodeName(to: encoder) }
}
