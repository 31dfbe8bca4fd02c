import TegulaSupport

/// How hard libwebp works on a lossless WebP tile (`--webp-effort`, pipeline `tile.webp_effort`):
/// the level of `WebPConfigLosslessPreset`, 0 (fastest) to 9 (fewest bytes), which sets its
/// `method` and `quality`. Only lossless WebP tiles take it: lossy WebP is set by its quality.
///
/// The default is chosen by measurement on the benchmark scan (`scripts/bench-webp`; the curve and
/// its figures in BENCHMARKS.md): the level with the fewest bytes whose whole pyramid stays at
/// least twice as fast as gdal2tiles' own lossless WebP.
public struct WebPEffort: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The preset level, within ``levels``.
    public let level: Int

    /// The levels libwebp's lossless preset accepts.
    public static let levels = 0...9

    /// The one used when none is given: level 3 (see above).
    public static let `default` = WebPEffort(3)!

    /// The effort at `level`; nil outside ``levels``.
    public init?(_ level: Int) {
        guard Self.levels.contains(level) else { return nil }
        self.level = level
    }

    /// The level as a number.
    public var description: String { String(level) }

    public static func < (a: WebPEffort, b: WebPEffort) -> Bool { a.level < b.level }

    /// Parses a level or throws the one-line message naming the accepted range.
    public static func parse(_ level: Int) throws -> WebPEffort {
        guard let effort = WebPEffort(level) else {
            throw TileFormat.OptionError.effortOutOfRange(level)
        }
        return effort
    }

    /// Decodes a level with ``parse(_:)``'s message when it is out of range.
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let level = try c.decode(Int.self)
        do { self = try Self.parse(level) } catch {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "\(error)")
        }
    }

    /// Encodes the level.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(level)
    }

    /// Refuses an effort for tiles that are not lossless WebP (another format, or WebP made lossy
    /// by a quality), in one line: it would change nothing.
    public static func check(for format: TileFormat, quality: Int?) throws {
        guard format == .webp else {
            throw TileFormat.OptionError.effortNotWebP(format)
        }
        guard quality == nil else {
            throw TileFormat.OptionError.effortLossy(quality: quality!)
        }
    }
}
