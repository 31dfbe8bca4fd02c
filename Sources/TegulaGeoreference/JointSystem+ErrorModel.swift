import Foundation
import TegulaGeometry
import TegulaSupport

extension JointSystem {
    /// The errors the draws of ``draws(_:model:count:seed:jobs:)`` give the group's GCPs and
    /// ties, sized from their misfits at the joint optimum. Found ties err together: over sea or
    /// blank paper a pair's ties share a shift, and an error that grows along their strip (a small
    /// turn or stretch of one sheet against the other), which independent errors would shrink by
    /// the square root of the pair's tie count. So a tie's misfit is modelled as its own error plus
    /// its pair's shared one, `c + g·s`, with `s` the tie's place along the pair's strip.
    struct ErrorModel: Sendable {
        /// Standard deviation of one coordinate of a GCP's ground error, fitting-frame units.
        var gcp: Double
        /// Standard deviation of one coordinate of a tie's own misfit (its two ends' difference).
        var tie: Double
        /// Standard deviation of one coordinate of the shift `c` a pair's ties share.
        var shift: Double
        /// Standard deviation of one coordinate of the slope `g` (per fitting-frame unit along the
        /// strip) a pair's ties share.
        var slope: Double
        /// The pairs of sheets joined by ties, in order of their first tie.
        var pairs: [Pair]

        /// The ties joining two sheets: each tie's index, its sign (+1 when its first end is on the
        /// pair's first sheet) and its place along the strip (the tie points' longest axis, from
        /// their centre, fitting-frame units).
        struct Pair: Sendable {
            var ties: [(index: Int, sign: Double, along: Double)]
            /// How many times the group's typical size this pair's errors are (own and shared
            /// alike): the square root of its own misfits' variance (what is left after its
            /// shift and slope) over the group's, shrunk toward 1 as if the group's added
            /// ``JointSystem/pairPriorFreedom`` degrees of freedom. Ties over flat sea scatter
            /// more and err together more: on the bench's 1,024 sheets the tenth of the pairs whose
            /// ties scatter most share three times the error of the quarter that scatter least.
            var scale = 1.0
            /// True when the pair's ties fix a slope: two or more, spread along the strip.
            var hasSlope: Bool { ties.count >= 2 && ties.contains { $0.along != 0 } }
            /// Degrees of freedom of its own misfits: 2 per tie less 2 for the shift and 2 for the slope.
            var ownFree: Int { 2 * (ties.count - (hasSlope ? 2 : 1)) }
        }
    }

