import Foundation
import TegulaGeometry

/// A thin plate spline through every GCP, as GDAL's `-tps` (`thinplatespline.cpp`): each ground
/// coordinate is an affine part plus Σ wᵢ·U(‖p − pᵢ‖) with U(r) = r²·ln r².
///
/// The spline is unique, so fitting on normalised pixel coordinates (better conditioned) gives
/// GDAL's function. Inverse by Newton iteration on the analytic Jacobian.
public struct ThinPlateSplineTransform: PixelTransform {
    let norm: Normalization
    /// Control points in normalised coordinates.
    let us: [Double]
    let vs: [Double]
    /// Weights followed by the affine part (a0, a1·u, a2·v), for X and for Y.
    let wx: [Double]
    let wy: [Double]
    /// (u, v, wx, wy) per control point, contiguous, for the warp's inner loop.
    let packed: [Double]
    let inverter: NewtonInverter

    /// `.tps`.
    public var kind: TransformKind { .tps }

    /// The most GCPs a fit takes. The solve is an (n + 3)² dense system, O(n³) time and O(n²)
    /// memory: 1,000 GCPs are an 8 MB matrix and well under a second; 10,000 would be 800 MB
    /// and minutes, and a GCP file of a million rows would never end. Refused past this with a
    /// clear line (`tooManyGCPs`) before anything is allocated.
    public static let maximumGCPs = 1000

    /// Exact interpolating fit; nil when the GCPs are collinear or duplicated.
    init?(pixels: [PixelPoint], grounds: [GroundPoint], domain: (Double, Double, Double, Double)) {
        let n = pixels.count
        guard n >= 3 else { return nil }
        let norm = Normalization(pixels.map(\.x), pixels.map(\.y))
        let pts = pixels.map { norm.apply($0.x, $0.y) }
        let size = n + 3
        var a = [Double](repeating: 0, count: size * size)
        for i in 0..<n {
            for j in 0..<n where i != j {
                a[i * size + j] = Self.kernel(pts[i].0 - pts[j].0, pts[i].1 - pts[j].1)
            }
            let row = [1, pts[i].0, pts[i].1]
            for k in 0..<3 {
                a[i * size + n + k] = row[k]
                a[(n + k) * size + i] = row[k]
            }
        }
        // Rank check: the affine part needs three non-collinear points.
        guard AffineMap.fit(from: pts, to: pts) != nil else { return nil }
        let bx = grounds.map(\.x) + [0, 0, 0], by = grounds.map(\.y) + [0, 0, 0]
        guard let s = LinearAlgebra.solveSquare(a, size: size, rhs: [bx, by]) else { return nil }
        guard let seed = AffineMap.fit(from: grounds.map { ($0.x, $0.y) }, to: pixels.map { ($0.x, $0.y) })
        else { return nil }
        self.norm = norm
        us = pts.map(\.0)
        vs = pts.map(\.1)
        wx = s[0]
        wy = s[1]
        packed = (0..<n).flatMap { [pts[$0].0, pts[$0].1, s[0][$0], s[1][$0]] }
        let copy = (norm, us, vs, wx, wy)
        inverter = NewtonInverter(seed: seed, domain: domain) { p in
            Self.evaluate(p, norm: copy.0, us: copy.1, vs: copy.2, wx: copy.3, wy: copy.4)
        }
    }

    /// U(r) = r² ln r² (0 at r = 0).
    @inline(__always) static func kernel(_ dx: Double, _ dy: Double) -> Double {
        let r2 = dx * dx + dy * dy
        return r2 > 0 ? r2 * log(r2) : 0
    }

    static func evaluate(
        _ p: PixelPoint, norm: Normalization, us: [Double], vs: [Double],
        wx: [Double], wy: [Double]
    ) -> GroundPoint {
        let (u, v) = norm.apply(p.x, p.y)
        let n = us.count
        var x = wx[n] + wx[n + 1] * u + wx[n + 2] * v
        var y = wy[n] + wy[n + 1] * u + wy[n + 2] * v
        for i in 0..<n {
            let k = kernel(u - us[i], v - vs[i])
            x += wx[i] * k
            y += wy[i] * k
        }
        return GroundPoint(x: x, y: y)
    }

    /// Pixel → ground.
    public func forward(_ p: PixelPoint) -> GroundPoint {
        Self.evaluate(p, norm: norm, us: us, vs: vs, wx: wx, wy: wy)
    }

