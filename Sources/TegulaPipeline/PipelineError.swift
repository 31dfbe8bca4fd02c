import TegulaSupport

/// Everything that can go wrong in a pipeline file or in a stage of one of its maps, as one line.
/// A problem in a file is located at `file:line:column` and the key path (e.g.
/// `maps[0].tile.format`); a stage's names the file it concerns in its message. Errors of the
/// stages' own modules (georeference, warp, pyramid) pass through unchanged.
public typealias PipelineError = LocatedError<PipelineErrorReason>

/// The kinds of PipelineError, for callers and tests that branch on them.
public enum PipelineErrorReason: String, Sendable, Hashable {
    /// A file (the pipeline file, a sheet list) cannot be read, is not UTF-8 text, or a glob
    /// cannot be listed.
    case unreadable
    /// A file is not valid YAML or CSV, is empty, or expands its aliases too far.
    case syntax
    /// A key, value or row is wrong: unknown, missing, of the wrong type or out of range; a file
    /// it names does not exist; an output is refused.
    case invalid
    /// A stage run alone finds no recorded output of the stage before it.
    case missingRecord
    /// The map's input has no georeference and the file gives none.
    case notGeoreferenced
    /// The map's scan does not match its `georeference.match` reference surely enough.
    case noMatch
    /// An output cannot be moved into place.
    case writeFailed
    /// The stages were folded out of order (a bug, not bad input).
    case notPlanned
}

extension LocatedError where Reason == PipelineErrorReason {
    /// An error at a place in a file: `file:line:column: key.path: message`, each part when known.
    init(
        _ reason: PipelineErrorReason, file: String, line: Int? = nil, column: Int? = nil, keyPath: String? = nil,
        _ message: String
    ) {
        var location = file
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        if let keyPath, !keyPath.isEmpty { location += ": \(keyPath)" }
        self.init(reason, at: location, message)
    }
}
