/// Everything that can go wrong in the warp stage, as one line that says what, where and what
/// would be right, with a ``Reason`` callers can switch on.
public struct WarpError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The kinds of failure.
    public enum Reason: String, Sendable, Equatable {
        /// The input has no georeference (no geotransform with a CRS, no GCPs).
        case notGeoreferenced
        /// The georeference cannot be used (a singular geotransform, a CRS PROJ cannot convert).
        case badGeoreference
        /// The scan maps to nothing inside the Web Mercator world, or to no pixel at the zoom.
        case outsideWorld
        /// The output would be too large for the zoom asked.
        case tooLarge
        /// The scan's pixels cannot be read.
        case unreadable
        /// The output cannot be written or moved into place.
        case writeFailed
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
