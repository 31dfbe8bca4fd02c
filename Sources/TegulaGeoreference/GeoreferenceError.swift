import TegulaSupport

/// Everything that can go wrong in the georeference stage, as one line that says what, where
/// (file:line, GCP id) and what would be right.
public typealias GeoreferenceError = LocatedError<GeoreferenceErrorReason>

/// The kinds of GeoreferenceError, for callers and tests that branch on them.
public enum GeoreferenceErrorReason: String, Sendable, Hashable {
    case unreadableFile, unparseableRow, unknownFormat, unknownCRS, unknownTransform
    case tooFewGCPs, tooManyGCPs, degenerateGCPs, duplicateGCPs, invalidCoordinate, gcpOutsideImage
    case badMask, fitFailed, writeFailed
}