    /// The error model from the misfits at θ. GCPs: their sum of squares over 2 per GCP less the
    /// parameters of the sheets with GCPs. Ties: each pair's misfits (first sheet's place of a
    /// tie point less the second's) are split, least squares, into a shift, a slope along the
    /// strip, and what is left; the three sums of squares (``misfitSums(_:pairs:)``) are what
    /// the three errors put there once the joint fit has taken up its part, which depends on
    /// the group's shape and transforms. So that part is measured, not guessed: ``calibration``
    /// draws each error alone at unit size through the same fit and sums its misfits the same
    /// way, and the three sizes are those whose sums match the group's (least squares, none
    /// below 0). Each pair's errors are its ``ErrorModel/Pair/scale`` times those sizes, in the
    /// calibration as in the draws. Where no pair has a degree of freedom left, the ties' own error is that of all
    /// their misfits over 2 per tie less the parameters of the sheets without GCPs, and nothing
    /// is shared. Nil when the GCPs or the ties have no degree of freedom left, and so measure no
    /// error of their own, or a draw does not converge.
    func errorModel(_ theta: [Double], normal: Normal, jobs: Int) throws -> ErrorModel? {
        func at(_ s: Int, _ p: PixelPoint) -> GroundPoint { sheets[s].apply(theta[offsets[s]..<offsets[s + 1]], at: p) }
        var gcpSum = 0.0, gcpFree = 0, placedParameters = 0
        for (s, sheet) in sheets.enumerated() {
            guard !sheet.pixels.isEmpty else {
                placedParameters += sheet.parameterCount
                continue
            }
            gcpFree += 2 * sheet.pixels.count - sheet.parameterCount
            for (p, g) in zip(sheet.pixels, sheet.grounds) {
                let t = at(s, p)
                gcpSum += (t.x - g.x) * (t.x - g.x) + (t.y - g.y) * (t.y - g.y)
            }
        }
        let tieFree = 2 * ties.count - placedParameters
        guard gcpFree > 0, tieFree > 0 else { return nil }
        let gcp = (gcpSum / Double(gcpFree)).squareRoot()
        let misfits = ties.map { (a, pa, b, pb) in
            let ta = at(a, pa), tb = at(b, pb)
            return GroundPoint(x: ta.x - tb.x, y: ta.y - tb.y)
        }
        var pairs = tiePairs(at: at)
        let ownFree = pairs.reduce(0) { $0 + $1.ownFree }
        guard ownFree > 0 else {
            let total = misfits.reduce(0) { $0 + $1.x * $1.x + $1.y * $1.y }
            return ErrorModel(gcp: gcp, tie: (total / Double(tieFree)).squareRoot(), shift: 0, slope: 0, pairs: pairs)
        }
        let own = pairs.map { pairSums($0, misfits)[0] }, typical = own.reduce(0, +) / Double(ownFree)
        if typical > 0 {
            let prior = Double(Self.pairPriorFreedom)
            for i in pairs.indices { pairs[i].scale = ((own[i] / typical + prior) / (Double(pairs[i].ownFree) + prior)).squareRoot() }
        }
        let unit = ErrorModel(gcp: 0, tie: 1, shift: 1, slope: 1, pairs: pairs)
        guard let columns = try calibration(normal, unit: unit, jobs: jobs) else { return nil }
        let sizes = Self.nonNegativeFit(columns, misfitSums(misfits, pairs: pairs))
        return ErrorModel(gcp: gcp, tie: sizes[0].squareRoot(), shift: sizes[1].squareRoot(), slope: sizes[2].squareRoot(), pairs: pairs)
    }

    /// The degrees of freedom the group's typical variance counts for in each pair's own
    /// (``ErrorModel/Pair/scale``): a pair of 9 ties has 14 of its own.
    static let pairPriorFreedom = 8

    /// How many draws of each error alone measure what the fit leaves of it: enough that the
    /// draws hold about 200 pairs' sums each (a sum over that many pairs is within a few per cent
    /// of its expectation), at most 8. A 4 × 4 series (24 pairs) takes 8, one of 1,024 sheets 1.
    static func calibrationDraws(pairs: Int) -> Int { min(8, max(1, (200 + pairs - 1) / max(pairs, 1))) }

    /// For each of the three tie errors (own, shared shift, shared slope) alone at unit size,
    /// the mean over ``calibrationDraws(pairs:)`` draws of the three sums of squares of the misfits the
    /// joint fit leaves: column j of the matrix that takes the three errors' variances to the
    /// sums they are expected to give. Seeds from SplitMix64 at 44 (the draws' own use 43);
    /// solved as the draws are (``draws(_:model:count:seed:jobs:)``).
    func calibration(_ normal: Normal, unit: ErrorModel, jobs: Int) throws -> [[Double]]? {
        let draws = Self.calibrationDraws(pairs: unit.pairs.count), count = 3 * draws
        var master = SplitMix64(seed: 44)
        let seeds = (0..<count).map { _ in master.next() }
        let out = Locked([[Double]?](repeating: nil, count: count))
        try ParallelWork.run(jobs: jobs, count: count, makeState: { _ in () }) { _, k in
            var one = unit
            (one.tie, one.shift, one.slope) = (k % 3 == 0 ? 1 : 0, k % 3 == 1 ? 1 : 0, k % 3 == 2 ? 1 : 0)
            var random = SplitMix64(seed: seeds[k])
            let errors = tieErrors(one, random: &random)
            var b = [Double](repeating: 0, count: unknowns)
            addTieErrors(errors, normal: normal, to: &b)
            guard let delta = normal.solve(b, from: [Double](repeating: 0, count: unknowns), tolerance: 1e-8)?.theta else { return }
            let left = zip(tieMoves(delta, normal: normal), errors).map { GroundPoint(x: $0.x - $1.0, y: $0.y - $1.1) }
            let sums = misfitSums(left, pairs: unit.pairs)
            out.withLock { $0[k] = sums }
        }
        let all = out.current
        guard !all.contains(where: { $0 == nil }) else { return nil }
        return (0..<3).map { j in
            (0..<3).map { i in stride(from: j, to: count, by: 3).reduce(0) { $0 + all[$1]![i] } / Double(draws) }
        }
    }

