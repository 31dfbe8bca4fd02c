import Foundation
import TegulaGeometry

extension AutoTies {
    /// Whether a matched pair's ties fix the pair on their own, not on one of them: each tie left
    /// out in turn, the similarity through the others (``Similarity``) must place the second sheet
    /// over the whole overlap within ``limit`` of where the similarity through all of them does.
    ///
    /// Ties that hold together by the finder's drift (TegulaMatch's ``OverlapTieFinder``) can
    /// still rest on one tie: a drift with a gradient along a strip takes in a tie several pixels
    /// off at the strip's end, and ties bunched in a part of the overlap fix its far end only
    /// through the turn they imply. In the joint fit a tie weighs as 100 GCPs (`tie_weight`), so
    /// such a pair turns its sheets about the ties (on the 64-sheet bench series, one sheet 11.7 px
    /// from its true place: BENCHMARKS-archive.md, "`ties: auto` refusing pairs that rest on one tie").
    /// A refused pair gets no ties and is named on stderr as a pair that does not match.
    ///
    /// Not a check against the rest of the series: the ties of the neighbours predict a pair
    /// only as well as the sheets' GCPs (4 px off on the bench series), and a joint fit per pair
    /// would cost the whole fit a pair. A pair whose ties agree on one wrong place is the fits'
    /// agreement's to refuse (``Sheet/agreement(with:search:)``), as far as it can, and the
    /// loops of pairs through it (``Loops``).
    enum Influence {
        /// The most, in pixels of the second sheet, that one tie left out may move where the
        /// pair's ties place it anywhere over the overlap.
        static let limit = 1.0

        /// Why the ties cannot fix the pair, or nil when no tie moves it over ``limit`` (``largestMove(_:maskA:maskB:)``).
        static func refusal(_ ties: [(from: PixelPoint, to: PixelPoint)], maskA: [PixelPoint], maskB: [PixelPoint]) -> String? {
            let move = largestMove(ties, maskA: maskA, maskB: maskB)
            guard !(move <= limit) else { return nil }
            return String(
                format:
                    "leaving one of its %d ties out moves the sheets over their overlap by %.1f px, at most %.1f allowed: the ties cannot fix the pair",
                ties.count, move, limit)
        }

        /// The most that leaving one tie (a point of the first sheet, its twin on the second) out
        /// moves the similarity through the ties, over the overlap's corners
        /// (``overlapCorners(maskA:maskB:_:)``), pixels of the second sheet; infinity when the
        /// ties give no similarity (all at one point).
        static func largestMove(_ pairs: [(from: PixelPoint, to: PixelPoint)], maskA: [PixelPoint], maskB: [PixelPoint]) -> Double {
            guard let all = Similarity(through: pairs) else { return .infinity }
            let corners = overlapCorners(maskA: maskA, maskB: maskB, all)
            let region = corners.isEmpty ? pairs.map(\.from) : corners
            var worst = 0.0
            for i in pairs.indices {
                var others = pairs
                others.remove(at: i)
                guard let s = Similarity(through: others) else { return .infinity }
                for p in region {
                    let (q, r) = (all.apply(p), s.apply(p))
                    worst = max(worst, hypot(q.x - r.x, q.y - r.y))
                }
            }
            return worst
        }

        /// The corners of the overlap of the two masks, in the first sheet's pixels (the second's
        /// mask brought there by `s`'s inverse): each ring's vertices inside the other and the
        /// crossings of their edges. A move by a similarity is largest at one of them.
        static func overlapCorners(maskA: [PixelPoint], maskB: [PixelPoint], _ s: Similarity) -> [PixelPoint] {
            guard let back = s.inverse else { return [] }
            let ringB = maskB.map(back.apply)
            let vertices = { (ring: [PixelPoint]) in ring.map { (x: $0.x, y: $0.y) } }
            let (va, vb) = (vertices(maskA), vertices(ringB))
            var corners = maskA.filter { EvenOddRule.contains(vb, x: $0.x, y: $0.y) }
            corners += ringB.filter { EvenOddRule.contains(va, x: $0.x, y: $0.y) }
            for i in maskA.indices {
                for j in ringB.indices {
                    if let p = crossing(maskA[i], maskA[(i + 1) % maskA.count], ringB[j], ringB[(j + 1) % ringB.count]) { corners.append(p) }
                }
            }
            return corners
        }

        /// Where segments p1–p2 and q1–q2 cross, or nil (parallel, or apart).
        static func crossing(_ p1: PixelPoint, _ p2: PixelPoint, _ q1: PixelPoint, _ q2: PixelPoint) -> PixelPoint? {
            let (rx, ry, sx, sy) = (p2.x - p1.x, p2.y - p1.y, q2.x - q1.x, q2.y - q1.y)
            let d = rx * sy - ry * sx
            guard d != 0 else { return nil }
            let (wx, wy) = (q1.x - p1.x, q1.y - p1.y)
            let t = (wx * sy - wy * sx) / d, u = (wx * ry - wy * rx) / d
            guard (0...1).contains(t), (0...1).contains(u) else { return nil }
            return PixelPoint(x: p1.x + t * rx, y: p1.y + t * ry)
        }
    }
}
