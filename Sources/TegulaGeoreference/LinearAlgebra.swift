import Foundation

/// The small dense solvers the fits need: Householder QR least squares (well conditioned, no
/// normal equations) and Gaussian elimination with partial pivoting for square systems.
enum LinearAlgebra {
    /// Minimise ‖A·x − b‖ for each right-hand side column; A is `rows` × `cols`, row-major.
    /// Returns one solution per right-hand side, or nil when A is rank-deficient (relative
    /// tolerance `rankTolerance` on the diagonal of R).
    static func leastSquares(
        _ a: [Double], rows m: Int, cols n: Int, rhs: [[Double]],
        rankTolerance: Double = 1e-10
    ) -> [[Double]]? {
        guard m >= n, n > 0 else { return nil }
        var r = a
        var bs = rhs
        var diagonal = [Double](repeating: 0, count: n)
        for k in 0..<n {
            var norm = 0.0
            for i in k..<m { norm = hypot(norm, r[i * n + k]) }
            guard norm > 0 else { return nil }
            let alpha = r[k * n + k] > 0 ? -norm : norm
            var v = [Double](repeating: 0, count: m - k)
            for i in k..<m { v[i - k] = r[i * n + k] }
            v[0] -= alpha
            let vv = v.reduce(0) { $0 + $1 * $1 }
            if vv > 0 {
                for j in k..<n {
                    var dot = 0.0
                    for i in k..<m { dot += v[i - k] * r[i * n + j] }
                    let f = 2 * dot / vv
                    for i in k..<m { r[i * n + j] -= f * v[i - k] }
                }
                for c in 0..<bs.count {
                    var dot = 0.0
                    for i in k..<m { dot += v[i - k] * bs[c][i] }
                    let f = 2 * dot / vv
                    for i in k..<m { bs[c][i] -= f * v[i - k] }
                }
            }
            diagonal[k] = abs(r[k * n + k])
        }
        let largest = diagonal.max() ?? 0
        guard largest > 0, diagonal.allSatisfy({ $0 > rankTolerance * largest }) else { return nil }
        return backSubstitute(r, columns: n, rhs: bs)
    }

    /// Solve the square system A·x = b for each right-hand side (Gaussian elimination with
    /// partial pivoting); nil when A is singular to working precision.
    static func solveSquare(_ a: [Double], size n: Int, rhs: [[Double]]) -> [[Double]]? {
        var m = a
        var bs = rhs
        var scale = 0.0
        for v in a { scale = max(scale, abs(v)) }
        guard scale > 0 else { return nil }
        for k in 0..<n {
            var p = k
            for i in (k + 1)..<max(n, k + 1) where abs(m[i * n + k]) > abs(m[p * n + k]) { p = i }
            guard abs(m[p * n + k]) > 1e-13 * scale else { return nil }
            if p != k {
                for j in 0..<n { m.swapAt(k * n + j, p * n + j) }
                for c in 0..<bs.count { bs[c].swapAt(k, p) }
            }
            for i in (k + 1)..<max(n, k + 1) {
                let f = m[i * n + k] / m[k * n + k]
                if f == 0 { continue }
                for j in k..<n { m[i * n + j] -= f * m[k * n + j] }
                for c in 0..<bs.count { bs[c][i] -= f * bs[c][k] }
            }
        }
        return backSubstitute(m, columns: n, rhs: bs)
    }

    /// Solve U·x = b for each right-hand side, U the upper triangle of the first `n` rows of the
    /// row-major matrix `u` with `n` columns (what lies below the diagonal, and any further rows,
    /// is not read): the last step of both solvers above.
    static func backSubstitute(_ u: [Double], columns n: Int, rhs: [[Double]]) -> [[Double]] {
        rhs.map { b in
            var x = [Double](repeating: 0, count: n)
            for k in stride(from: n - 1, through: 0, by: -1) {
                var s = b[k]
                for j in (k + 1)..<n { s -= u[k * n + j] * x[j] }
                x[k] = s / u[k * n + k]
            }
            return x
        }
    }
}

/// Centring and scaling of a point cloud so fits work on numbers near 1 (as GDAL's
/// `gdal_crs.cpp` centres on the mean before fitting).
struct Normalization: Sendable, Equatable {
    var meanX: Double
    var meanY: Double
    var scale: Double

    /// Mean-centred, scaled so the largest distance from the mean is 1.
    init(_ xs: [Double], _ ys: [Double]) {
        let n = Double(max(xs.count, 1))
        meanX = xs.reduce(0, +) / n
        meanY = ys.reduce(0, +) / n
        var s = 0.0
        for i in xs.indices { s = max(s, hypot(xs[i] - meanX, ys[i] - meanY)) }
        scale = s > 0 ? s : 1
    }

    func apply(_ x: Double, _ y: Double) -> (Double, Double) { ((x - meanX) / scale, (y - meanY) / scale) }
    func undo(_ u: Double, _ v: Double) -> (Double, Double) { (u * scale + meanX, v * scale + meanY) }
}
