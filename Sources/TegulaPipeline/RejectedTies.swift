import Foundation
import TegulaGeometry

/// Found ties a person removed in the tie editor: the rows of kind `rejected` in the `ties_from:`
/// file (``TieList``). With `ties: auto`, a found tie of the same two maps within ``tolerance``
/// scan pixels of a rejected row on both scans is left out of the fit and counted in its pair's
/// `rejected` in the sheet index. The rows hold where the found tie was, not which run found it,
/// so the edit holds when the overlaps are matched again (another setting, a changed scan) as
/// long as the finder puts the tie within the tolerance; a tie it finds elsewhere is a new tie.
/// A found tie the person moved is a rejected row at its old place plus a tie at its new one.
enum RejectedTies {
    /// How far, in scan pixels on each sheet, a found tie may lie from a rejected row and be left out.
    /// Half a pixel: two found ties of one pair (one a cell of the overlap's grid) can lie 1 px apart.
    static let tolerance = 0.5

    /// True when `rejected` names `tie`: the same two maps (in either order), each pixel within
    /// ``tolerance``.
    static func rejects(_ rejected: TieSpec, _ tie: TieSpec) -> Bool {
        func near(_ p: PixelPoint, _ q: PixelPoint) -> Bool { abs(p.x - q.x) <= tolerance && abs(p.y - q.y) <= tolerance }
        if rejected.mapA == tie.mapA && rejected.mapB == tie.mapB { return near(rejected.pixelA, tie.pixelA) && near(rejected.pixelB, tie.pixelB) }
        if rejected.mapA == tie.mapB && rejected.mapB == tie.mapA { return near(rejected.pixelA, tie.pixelB) && near(rejected.pixelB, tie.pixelA) }
        return false
    }

    /// The found ties (those read from the work folder's `found-ties.csv`) that a rejected row of
    /// the ties file names taken out of the pipeline's ties and their origins; each pair's count
    /// of them set in ``Pipeline/foundTies``. Nothing changes without `ties: auto` or rejected rows.
    static func apply(_ pipeline: inout Pipeline) throws {
        guard pipeline.foundTies != nil, let file = pipeline.spec.tiesFrom else { return }
        let rejected = try TieList(path: file).rejected.map(\.tie)
        guard !rejected.isEmpty else { return }
        var kept: [(TieSpec, TieOrigin)] = []
        var counts: [String: Int] = [:]
        for (t, origin) in zip(pipeline.spec.ties, pipeline.tieOrigins) {
            if pipeline.isFound(origin), rejected.contains(where: { rejects($0, t) }) {
                counts[[t.mapA, t.mapB].sorted().joined(separator: "\n"), default: 0] += 1
            } else {
                kept.append((t, origin))
            }
        }
        pipeline.spec.ties = kept.map(\.0)
        pipeline.tieOrigins = kept.map(\.1)
        for i in pipeline.foundTies!.pairs.indices {
            let p = pipeline.foundTies!.pairs[i]
            pipeline.foundTies!.pairs[i].rejected = counts[[p.mapA, p.mapB].sorted().joined(separator: "\n")]
        }
    }
}

extension Pipeline {
    /// With `ties: auto`, the ties file the found ties are read from (`found-ties.csv` in the work
    /// folder); nil without it.
    public var foundTiesFile: String? { foundTies == nil ? nil : AutoTies.csvPath(work: workFolder) }

    /// With `ties: auto`, the lines for the log of the pairs that did not match (a pair tied by
    /// hand says its hand ties stand) and the sheets left unplaced; empty without it.
    var unmatchedTieLines: [String] {
        guard let found = foundTies else { return [] }
        var hand: [Set<String>: Int] = [:]
        for (t, origin) in zip(spec.ties, tieOrigins) where !isFound(origin) { hand[[t.mapA, t.mapB], default: 0] += 1 }
        return found.unmatched(hand: hand)
    }

    /// True for a tie read from the found ties file.
    func isFound(_ origin: TieOrigin) -> Bool {
        if case .file(let path, _, _) = origin, path == foundTiesFile { return true }
        return false
    }

    /// The score (normalised cross-correlation, 0–1) of each found tie the fit holds, by its index
    /// in ``PipelineSpec/ties``; empty without `ties: auto`. For the tie editor, which shows found
    /// ties beside hand ties.
    public func foundTieScores() throws -> [Int: Double] {
        guard let file = foundTiesFile else { return [:] }
        let byLine = Dictionary(
            try CSVTable(path: file, kind: TieList.kind).rows.map { ($0.line, Double($0.values["score"] ?? "") ?? .nan) },
            uniquingKeysWith: { a, _ in a })
        var scores: [Int: Double] = [:]
        for (i, origin) in tieOrigins.enumerated() {
            if case .file(let path, let line, _) = origin, path == file { scores[i] = byLine[line] ?? .nan }
        }
        return scores
    }
}
