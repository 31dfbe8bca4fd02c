import Foundation

/// An inclusive range of zoom levels, 0 ≤ min ≤ max ≤ ``WebMercator/maxZoom``, checked once
/// where it is made. Written `MIN-MAX` or a single zoom (`6` = 6-6).
public struct ZoomRange: Sendable, Hashable, CustomStringConvertible, Codable {
    /// Lowest zoom.
    public let min: Int
    /// Highest zoom.
    public let max: Int

    /// A range from its ends; nil unless 0 ≤ min ≤ max ≤ ``WebMercator/maxZoom``.
    public init?(min: Int, max: Int) {
        guard ZoomRange.isZoom(min), ZoomRange.isZoom(max), min <= max else { return nil }
        self.min = min
        self.max = max
    }

    /// Parse `MIN-MAX` or one zoom; nil otherwise.
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == parts.count else { return nil }
        switch numbers.count {
        case 1: self.init(min: numbers[0], max: numbers[0])
        case 2: self.init(min: numbers[0], max: numbers[1])
        default: return nil
        }
    }

    /// True for a zoom level Tegula's grid has (0…``WebMercator/maxZoom``).
    public static func isZoom(_ z: Int) -> Bool { (0...WebMercator.maxZoom).contains(z) }

    /// Every zoom of the grid.
    public static var all: ClosedRange<Int> { 0...WebMercator.maxZoom }

    /// The zooms as a Swift range.
    public var levels: ClosedRange<Int> { min...max }

    /// `MIN-MAX`.
    public var description: String { "\(min)-\(max)" }

    /// Decodes `MIN-MAX`, one zoom, or a number.
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try (try? c.decode(Int.self)).map(String.init) ?? c.decode(String.self)
        guard let r = ZoomRange(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: c,
                debugDescription:
                    "zoom range '\(text)': expected MIN-MAX with 0 ≤ MIN ≤ MAX ≤ \(WebMercator.maxZoom), or one zoom")
        }
        self = r
    }

    /// Encodes `MIN-MAX`.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
