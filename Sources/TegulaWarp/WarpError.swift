import TegulaSupport

/// Everything that can go wrong in the warp stage, as one line that says what, where and what
/// would be right.
public typealias WarpError = LocatedError<WarpErrorReason>

/// The kinds of WarpError, for callers and tests that branch on them.
public enum WarpErrorReason: String, Sendable, Hashable {
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
