import TegulaSupport

/// Everything that can go wrong in matching (not a "no match", which is an answer: see
/// ``MatchVerdict``), as one line that says what, where and what would be right.
public typealias MatchError = LocatedError<MatchErrorReason>

/// The kinds of MatchError.
public enum MatchErrorReason: String, Sendable, Hashable {
    /// OpenCV threw (out of memory, an image it cannot take).
    case engineFailed
    /// An image is too small to match.
    case tooSmall
}
