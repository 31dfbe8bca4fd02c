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
    /// The reference has no georeference (no geotransform with a CRS, no GCPs).
    case noGeoreference
    /// A reference tileset cannot be read as asked (a tile that does not decode, a zoom it does
    /// not hold, bounds with no pixel).
    case unreadableReference
    /// The reference's georeference maps a matched pixel nowhere.
    case unmappedPixel
}
