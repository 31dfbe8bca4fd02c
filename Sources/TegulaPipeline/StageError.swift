import TegulaGeometry

/// A stage of a map that cannot run, as one line. Errors of the stages' own modules
/// (georeference, warp, pyramid) pass through unchanged.
public typealias StageError = LocatedError<StageErrorReason>

/// The kinds of StageError, for callers and tests that branch on them.
public enum StageErrorReason: String, Sendable, Hashable {
    /// A stage run alone finds no recorded output of the stage before it.
    case missingRecord
    /// The map's input has no georeference and the file gives none.
    case notGeoreferenced
    /// An output cannot be moved into place.
    case writeFailed
    /// The stages were folded out of order (a bug, not bad input).
    case notPlanned
}
