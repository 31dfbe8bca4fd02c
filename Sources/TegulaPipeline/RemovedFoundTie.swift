import Foundation
import TegulaGeometry
import TegulaSupport

/// A found tie a person removed in the tie editor, as the editor lists it to be restored: a row
/// of kind `rejected` in the `ties_from:` file (`RejectedTies`) and the score of the tie of
/// `found-ties.csv` it leaves out now. The score is nil when the finder put no tie within
/// `RejectedTies.tolerance` of the row (the overlaps were matched again, another setting, a
/// changed scan): the row then leaves nothing out, and a tie found near it is fitted.
public struct RemovedFoundTie: Sendable, Equatable {
    /// The row's tie as written (its maps in the file's order).
    public var tie: TieSpec
    /// The row's line in the ties file.
    public var line: Int
    /// True when a found tie lies within `RejectedTies.tolerance` of the row, so the row leaves
    /// it out.
    public var leavesOut: Bool
    /// The score (normalised cross-correlation, 0–1) of the found tie the row leaves out; nil
    /// when it leaves none out.
    public var score: Double?
}

extension Pipeline {
    /// With `ties: auto`, every rejected row of the `ties_from:` file in file order, each with the
    /// found tie it leaves out; empty without `ties: auto` or without rejected rows.
    public func removedFoundTies() throws -> [RemovedFoundTie] {
        guard let found = foundTiesFile, let file = spec.tiesFrom else { return [] }
        let rejected = try TieList(path: file).rejected
        guard !rejected.isEmpty else { return [] }
        let rows = try TieList(path: found).rows
        let scores = Dictionary(
            try CSVTable(path: found, kind: TieList.kind).rows.map { ($0.line, Double($0.values["score"] ?? "")) },
            uniquingKeysWith: { a, _ in a })
        return rejected.map { r in
            let named = rows.first { RejectedTies.rejects(r.tie, $0.tie) }
            return RemovedFoundTie(tie: r.tie, line: r.line, leavesOut: named != nil, score: named.flatMap { scores[$0.line] ?? nil })
        }
    }

    /// One line for each rejected row of the `ties_from:` file that leaves no found tie out (the
    /// overlaps were matched again and no tie was found within half a pixel of it), for the run's
    /// log: the removed tie may be back, found a little way off, and nothing else would say so.
    public func idleRejectedRows() throws -> [String] {
        guard let file = spec.tiesFrom else { return [] }
        func at(_ p: PixelPoint) -> String { "(\(TiesFileEdit.number(p.x)), \(TiesFileEdit.number(p.y)))" }
        return try removedFoundTies().filter { !$0.leavesOut }.map { r in
            "ties: auto: \(file):\(r.line): the rejected row of '\(r.tie.mapA)' \(at(r.tie.pixelA)) and '\(r.tie.mapB)' \(at(r.tie.pixelB)) leaves no found tie out (none was found within \(TiesFileEdit.number(RejectedTies.tolerance)) px of it on both scans): a tie found near it is fitted; remove it in the tie editor, or delete the row"
        }
    }
}
