import Foundation
import TegulaGeometry
import TegulaSupport

/// How far the joint fit's θ would move were the group's GCPs and ties measured again: the spread
/// behind each sheet's `place_se_m`, by drawing (Monte Carlo) through the same least squares.
extension JointSystem {
    /// The standard deviation of one coordinate of a GCP's error and of a tie's misfit (the two
    /// ends' difference), in the fitting frame, from their misfits at θ: each sum of squares over
    /// its degrees of freedom, 2 per GCP less the parameters of the sheets with GCPs, 2 per tie
    /// less those of the sheets without (placed by their ties alone). Nil when either has none
    /// left: GCPs no more than their sheets' transforms need, or ties no more than place the
    /// sheets without GCPs, measure no error of their own.
    func errorScales(_ theta: [Double]) -> (gcp: Double, tie: Double)? {
        func at(_ s: Int, _ p: PixelPoint) -> GroundPoint { sheets[s].apply(theta[offsets[s]..<offsets[s + 1]], at: p) }
        var gcpSum = 0.0, gcpFree = 0, tieSum = 0.0, tieFree = 2 * ties.count
        for (s, sheet) in sheets.enumerated() {
            guard !sheet.pixels.isEmpty else { tieFree -= sheet.parameterCount; continue }
            gcpFree += 2 * sheet.pixels.count - sheet.parameterCount
            for (p, g) in zip(sheet.pixels, sheet.grounds) {
                let t = at(s, p)
                gcpSum += (t.x - g.x) * (t.x - g.x) + (t.y - g.y) * (t.y - g.y)
            }
        }
        for (a, pa, b, pb) in ties {
            let ta = at(a, pa), tb = at(b, pb)
            tieSum += (ta.x - tb.x) * (ta.x - tb.x) + (ta.y - tb.y) * (ta.y - tb.y)
        }
        guard gcpFree > 0, tieFree > 0 else { return nil }
        return ((gcpSum / Double(gcpFree)).squareRoot(), (tieSum / Double(tieFree)).squareRoot())
    }

    /// `count` draws of how θ moves when every GCP's ground point takes a fresh normal error of
    /// `scales.gcp` per coordinate and every tie's ends a difference of `scales.tie`: each draw
    /// δθ = N⁻¹·AᵀW·ε, solved by ``Normal/solve(_:from:tolerance:)`` from zero to a residual a
    /// millionth of the draw's (a figure of two digits needs no more), on `jobs` threads. Draw k
    /// comes from SplitMix64 at the k-th value of SplitMix64 at `seed`, so the same system gives
    /// the same draws on every run and any number of threads. Nil when a solve does not converge.
    func draws(_ normal: Normal, scales: (gcp: Double, tie: Double), count: Int, seed: UInt64, jobs: Int) throws -> [[Double]]? {
        var master = SplitMix64(seed: seed)
        let seeds = (0..<count).map { _ in master.next() }
        let out = Locked([[Double]?](repeating: nil, count: count))
        try ParallelWork.run(jobs: jobs, count: count, makeState: { _ in () }) { _, k in
            let delta = draw(normal, scales: scales, seed: seeds[k])
            out.withLock { $0[k] = delta }
        }
        let all = out.current
        return all.contains { $0 == nil } ? nil : all.map { $0! }
    }

    /// One draw of ``draws(_:scales:count:seed:jobs:)``.
    func draw(_ normal: Normal, scales: (gcp: Double, tie: Double), seed: UInt64) -> [Double]? {
        var random = SplitMix64(seed: seed)
        var b = [Double](repeating: 0, count: unknowns)
        for (s, sheet) in sheets.enumerated() {
            for p in sheet.pixels {
                let (rx, ry) = sheet.rows(p), (ex, ey) = random.normalPair()
                for i in 0..<rx.count { b[offsets[s] + i] += scales.gcp * (rx[i] * ex + ry[i] * ey) }
            }
        }
        for (k, (a, _, bb, _)) in ties.enumerated() {
            let ((ax, ay), (bx, by)) = normal.tieRows[k], h = weights[k] / 2, (ex, ey) = random.normalPair()
            let dx = h * scales.tie * ex, dy = h * scales.tie * ey
            for i in 0..<ax.count { b[offsets[a] + i] += ax[i] * dx + ay[i] * dy }
            for i in 0..<bx.count { b[offsets[bb] + i] -= bx[i] * dx + by[i] * dy }
        }
        return normal.solve(b, from: [Double](repeating: 0, count: unknowns), tolerance: 1e-12)?.theta
    }
}

extension JointSystem {
    /// Per sheet, the RMS over `draws` of the distance its corners move (θ against θ + δθ), at
    /// its worst corner: the standard error of its place. Distances by `metres` (two lists of
    /// points of the group's centred fitting frame, one conversion for all).
    func cornerSpread(_ theta: [Double], draws: [[Double]], metres: ([GroundPoint], [GroundPoint]) throws -> [Double]) throws -> [Double] {
        var here: [GroundPoint] = [], moved: [GroundPoint] = []
        for (s, sheet) in sheets.enumerated() {
            let range = offsets[s]..<offsets[s + 1]
            let corners = [(0.0, 0.0), (sheet.width, 0), (sheet.width, sheet.height), (0, sheet.height)].map { PixelPoint(x: $0.0, y: $0.1) }
            for delta in draws {
                let shifted = range.map { theta[$0] + delta[$0] }
                for c in corners {
                    here.append(sheet.apply(theta[range], at: c))
                    moved.append(sheet.apply(shifted[...], at: c))
                }
            }
        }
        let d = try metres(here, moved), k = draws.count
        return sheets.indices.map { s in
            (0..<4).map { c in ((0..<k).reduce(0) { $0 + pow(d[(s * k + $1) * 4 + c], 2) } / Double(max(k, 1))).squareRoot() }.max()!
        }
    }
}
