/// Everything that can go wrong in the georeference stage, as one line that says what, where
/// (file:line, GCP id) and what would be right.
public struct GeoreferenceError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The kinds of failure, for callers and tests that branch on them.
    public enum Reason: String, Sendable, Equatable {
        case unreadableFile, unparseableRow, unknownFormat, unknownCRS, unknownTransform
        case tooFewGCPs, degenerateGCPs, duplicateGCPs, invalidCoordinate, gcpOutsideImage
        case badMask, fitFailed, writeFailed
    }

    /// Which kind of failure.
    public var reason: Reason
    /// Where: a file path, `file:line`, or a GCP id; nil when there is no place to name.
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
    public var description: String {
        let m = message.replacingOccurrences(of: "\n", with: " ")
        if let location { return "\(location): \(m)" }
        return m
    }
}
