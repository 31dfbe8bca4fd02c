/// The one shape of Tegula's errors, whatever the layer: a reason callers can switch on, where it
/// happened (a file, `file:line`, a key path, a GCP id) and what was wrong and what would be
/// right, printed as one line `where: what`. Each layer names its own instance
/// (`GeoreferenceError`, `WarpError`, `PyramidError`, `StageError`), so callers can also catch
/// by layer.
public struct LocatedError<Reason: Hashable & Sendable>: Error, CustomStringConvertible, Sendable, Equatable {
    /// Which kind of failure.
    public var reason: Reason
    /// Where: a file path, `file:line`, a key path or a GCP id; nil when there is no place to name.
    public var location: String?
    /// What was wrong and what would be right.
    public var message: String

    /// An error with a reason, an optional location and a message.
    public init(_ reason: Reason, at location: String? = nil, _ message: String) {
        self.reason = reason
        self.location = location
        self.message = message
    }

    /// `location: message`, on one line whatever the message holds.
    public var description: String {
        let m = message.replacingOccurrences(of: "\n", with: " ")
        return location.map { "\($0): \(m)" } ?? m
    }
}
