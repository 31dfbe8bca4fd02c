/// A PMTiles v3 compression byte (spec §3.3, "Internal Compression" and "Tile Compression"):
/// how the directories and metadata, or the tiles, are compressed.
enum Compression: UInt8, CaseIterable, Sendable, CustomStringConvertible {
    /// 0: not stated. Readers cannot know how to decode, so Tegula refuses it for directories.
    case unknown = 0
    /// 1: stored as they are.
    case none = 1
    /// 2: gzip (RFC 1952), what go-pmtiles and planetiler write for directories and metadata.
    case gzip = 2
    /// 3: brotli.
    case brotli = 3
    /// 4: zstandard.
    case zstd = 4

    /// The header byte's compression, with bytes the spec does not define read as `.unknown`.
    init(byte: UInt8) { self = Compression(rawValue: byte) ?? .unknown }

    /// The spec's name.
    var description: String {
        switch self {
        case .unknown: return "unknown"
        case .none: return "none"
        case .gzip: return "gzip"
        case .brotli: return "brotli"
        case .zstd: return "zstd"
        }
    }
}
