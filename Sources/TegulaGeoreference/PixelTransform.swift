import Foundation
import TegulaGeometry

/// A fitted pixel → ground transform with its exact inverse. Sendable, immutable, cheap to
/// evaluate, thread-safe.
///
/// One model, inverted exactly: closed form for helmert, polynomial1 and projective, Newton
/// iteration on the analytic Jacobian for polynomial2/3 and tps. GDAL, QGIS and Allmaps fit a
/// second model for map → pixel instead, which disagrees with the first (GDAL issue #3626).
public protocol PixelTransform: Sendable {
    /// Which transform this is.
    var kind: TransformKind { get }
    /// Pixel → ground, in the fit CRS.
    func forward(_ p: PixelPoint) -> GroundPoint
    /// Exact inverse (closed form, or Newton iteration to ≤1e-9 px); nil when it does not
    /// converge / outside the domain.
    func inverse(_ g: GroundPoint) -> PixelPoint?
    /// ∂ground/∂pixel at `p` (analytic for every built-in transform).
    func jacobian(at p: PixelPoint) -> Jacobian
    /// The exact inverse, started from `seed` (e.g. the answer for a neighbouring point): the
    /// same solution in fewer Newton steps along a row of points; falls back to ``inverse(_:)``.
    func inverse(_ g: GroundPoint, near seed: PixelPoint?) -> PixelPoint?
}

extension PixelTransform {
    /// Closed-form inverses need no seed.
    public func inverse(_ g: GroundPoint, near seed: PixelPoint?) -> PixelPoint? { inverse(g) }
}

extension PixelTransform {
    /// Central-difference Jacobian, for conforming types without an analytic one.
    public func jacobian(at p: PixelPoint) -> Jacobian {
        let h = 1e-3
        let a = forward(PixelPoint(x: p.x + h, y: p.y)), b = forward(PixelPoint(x: p.x - h, y: p.y))
        let c = forward(PixelPoint(x: p.x, y: p.y + h)), d = forward(PixelPoint(x: p.x, y: p.y - h))
        return Jacobian(xx: (a.x - b.x) / (2 * h), xy: (c.x - d.x) / (2 * h),
                        yx: (a.y - b.y) / (2 * h), yy: (c.y - d.y) / (2 * h))
    }
}

/// Newton's method for inverting a smooth transform, seeded by an affine approximation and,
/// failing that, by the nearest of a grid of forward samples over the domain.
struct NewtonInverter: Sendable {
    /// Affine ground → pixel approximation (the inverse of a least-squares affine fit).
    let seed: AffineMap
    /// Forward samples (pixel, ground) over the domain, for fallback seeds.
    let samples: [(PixelPoint, GroundPoint)]

    /// Build the seeds for `forward` over `domain` (min x, min y, max x, max y in pixels).
    init(seed: AffineMap, domain: (Double, Double, Double, Double),
         forward: (PixelPoint) -> GroundPoint) {
        self.seed = seed
        var s: [(PixelPoint, GroundPoint)] = []
        let steps = 16
        let (x0, y0, x1, y1) = domain
        let w = x1 - x0, h = y1 - y0
        // Sample a margin of half the domain around it so points outside the image invert too.
        for j in 0...steps {
            for i in 0...steps {
                let p = PixelPoint(x: x0 - w / 2 + 2 * w * Double(i) / Double(steps),
                                   y: y0 - h / 2 + 2 * h * Double(j) / Double(steps))
                s.append((p, forward(p)))
            }
        }
        samples = s
    }

    /// Solve forward(p) = g for p; `evaluate` gives the forward value and Jacobian at a pixel
    /// (together, so a transform can share work between them).
    func invert(_ g: GroundPoint, evaluate: (PixelPoint) -> (GroundPoint, Jacobian)) -> PixelPoint? {
        guard g.x.isFinite, g.y.isFinite else { return nil }
        if let p = Self.newton(from: seed.apply(g), target: g, evaluate: evaluate) {
            return p
        }
        var best: PixelPoint?
        var bestDistance = Double.infinity
        for (p, q) in samples {
            let d = hypot(q.x - g.x, q.y - g.y)
            if d < bestDistance { bestDistance = d; best = p }
        }
        guard let start = best else { return nil }
        return Self.newton(from: start, target: g, evaluate: evaluate)
    }

    /// Damped Newton iteration; converged when the step is below 1e-10 px.
    static func newton(from start: PixelPoint, target g: GroundPoint,
                       evaluate: (PixelPoint) -> (GroundPoint, Jacobian)) -> PixelPoint? {
        var p = start
        var (f, j) = evaluate(p)
        var err = hypot(f.x - g.x, f.y - g.y)
        for _ in 0..<60 {
            guard let d = j.solve(f.x - g.x, f.y - g.y) else { return nil }
            var t = 1.0
            var next = PixelPoint(x: p.x - d.x, y: p.y - d.y)
            var (fn, jn) = evaluate(next)
            var en = hypot(fn.x - g.x, fn.y - g.y)
            // Halve the step while it makes things worse (never below 1/1024 of it).
            while !(en <= err) && t > 1.0 / 1024 {
                t /= 2
                next = PixelPoint(x: p.x - t * d.x, y: p.y - t * d.y)
                (fn, jn) = evaluate(next)
                en = hypot(fn.x - g.x, fn.y - g.y)
            }
            let step = t * hypot(d.x, d.y)
            p = next
            f = fn
            j = jn
            err = en
            if step < 1e-10 || err == 0 { return p.x.isFinite && p.y.isFinite ? p : nil }
            if !step.isFinite { return nil }
        }
        // Accept a point that has stalled at machine precision.
        if let d = j.solve(f.x - g.x, f.y - g.y), hypot(d.x, d.y) < 1e-9 { return p }
        return nil
    }
}

/// A plain affine map x' = a0 + a1·x + a2·y, y' = b0 + b1·x + b2·y.
struct AffineMap: Sendable, Equatable {
    var a: (Double, Double, Double)
    var b: (Double, Double, Double)

    static func == (l: AffineMap, r: AffineMap) -> Bool { l.a == r.a && l.b == r.b }

    func apply(_ g: GroundPoint) -> PixelPoint {
        PixelPoint(x: a.0 + a.1 * g.x + a.2 * g.y, y: b.0 + b.1 * g.x + b.2 * g.y)
    }

    /// The least-squares affine map from `from` to `to` (via normalised QR), nil when degenerate.
    static func fit(from: [(Double, Double)], to: [(Double, Double)]) -> AffineMap? {
        let norm = Normalization(from.map(\.0), from.map(\.1))
        var rows: [Double] = []
        for (x, y) in from {
            let (u, v) = norm.apply(x, y)
            rows += [1, u, v]
        }
        guard let c = LinearAlgebra.leastSquares(rows, rows: from.count, cols: 3,
                                                 rhs: [to.map(\.0), to.map(\.1)]) else { return nil }
        // Fold the normalisation back: u = (x − mx)/s.
        let s = norm.scale
        func unfold(_ k: [Double]) -> (Double, Double, Double) {
            (k[0] - k[1] * norm.meanX / s - k[2] * norm.meanY / s, k[1] / s, k[2] / s)
        }
        return AffineMap(a: unfold(c[0]), b: unfold(c[1]))
    }
}
