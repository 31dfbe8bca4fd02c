/// A value that people name with a word — a transform, a tile format, a resampling kernel —
/// parsed once at the edge (command line, pipeline file, HTTP) by one parser, written back by
/// one canonical name. Conforming types get `Codable` through ``decodeNamed(from:)`` and
/// ``encodeName(to:)`` and the command-line conformance in the CLI.
public protocol NamedValue: Sendable, Hashable, CustomStringConvertible {
    /// Parse a name as users write it (aliases and case included); nil when unknown.
    init?(name: String)
    /// The canonical name, as written into files and messages.
    var name: String { get }
    /// Every canonical name, in the order help texts list them.
    static var names: [String] { get }
    /// What the value is, for messages: "transform", "tile format".
    static var kind: String { get }
}

extension NamedValue {
    /// The canonical name.
    public var description: String { name }

    /// "one of a, b, c": what an error message offers instead of a bad name.
    public static var accepted: String { "one of " + names.joined(separator: ", ") }

    /// Parse or throw ``NamedValueError`` saying what was given and what is accepted.
    public static func parse(_ text: String) throws -> Self {
        guard let v = Self(name: text) else { throw NamedValueError(kind: kind, given: text, accepted: accepted) }
        return v
    }

    /// Decode from a single string with ``parse(_:)``'s message on a bad name.
    public static func decodeNamed(from decoder: Decoder) throws -> Self {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        guard let v = Self(name: text) else {
            throw DecodingError.dataCorruptedError(
                in: c,
                debugDescription:
                    "'\(text)' is not a \(kind); expected \(accepted)")
        }
        return v
    }

    /// Encode as the canonical name.
    public func encodeName(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(name)
    }
}
