import Foundation
import TegulaGeometry
import TegulaGeoreference
import TegulaMatch

extension AutoTies {
    /// The joint fit's check on the found ties: the series fitted as the run will fit it (every
    /// tied sheet's GCPs, the hand ties and the found ties, ``SeriesFit``), and the found tie the
    /// fit holds least, in each pair where one is left over ``limit`` from its twin, refused (the
    /// whole pair when it has no more than ``least`` ties); then fitted again, up to ``rounds``
    /// times. A found tie a fraction of a pixel off along a coast or
    /// over a smooth ramp of sea agrees with its pair's other ties (their errors run together, and
    /// the pair's own checks keep it), but not with the loops of sheets around it, which the fit
    /// holds to the ties that agree: its seam after the fit is its error, and it would be the
    /// series' worst seam.
    struct Consensus {
        /// Each sheet the fit may take, by name.
        let sheets: [String: SeriesSheet]
        /// The hand ties, fitted with the found ones and never refused.
        let hand: [TieSpec]
        let tieWeight: Double

        /// The largest seam after the fit, pixels of the tie's first sheet, a found tie may keep.
        static let limit = 0.4
        /// Fits at most, each refusing at most one tie a pair.
        static let rounds = 6
        /// Ties a pair needs to lose one (the finder's least): with fewer, the pair is refused.
        static let least = 3

        /// The consensus over the pipeline's maps that a tie may join (GCP-fitted or `gcps: none`)
        /// and its hand ties.
        init(_ pipeline: Pipeline) {
            var sheets: [String: SeriesSheet] = [:]
            for map in pipeline.spec.maps { sheets[map.name] = try? pipeline.seriesSheet(map) }
            (self.sheets, hand, tieWeight) = (sheets, pipeline.spec.ties, pipeline.spec.tieWeight ?? SeriesFit.defaultTieWeight)
        }

        /// Each found tie's seam after the joint fit of the hand ties and `found` (pairs of sheets
        /// and their ties), pixels of its first sheet, in `found`'s order; nil when the series
        /// cannot be fitted so (a group without GCPs: the run says why).
        func seams(_ found: [(a: String, b: String, ties: [ProposedPoint])]) -> [[Double]]? {
            var names: [String] = []
            var index: [String: Int] = [:]
            func local(_ name: String) -> Int? {
                if let i = index[name] { return i }
                guard sheets[name] != nil else { return nil }
                index[name] = names.count
                names.append(name)
                return names.count - 1
            }
            var ties: [Tie] = []
            for t in hand {
                guard let a = local(t.mapA), let b = local(t.mapB) else { return nil }
                ties.append(Tie(sheetA: a, pixelA: t.pixelA, sheetB: b, pixelB: t.pixelB))
            }
            for pair in found {
                guard let a = local(pair.a), let b = local(pair.b) else { return nil }
                ties += pair.ties.map { Tie(sheetA: a, pixelA: $0.scan, sheetB: b, pixelB: $0.reference) }
            }
            guard let fit = try? SeriesFit.fit(sheets: names.map { sheets[$0]! }, ties: ties, tieWeight: tieWeight, draws: 0) else { return nil }
            return found.map { pair in
                guard let fa = fit.sheets[index[pair.a]!]?.after, let fb = fit.sheets[index[pair.b]!]?.after else {
                    return pair.ties.map { _ in 0 }
                }
                return Self.seams(pair.ties, fa, fb)
            }
        }

        /// How far sheet b's fit carries each tie's point of b from its point of a, on a's scan
        /// (infinite where it cannot be carried); the pair's ties in one call each way.
        static func seams(_ ties: [ProposedPoint], _ a: Georeference, _ b: Georeference) -> [Double] {
            guard let ground = try? b.pixelsToGround(ties.map(\.reference), crs: .wgs84), let back = try? a.groundToPixels(ground, crs: .wgs84)
            else {
                return ties.map { _ in .infinity }
            }
            return zip(ties, back).map { t, p in p.map { hypot($0.x - t.scan.x, $0.y - t.scan.y) } ?? .infinity }
        }
    }
}

extension AutoTies.Finding {
    /// The found ties the joint fit does not hold refused (``AutoTies/Consensus``), each pair's
    /// count and scores updated.
    mutating func refuseWhatTheFitDoesNotHold(_ consensus: AutoTies.Consensus) {
        var refusals: [Int: Int] = [:]
        defer {
            for (i, n) in refusals {
                pairs[i].why = String(format: "the joint fit held %d of its ties over %.1f px from their twins: refused", n, AutoTies.Consensus.limit)
            }
        }
        for _ in 0..<AutoTies.Consensus.rounds {
            let matched = pairs.indices.filter { pairs[$0].matched }
            guard let seams = consensus.seams(matched.map { (pairs[$0].mapA, pairs[$0].mapB, points[$0]) }) else { return }
            var refused = false
            for (k, i) in matched.enumerated() {
                guard let worst = seams[k].indices.max(by: { seams[k][$0] < seams[k][$1] }), seams[k][worst] > AutoTies.Consensus.limit else {
                    continue
                }
                refused = true
                guard points[i].count > AutoTies.Consensus.least else {
                    let why = String(
                        format: "the joint fit holds one of its %d ties %.2f px from its twin, at most %.1f allowed, and it has none to spare",
                        points[i].count, seams[k][worst], AutoTies.Consensus.limit)
                    pairs[i] = AutoTies.Pair(mapA: pairs[i].mapA, mapB: pairs[i].mapB, matched: false, ties: 0, why: why, seconds: pairs[i].seconds)
                    points[i] = []
                    refusals[i] = nil
                    continue
                }
                points[i].remove(at: worst)
                keep(points[i], &pairs[i])
                refusals[i, default: 0] += 1
            }
            if !refused { return }
        }
    }
}
