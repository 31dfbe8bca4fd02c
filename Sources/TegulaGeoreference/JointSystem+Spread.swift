import Foundation
import TegulaGeometry
import TegulaSupport

/// How far the joint fit's θ would move were the group's GCPs and ties measured again: the spread
/// behind each sheet's `place_se_m`, by drawing (Monte Carlo) through the same least squares.
extension JointSystem {
    /// `count` draws of how θ moves when every GCP's ground point and every tie's misfit take
    /// fresh normal errors of `model`'s sizes (a tie's own, and its pair's shared shift and
    /// slope): each draw δθ = N⁻¹·AᵀW·ε, solved by ``Normal/solve(_:from:tolerance:)`` from zero
    /// to a residual a ten-thousandth of the draw's (a figure of two digits needs no more: on the
    /// bench's 1,024 sheets no sheet's figure moved by 0.8 % from a millionth's, and the draws
    /// took 5 % less time), on `jobs` threads. Draw k comes from SplitMix64 at the k-th value of SplitMix64 at `seed`, so the
    /// same system gives the same draws on every run and any number of threads. Nil when a solve
    /// does not converge.
    func draws(_ normal: Normal, model: ErrorModel, count: Int, seed: UInt64, jobs: Int) throws -> [[Double]]? {
        var master = SplitMix64(seed: seed)
        let seeds = (0..<count).map { _ in master.next() }
        let out = Locked([[Double]?](repeating: nil, count: count))
        try ParallelWork.run(jobs: jobs, count: count, makeState: { _ in () }) { _, k in
            let delta = draw(normal, model: model, seed: seeds[k])
            out.withLock { $0[k] = delta }
        }
        let all = out.current
        return all.contains { $0 == nil } ? nil : all.map { $0! }
    }

    /// One draw of ``draws(_:model:count:seed:jobs:)``: the GCPs' errors, then the ties'
    /// (``tieErrors(_:random:)``), from one generator.
    func draw(_ normal: Normal, model: ErrorModel, seed: UInt64) -> [Double]? {
        var random = SplitMix64(seed: seed)
        var b = [Double](repeating: 0, count: unknowns)
        for (s, sheet) in sheets.enumerated() {
            for p in sheet.pixels {
                let (rx, ry) = sheet.rows(p), (ex, ey) = random.normalPair()
                for i in 0..<rx.count { b[offsets[s] + i] += model.gcp * (rx[i] * ex + ry[i] * ey) }
            }
        }
        addTieErrors(tieErrors(model, random: &random), normal: normal, to: &b)
        return normal.solve(b, from: [Double](repeating: 0, count: unknowns), tolerance: 1e-8)?.theta
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