    /// The variances x ≥ 0 whose sums Σ_j x_j·columns[j] come nearest `sums` (least squares over
    /// every set of them left free, the best that has none below 0).
    static func nonNegativeFit(_ columns: [[Double]], _ sums: [Double]) -> [Double] {
        var best = [Double](repeating: 0, count: columns.count), bestMiss = sums.reduce(0) { $0 + $1 * $1 }
        for mask in 1..<(1 << columns.count) {
            let free = columns.indices.filter { mask & (1 << $0) != 0 }
            // The free columns scaled to unit length (their units differ by far), least squares.
            let norms = free.map { j in columns[j].reduce(0) { $0 + $1 * $1 }.squareRoot() }
            guard norms.allSatisfy({ $0 > 0 }) else { continue }
            let a = sums.indices.flatMap { i in free.indices.map { columns[free[$0]][i] / norms[$0] } }
            guard let scaled = LinearAlgebra.leastSquares(a, rows: sums.count, cols: free.count, rhs: [sums])?.first else { continue }
            let x = zip(scaled, norms).map { $0 / $1 }
            guard x.allSatisfy({ $0 >= 0 }) else { continue }
            var full = [Double](repeating: 0, count: columns.count)
            for (i, f) in free.enumerated() { full[f] = x[i] }
            let miss = sums.indices.reduce(0) { r, i in r + pow(sums[i] - columns.indices.reduce(0) { $0 + full[$1] * columns[$1][i] }, 2) }
            if miss < bestMiss { (best, bestMiss) = (full, miss) }
        }
        return best
    }

    /// Each tie's error, one coordinate pair, drawn from `model`: pair by pair (in order), its
    /// shared shift and slope, then each of its ties' own error, all times the pair's scale.
    func tieErrors(_ model: ErrorModel, random: inout SplitMix64) -> [(Double, Double)] {
        var errors = [(Double, Double)](repeating: (0, 0), count: ties.count)
        for pair in model.pairs {
            let (cx, cy) = random.normalPair(), (gx, gy) = random.normalPair(), f = pair.scale
            for t in pair.ties {
                let (ex, ey) = random.normalPair()
                errors[t.index] = (
                    f * (t.sign * (model.shift * cx + model.slope * gx * t.along) + model.tie * ex),
                    f * (t.sign * (model.shift * cy + model.slope * gy * t.along) + model.tie * ey)
                )
            }
        }
        return errors
    }

    /// Adds the ties' errors to a draw's right-hand side AᵀW·ε.
    func addTieErrors(_ errors: [(Double, Double)], normal: Normal, to b: inout [Double]) {
        for (k, (a, _, bb, _)) in ties.enumerated() {
            let ((ax, ay), (bx, by)) = normal.tieRows[k], h = weights[k] / 2
            let dx = h * errors[k].0, dy = h * errors[k].1
            for i in 0..<ax.count { b[offsets[a] + i] += ax[i] * dx + ay[i] * dy }
            for i in 0..<bx.count { b[offsets[bb] + i] -= bx[i] * dx + by[i] * dy }
        }
    }

