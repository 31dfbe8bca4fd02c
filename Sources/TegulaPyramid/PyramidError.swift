/// Everything that can go wrong in the pyramid stage, as one line that says what, where and what
/// would be right, with a ``Reason`` callers can switch on.
public struct PyramidError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The kinds of failure.
    public enum Reason: String, Sendable, Equatable {
        /// The zooms asked for are not a valid range, or the scan has no tile at them.
        case badZooms
        /// The scan maps to nothing on the tile grid.
        case emptyFootprint
        /// A tile cannot be encoded.
        case encodeFailed
    }

    /// Which kind of failure.
    public var reason: Reason
    /// Where: a file path; nil when there is no place to name.
    public var location: String?
    /// What was wrong and what would be right.
    public var message: String

    /// An error with a reason, an optional location and a message.
    public init(_ reason: Reason, at location: String? = nil, _ message: String) {
        self.reason = reason
        self.location = location
        self.message = message
    }

    /// `location: message`, one line.
    public var description: String { location.map { "\($0): \(message)" } ?? message }
}
