import Foundation
import TegulaGeometry

extension AutoTies {
    /// Whether a sheet without GCPs that is tied by one matched pair alone (along one edge) is
    /// placed surely enough to keep. Such a sheet's turn rests on one strip of ties: a few tenths
    /// of a pixel over the strip turn it, its far edge moves by that times its length over the
    /// strip's, and a sheet tied at that edge carries it on. So each tie is left out in turn and
    /// the similarity through the others (``Similarity``, as the loops take a pair) compared with
    /// the one through them all at the corners of the sheet's mask: when one moves a corner by
    /// more than ``limit``, the pair is refused and the sheet listed as unplaced, named on stderr
    /// with its pair and the move. A sheet whose whole edge is tied, its ties near the truth,
    /// moves a tenth of a pixel or two; on the 1,024-sheet one-in-nine series the estimate
    /// (BENCHMARKS-archive.md) refused 16 of the 22 one-pair sheets placed over 2 px off.
    enum OnePair {
        /// The most, in pixels of the sheet's neighbour, that leaving one tie out may move a
        /// corner of a sheet tied by one pair.
        static let limit = 0.5

        /// The most that leaving one of `ties` (a point of the sheet, its twin on the neighbour)
        /// out moves any of `corners` on the neighbour; infinity when the others fix no similarity.
        static func move(_ ties: [(from: PixelPoint, to: PixelPoint)], corners: [PixelPoint]) -> Double {
            guard let all = Similarity(through: ties) else { return .infinity }
            var worst = 0.0
            for i in ties.indices {
                guard let some = Similarity(through: ties.indices.filter { $0 != i }.map { ties[$0] }) else { return .infinity }
                for c in corners {
                    let (p, q) = (all.apply(c), some.apply(c))
                    worst = max(worst, hypot(p.x - q.x, p.y - q.y))
                }
            }
            return worst
        }
    }
}

extension AutoTies.Finding {
    /// Of the sheets in `masks` (those without GCPs that matching placed and that are still
    /// tied, by name, with their masks), the ones tied by one matched pair whose far edge a tie
    /// left out moves by over ``AutoTies/OnePair/limit``: that pair refused (no ties, why on
    /// stderr) and the sheet returned unplaced with why. Repeated while it refuses a pair, since
    /// a refused pair may leave another sheet tied by one pair; a sheet of `masks` that a refusal
    /// leaves in no pair is returned as well.
    mutating func refuseOnePairSheetsNotFixed(_ masks: [String: [PixelPoint]]) -> [AutoTies.Unplaced] {
        var out: [AutoTies.Unplaced] = []
        var refused = true
        while refused {
            refused = false
            for name in masks.keys.sorted(by: { order[$0, default: 0] < order[$1, default: 0] }) where !out.contains(where: { $0.map == name }) {
                let mine = pairs.indices.filter { pairs[$0].matched && (pairs[$0].mapA == name || pairs[$0].mapB == name) }
                guard mine.count == 1, let i = mine.first else { continue }
                let first = pairs[i].mapA == name
                let other = first ? pairs[i].mapB : pairs[i].mapA
                let ties = points[i].map { first ? (from: $0.scan, to: $0.reference) : (from: $0.reference, to: $0.scan) }
                let move = AutoTies.OnePair.move(ties, corners: masks[name] ?? [])
                guard move > AutoTies.OnePair.limit else { continue }
                // Rounded up: a move just over the limit must not read as the limit itself.
                let by = move.isFinite ? String(format: "by %.2f px", (move * 100).rounded(.up) / 100) : "beyond what the others fix"
                let why =
                    "leaving one of its \(ties.count) ties with '\(other)' out moves its far edge \(by), at most \(AutoTies.OnePair.limit) px allowed"
                pairs[i] = AutoTies.Pair(
                    mapA: pairs[i].mapA, mapB: pairs[i].mapB, matched: false, ties: 0, why: "'\(name)' is tied by this pair alone, and \(why)",
                    seconds: pairs[i].seconds)
                points[i] = []
                out.append(AutoTies.Unplaced(map: name, why: "is tied along one edge only, by one pair, and \(why)"))
                if masks[other] != nil, untied([other]) == [other] {
                    out.append(AutoTies.Unplaced(map: other, why: "lost its only pair, with '\(name)', to \(name)'s one-pair check"))
                }
                refused = true
            }
        }
        return out
    }
}