    /// How much each tie's misfit moves when θ moves by `delta`.
    func tieMoves(_ delta: [Double], normal: Normal) -> [GroundPoint] {
        ties.enumerated().map { k, t in
            let ((ax, ay), (bx, by)) = normal.tieRows[k], oa = offsets[t.0], ob = offsets[t.2]
            var x = 0.0, y = 0.0
            for i in 0..<ax.count { (x, y) = (x + ax[i] * delta[oa + i], y + ay[i] * delta[oa + i]) }
            for i in 0..<bx.count { (x, y) = (x - bx[i] * delta[ob + i], y - by[i] * delta[ob + i]) }
            return GroundPoint(x: x, y: y)
        }
    }

    /// The three sums of squares of the ties' misfits, over the pairs (``pairSums(_:_:)``).
    func misfitSums(_ misfits: [GroundPoint], pairs: [ErrorModel.Pair]) -> [Double] {
        pairs.reduce(into: [0.0, 0, 0]) { sums, pair in
            for (i, v) in pairSums(pair, misfits).enumerated() { sums[i] += v }
        }
    }

    /// One pair's three sums of squares: of what is left of its misfits after the shift and the
    /// slope along the strip fitted to them (least squares), of the shift (n·|c|²) and of the
    /// slope (|g|²·Σs²).
    func pairSums(_ pair: ErrorModel.Pair, _ misfits: [GroundPoint]) -> [Double] {
        let m = pair.ties.map { GroundPoint(x: $0.sign * misfits[$0.index].x, y: $0.sign * misfits[$0.index].y) }
        let n = Double(m.count)
        let c = GroundPoint(x: m.map(\.x).reduce(0, +) / n, y: m.map(\.y).reduce(0, +) / n)
        let s2 = pair.ties.reduce(0) { $0 + $1.along * $1.along }
        var g = GroundPoint(x: 0, y: 0)
        if pair.hasSlope {
            g = GroundPoint(
                x: zip(pair.ties, m).reduce(0) { $0 + $1.0.along * ($1.1.x - c.x) } / s2,
                y: zip(pair.ties, m).reduce(0) { $0 + $1.0.along * ($1.1.y - c.y) } / s2)
        }
        var own = 0.0
        for (t, e) in zip(pair.ties, m) {
            let rx = e.x - c.x - g.x * t.along, ry = e.y - c.y - g.y * t.along
            own += rx * rx + ry * ry
        }
        return [own, n * (c.x * c.x + c.y * c.y), s2 * (g.x * g.x + g.y * g.y)]
    }

    /// The group's pairs of sheets at θ (`at`), in order of their first tie.
    func tiePairs(at: (Int, PixelPoint) -> GroundPoint) -> [ErrorModel.Pair] {
        var order: [Int: Int] = [:], members: [[Int]] = []
        for (k, t) in ties.enumerated() {
            let key = min(t.0, t.2) * sheets.count + max(t.0, t.2)
            if let i = order[key] {
                members[i].append(k)
            } else {
                order[key] = members.count
                members.append([k])
            }
        }
        return members.map { k in
            let first = k.map { ties[$0].0 }.min()!
            let along = Self.along(k.map { at(ties[$0].0, ties[$0].1) })
            return ErrorModel.Pair(ties: k.indices.map { (k[$0], ties[k[$0]].0 == first ? 1.0 : -1.0, along[$0]) })
        }
    }

    /// Each point's place along the points' longest axis (the principal axis of their spread),
    /// from their centre.
    static func along(_ points: [GroundPoint]) -> [Double] {
        let x = points.map(\.x), y = points.map(\.y)
        return PointScatter(x: x, y: y).alongMajor(x: x, y: y)
    }
}
