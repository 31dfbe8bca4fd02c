/// A stage of a map that cannot run, as one line, with a ``Reason`` callers can switch on.
/// Errors of the stages' own modules (georeference, warp, pyramid) pass through unchanged.
public struct StageError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The kinds of failure.
    public enum Reason: String, Sendable, Equatable {
        /// A stage run alone finds no recorded output of the stage before it.
        case missingRecord
        /// The map's input has no georeference and the file gives none.
        case notGeoreferenced
        /// An output cannot be moved into place.
        case writeFailed
        /// The stages were folded out of order (a bug, not bad input).
        case notPlanned
    }

    /// Which kind of failure.
    public var reason: Reason
    /// What was wrong and what would be right, naming the file or map.
    public var message: String

    /// An error with a reason and a message.
    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// The message, one line.
    public var description: String { message }
}
