/// A name that is not a known value of its kind.
public struct NamedValueError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What the value is ("transform").
    public var kind: String
    /// The text given.
    public var given: String
    /// What would be right.
    public var accepted: String

    /// "unknown transform 'x': expected one of …".
    public var description: String { "unknown \(kind) '\(given)': expected \(accepted)" }
}