    /// Analytic ∂ground/∂pixel: ∂U/∂u = 2·du·(ln r² + 1).
    public func jacobian(at p: PixelPoint) -> Jacobian {
        let (u, v) = norm.apply(p.x, p.y)
        let n = us.count
        var j = Jacobian(xx: wx[n + 1], xy: wx[n + 2], yx: wy[n + 1], yy: wy[n + 2])
        for i in 0..<n {
            let du = u - us[i], dv = v - vs[i]
            let r2 = du * du + dv * dv
            guard r2 > 0 else { continue }
            let f = 2 * (log(r2) + 1)
            j.xx += wx[i] * f * du
            j.xy += wx[i] * f * dv
            j.yx += wy[i] * f * du
            j.yy += wy[i] * f * dv
        }
        let s = norm.scale
        return Jacobian(xx: j.xx / s, xy: j.xy / s, yx: j.yx / s, yy: j.yy / s)
    }

    /// Forward value and Jacobian in one pass: one logarithm per GCP instead of two. The
    /// logarithms are taken first, in a loop of their own, then the sums, X's and Y's side by
    /// side in SIMD pairs: the same operations in the same order as one scalar loop (so the same
    /// bits as ``forward(_:)`` and ``jacobian(at:)``), but a loop that also calls `log` kept its
    /// six sums on the stack around every call.
    func valueAndJacobian(_ p: PixelPoint) -> (GroundPoint, Jacobian) {
        let (u, v) = norm.apply(p.x, p.y)
        let n = us.count
        let base = (
            value: SIMD2(wx[n] + wx[n + 1] * u + wx[n + 2] * v, wy[n] + wy[n + 1] * u + wy[n + 2] * v),
            du: SIMD2(wx[n + 1], wy[n + 1]), dv: SIMD2(wx[n + 2], wy[n + 2])
        )
        // (X, Y) of the value, of ∂/∂u and of ∂/∂v; kept in the closures (a sum captured from
        // outside them lived on the stack).
        let (value, du, dv) = withUnsafeTemporaryAllocation(of: Double.self, capacity: n) { buffer in
            packed.withUnsafeBufferPointer { packed in
                let c = packed.baseAddress!, logs = buffer.baseAddress!
                var (value, du, dv) = base
                for i in 0..<n {
                    let eu = u - c[4 * i], ev = v - c[4 * i + 1]
                    let r2 = eu * eu + ev * ev
                    logs[i] = r2 > 0 ? log(r2) : 0
                }
                for i in 0..<n {
                    let eu = u - c[4 * i], ev = v - c[4 * i + 1]
                    let r2 = eu * eu + ev * ev
                    guard r2 > 0 else { continue }
                    let l = logs[i]
                    let k = r2 * l, f = 2 * (l + 1)
                    let w = SIMD2(c[4 * i + 2], c[4 * i + 3]), wf = w * f
                    value += w * k
                    du += wf * eu
                    dv += wf * ev
                }
                return (value, du, dv)
            }
        }
        let s = norm.scale
        return (GroundPoint(x: value.x, y: value.y), Jacobian(xx: du.x / s, xy: dv.x / s, yx: du.y / s, yy: dv.y / s))
    }

    /// Ground → pixel by Newton from `seed` when given, else as ``inverse(_:)``.
    public func inverse(_ g: GroundPoint, near seed: PixelPoint?) -> PixelPoint? {
        if let seed, seed.x.isFinite, seed.y.isFinite,
            let p = NewtonInverter.newton(from: seed, target: g, evaluate: { valueAndJacobian($0) })
        {
            return p
        }
        return inverse(g)
    }

    /// Ground → pixel by Newton iteration.
    public func inverse(_ g: GroundPoint) -> PixelPoint? {
        inverter.invert(g, evaluate: { valueAndJacobian($0) })?.point
    }

    /// Ground → pixel by Newton from `start` when given, else as ``inverse(_:)``; `start`
    /// becomes where this one stopped.
    public func inverse(_ g: GroundPoint, continuing start: inout NewtonStart?) -> PixelPoint? {
        // A closure literal, not `valueAndJacobian` itself: the method as a value copied `self`
        // (five arrays retained and released) at every call, 7 % of a TPS pyramid's CPU.
        if let s = start, let found = NewtonInverter.newton(from: s, target: g, evaluate: { valueAndJacobian($0) }) {
            start = found.last
            return found.point
        }
        let found = g.x.isFinite && g.y.isFinite ? inverter.invert(g, evaluate: { valueAndJacobian($0) }) : nil
        start = found?.last
        return found?.point
    }
}
