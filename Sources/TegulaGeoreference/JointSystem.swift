import Foundation
import TegulaGeometry

/// The joint least-squares problem of one group of tied sheets, with the tie ground points
/// eliminated: minimise Σ_sheets Σ_GCPs |T_s(p) − g|² + Σ_ties (w_t/2)·|T_a(p_a) − T_b(p_b)|², which
/// is the problem with a free ground point G per tie weighing w on each side (the optimal G is the
/// midpoint, and w·|T_a − G|² + w·|T_b − G|² = (w/2)·|T_a − T_b|² there).
///
/// Every transform is linear in its parameters here (helmert; polynomial 1–3; projective, tps and
/// straight take polynomial1's parameters as their stand-in), so the problem is linear; its normal
/// equations are solved by conjugate gradients with a block-Jacobi preconditioner (each sheet's
/// own block inverted by ``LinearAlgebra/solveSquare(_:size:rhs:)``). A dense QR of the whole
/// system would need (6·1024)² numbers for 1,024 affine sheets; the sparse iteration needs only
/// each sheet's block.
struct JointSystem {
    /// One sheet: its parameterisation and its GCPs in the group's centred ground frame.
    struct Sheet {
        let kind: TransformKind
        let width: Double, height: Double
        let pixels: [PixelPoint]
        let grounds: [GroundPoint]

        /// Parameters of the linear stand-in: 4 (helmert), 2 × terms (polynomial; projective,
        /// tps and straight as polynomial1).
        var order: Int? {
            switch kind {
            case .helmert: return nil
            case .polynomial2: return 2
            case .polynomial3: return 3
            case .polynomial1, .projective, .tps, .straight: return 1
            }
        }

        /// Whether the sheet's transform is its least-squares fit in these parameters, so that
        /// its refit with pins at T(q) + w·Σ(G − T(q)) gives the joint solution back; the
        /// stand-ins (projective, tps, straight, whose scale Allmaps takes from a Helmert fit)
        /// are refitted to the mean of their ties' ground points instead.
        var isExact: Bool { ![TransformKind.projective, .tps, .straight].contains(kind) }

        var parameterCount: Int { order.map { 2 * PolynomialTransform.termCount($0) } ?? 4 }

        /// The two rows (X, then Y) of the design at pixel p: ground = rows · θ. Pixels centred
        /// on the image and scaled by half its longer side, so the numbers are near 1.
        func rows(_ p: PixelPoint) -> ([Double], [Double]) {
            let s = max(width, height) / 2
            let u = (p.x - width / 2) / s, v = (p.y - height / 2) / s
            guard let order else { return ([u, v, 1, 0], [-v, u, 0, 1]) }
            let t = PolynomialTransform.terms(u, v, order: order)
            let zero = [Double](repeating: 0, count: t.count)
            return (t + zero, zero + t)
        }

        func apply(_ theta: ArraySlice<Double>, at p: PixelPoint) -> GroundPoint {
            let (rx, ry) = rows(p)
            var x = 0.0, y = 0.0
            for (i, j) in theta.indices.enumerated() {
                x += rx[i] * theta[j]
                y += ry[i] * theta[j]
            }
            return GroundPoint(x: x, y: y)
        }
    }

    let sheets: [Sheet]
    /// (sheet a, pixel a, sheet b, pixel b), sheets indexing ``sheets``.
    let ties: [(Int, PixelPoint, Int, PixelPoint)]
    /// Each tie's weight: how many GCPs each of its two images weighs.
    let weights: [Double]
    /// Where each sheet's parameters start in θ.
    let offsets: [Int]
    var unknowns: Int { offsets.last! }

    init(sheets: [Sheet], ties: [(Int, PixelPoint, Int, PixelPoint)], weights: [Double]) {
        self.sheets = sheets
        self.ties = ties
        self.weights = weights
        var o = [0]
        for s in sheets { o.append(o.last! + s.parameterCount) }
        offsets = o
    }

    /// Sheet `s` fitted on its own GCPs alone (its GCP block of the normal equations); nil when
    /// they do not fix its transform (a sheet without GCPs).
    func alone(_ s: Int) -> [Double]? {
        let sheet = sheets[s], k = sheet.parameterCount
        var block = [Double](repeating: 0, count: k * k), rhs = [Double](repeating: 0, count: k)
        for (p, g) in zip(sheet.pixels, sheet.grounds) {
            let (rx, ry) = sheet.rows(p)
            for r in [rx, ry] { for i in 0..<k where r[i] != 0 { for j in 0..<k { block[i * k + j] += 1 * r[i] * r[j] } } }
            for i in 0..<k { rhs[i] += rx[i] * g.x + ry[i] * g.y }
        }
        return k > 0 && !sheet.pixels.isEmpty ? LinearAlgebra.solveSquare(block, size: k, rhs: [rhs])?[0] : nil
    }

    /// θ, or nil when the iteration does not converge (the group does not determine it). It
    /// starts from `start` for the sheets given there (those placed by their ties) and from
    /// each other sheet fitted alone (``alone(_:)``). `normal` is this system's (``Normal``).
    func solve(_ normal: Normal, start: [Int: [Double]] = [:]) -> (theta: [Double], iterations: Int)? {
        var b = [Double](repeating: 0, count: unknowns)
        for (s, sheet) in sheets.enumerated() {
            for (p, g) in zip(sheet.pixels, sheet.grounds) {
                let (rx, ry) = sheet.rows(p)
                for i in 0..<rx.count { b[offsets[s] + i] += rx[i] * g.x + ry[i] * g.y }
            }
        }
        // Start from each sheet fitted alone (its GCP block only): the ties then only correct it.
        var x = [Double](repeating: 0, count: unknowns)
        for (s, sheet) in sheets.enumerated() {
            guard let first = start[s] ?? alone(s) else { return nil }
            for i in 0..<sheet.parameterCount { x[offsets[s] + i] = first[i] }
        }
        return normal.solve(b, from: x)
    }

    /// The normal matrix AᵀWA of the system as an operator, with its block-Jacobi preconditioner
    /// (each sheet's diagonal block inverted), for conjugate gradients.
    struct Normal {
        let system: JointSystem
        /// Each sheet's GCP block, and the inverse of its whole diagonal block (column c at
        /// [c·k ..< (c+1)·k]).
        let gcpBlocks: [[Double]], inverses: [[Double]]
        /// Each tie's design rows at its two pixels: the iteration multiplies by them every step.
        let tieRows: [(([Double], [Double]), ([Double], [Double]))]

        /// Nil when a sheet's diagonal block is singular (its GCPs and ties do not fix it).
        init?(_ system: JointSystem) {
            self.system = system
            let sheets = system.sheets
            var blocks: [[Double]] = sheets.map { [Double](repeating: 0, count: $0.parameterCount * $0.parameterCount) }
            func addOuter(_ s: Int, _ r: [Double], _ scale: Double) {
                let k = r.count
                for i in 0..<k where r[i] != 0 { for j in 0..<k { blocks[s][i * k + j] += scale * r[i] * r[j] } }
            }
            for (s, sheet) in sheets.enumerated() {
                for p in sheet.pixels {
                    let (rx, ry) = sheet.rows(p)
                    addOuter(s, rx, 1)
                    addOuter(s, ry, 1)
                }
            }
            gcpBlocks = blocks
            tieRows = system.ties.map { (a, pa, bb, pb) in (sheets[a].rows(pa), sheets[bb].rows(pb)) }
            for (k, (a, _, bb, _)) in system.ties.enumerated() {
                let ((ax, ay), (bx, by)) = tieRows[k], weight = system.weights[k]
                addOuter(a, ax, weight / 2); addOuter(a, ay, weight / 2)
                addOuter(bb, bx, weight / 2); addOuter(bb, by, weight / 2)
            }
            var inverses: [[Double]] = []
            for (s, sheet) in sheets.enumerated() {
                let k = sheet.parameterCount
                let identity = (0..<k).map { c in (0..<k).map { $0 == c ? 1.0 : 0.0 } }
                guard let inv = LinearAlgebra.solveSquare(blocks[s], size: k, rhs: identity) else { return nil }
                inverses.append(inv.flatMap { $0 })
            }
            self.inverses = inverses
        }

        func multiply(_ x: [Double]) -> [Double] {
            let offsets = system.offsets
            var y = [Double](repeating: 0, count: system.unknowns)
            for (s, sheet) in system.sheets.enumerated() {
                let k = sheet.parameterCount, o = offsets[s]
                for i in 0..<k {
                    var sum = 0.0
                    for j in 0..<k { sum += gcpBlocks[s][i * k + j] * x[o + j] }
                    y[o + i] = sum
                }
            }
            for (k, (a, _, bb, _)) in system.ties.enumerated() {
                let ((ax, ay), (bx, by)) = tieRows[k], weight = system.weights[k]
                var dx = 0.0, dy = 0.0
                for i in 0..<ax.count { dx += ax[i] * x[offsets[a] + i]; dy += ay[i] * x[offsets[a] + i] }
                for i in 0..<bx.count { dx -= bx[i] * x[offsets[bb] + i]; dy -= by[i] * x[offsets[bb] + i] }
                let h = weight / 2
                for i in 0..<ax.count { y[offsets[a] + i] += h * (ax[i] * dx + ay[i] * dy) }
                for i in 0..<bx.count { y[offsets[bb] + i] -= h * (bx[i] * dx + by[i] * dy) }
            }
            return y
        }

        func precondition(_ r: [Double]) -> [Double] {
            var z = [Double](repeating: 0, count: system.unknowns)
            for (s, sheet) in system.sheets.enumerated() {
                let k = sheet.parameterCount, o = system.offsets[s]
                for c in 0..<k where r[o + c] != 0 { for i in 0..<k { z[o + i] += inverses[s][c * k + i] * r[o + c] } }
            }
            return z
        }

        /// x with N·x = b by preconditioned conjugate gradients from `x`, and the steps taken;
        /// nil when they do not converge. They stop when the residual's preconditioned square norm
        /// falls to `tolerance` times b's.
        func solve(_ b: [Double], from x: [Double], tolerance: Double = 1e-26) -> (theta: [Double], iterations: Int)? {
            let n = system.unknowns
            func dot(_ a: [Double], _ b: [Double]) -> Double { zip(a, b).reduce(0) { $0 + $1.0 * $1.1 } }
            var x = x
            var r = zip(b, multiply(x)).map { $0 - $1 }
            var z = precondition(r)
            var p = z
            var rz = dot(r, z)
            let target = tolerance * max(dot(b, precondition(b)), .leastNormalMagnitude)
            // Conjugate gradients end in at most n steps in exact arithmetic; rounding may need more.
            let limit = 4 * n + 100
            for iteration in 0...limit {
                if rz <= target { return (x, iteration) }
                guard iteration < limit, rz.isFinite else { return nil }
                let q = multiply(p)
                let pq = dot(p, q)
                guard pq > 0 else { return nil }
                let alpha = rz / pq
                for i in 0..<n { x[i] += alpha * p[i]; r[i] -= alpha * q[i] }
                z = precondition(r)
                let next = dot(r, z)
                let beta = next / rz
                rz = next
                for i in 0..<n { p[i] = z[i] + beta * p[i] }
            }
            return nil
        }
    }
}
