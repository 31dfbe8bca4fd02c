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
    /// The exact inverse, continued from `start` (the previous answer of a row of points, with
    /// the forward value and Jacobian its iteration last evaluated), which becomes this answer's:
    /// the first Newton step then costs no evaluation. A nil `start` inverts as ``inverse(_:)``.
    func inverse(_ g: GroundPoint, continuing start: inout NewtonStart?) -> PixelPoint?
}

extension PixelTransform {
    /// Closed-form inverses need no seed.
    public func inverse(_ g: GroundPoint, near seed: PixelPoint?) -> PixelPoint? { inverse(g) }

    /// Closed-form inverses need no start: `start` stays nil.
    public func inverse(_ g: GroundPoint, continuing start: inout NewtonStart?) -> PixelPoint? {
        start = nil
        return inverse(g)
    }
}

/// Where a Newton inverse stopped: a pixel with the transform's forward value and Jacobian there.
/// The next point of a row takes its first step from it without evaluating the transform (a
/// thin-plate spline's evaluation is 24 logarithms at 24 GCPs).
public struct NewtonStart: Sendable {
    /// The pixel the iteration last evaluated.
    public let pixel: PixelPoint
    /// forward(pixel), in the fit CRS.
    public let ground: GroundPoint
    /// ∂ground/∂pixel at `pixel`.
    public let jacobian: Jacobian

    /// A start at `pixel` with `ground` = forward(pixel) and `jacobian` at pixel.
    public init(pixel: PixelPoint, ground: GroundPoint, jacobian: Jacobian) {
        self.pixel = pixel
        self.ground = ground
        self.jacobian = jacobian
    }
}

extension PixelTransform {
    /// Central-difference Jacobian, for conforming types without an analytic one.
    public func jacobian(at p: PixelPoint) -> Jacobian {
        let h = 1e-3
        let a = forward(PixelPoint(x: p.x + h, y: p.y)), b = forward(PixelPoint(x: p.x - h, y: p.y))
        let c = forward(PixelPoint(x: p.x, y: p.y + h)), d = forward(PixelPoint(x: p.x, y: p.y - h))
        return Jacobian(
            xx: (a.x - b.x) / (2 * h), xy: (c.x - d.x) / (2 * h),
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
    init(
        seed: AffineMap, domain: (Double, Double, Double, Double),
        forward: (PixelPoint) -> GroundPoint
    ) {
        self.seed = seed
        var s: [(PixelPoint, GroundPoint)] = []
        let steps = 16
        let (x0, y0, x1, y1) = domain
        let w = x1 - x0, h = y1 - y0
        // Sample a margin of half the domain around it so points outside the image invert too.
        for j in 0...steps {
            for i in 0...steps {
                let p = PixelPoint(
                    x: x0 - w / 2 + 2 * w * Double(i) / Double(steps),
                    y: y0 - h / 2 + 2 * h * Double(j) / Double(steps))
                s.append((p, forward(p)))
            }
        }
        samples = s
    }

    /// Solve forward(p) = g for p; `evaluate` gives the forward value and Jacobian at a pixel
    /// (together, so a transform can share work between them). Also where the iteration stopped
    /// (see ``NewtonStart``).
    func invert(_ g: GroundPoint, evaluate: (PixelPoint) -> (GroundPoint, Jacobian)) -> (point: PixelPoint, last: NewtonStart)? {
        guard g.x.isFinite, g.y.isFinite else { return nil }
        if let found = Self.newton(from: Self.start(seed.apply(g), evaluate), target: g, evaluate: evaluate) {
            return found
        }
        var best: PixelPoint?
        var bestDistance = Double.infinity
        for (p, q) in samples {
            let d = hypot(q.x - g.x, q.y - g.y)
            if d < bestDistance { bestDistance = d; best = p }
        }
        guard let start = best else { return nil }
        return Self.newton(from: Self.start(start, evaluate), target: g, evaluate: evaluate)
    }

    static func start(_ p: PixelPoint, _ evaluate: (PixelPoint) -> (GroundPoint, Jacobian)) -> NewtonStart {
        let (f, j) = evaluate(p)
        return NewtonStart(pixel: p, ground: f, jacobian: j)
    }

    /// Damped Newton iteration from `start`.
    static func newton(
        from start: PixelPoint, target g: GroundPoint,
        evaluate: (PixelPoint) -> (GroundPoint, Jacobian)
    ) -> PixelPoint? {
        newton(from: Self.start(start, evaluate), target: g, evaluate: evaluate)?.point
    }

    /// Damped Newton iteration from `start` (its value and Jacobian already known); converged
    /// when the next step is below 1e-10 px, or below 1e-6 px while the steps shrink
    /// quadratically: the point after a step d then misses by about |d|³/|d′|² (d′ the full
    /// step before it), and that is asked to be under 1e-12 px. The converging step is taken
    /// without evaluating where it lands (that evaluation only confirmed it). Nodes 16 px apart
    /// on a thin-plate spline (NewtonRowTests) cost 2.0 evaluations a point continued this way,
    /// 3.0 with the 1e-10 px stop alone, 4.0 seeded from the last answer (evaluated there first)
    /// with that stop, and so 5.0 as it was (it also evaluated where the final step landed).
    static func newton(
        from start: NewtonStart, target g: GroundPoint,
        evaluate: (PixelPoint) -> (GroundPoint, Jacobian)
    ) -> (point: PixelPoint, last: NewtonStart)? {
        var p = start.pixel
        var f = start.ground, j = start.jacobian
        var err = length(f.x - g.x, f.y - g.y)
        var previous = Double.infinity
        for _ in 0..<60 {
            guard let d = j.solve(f.x - g.x, f.y - g.y) else { return nil }
            let size = length(d.x, d.y)
            if !size.isFinite { return nil }
            if size < 1e-10 || (size < 1e-6 && size * size * size < 1e-12 * previous * previous) {
                let q = PixelPoint(x: p.x - d.x, y: p.y - d.y)
                guard q.x.isFinite, q.y.isFinite else { return nil }
                return (q, NewtonStart(pixel: p, ground: f, jacobian: j))
            }
            var t = 1.0
            var next = PixelPoint(x: p.x - d.x, y: p.y - d.y)
            var (fn, jn) = evaluate(next)
            var en = length(fn.x - g.x, fn.y - g.y)
            // Halve the step while it makes things worse (never below 1/1024 of it).
            while !(en <= err) && t > 1.0 / 1024 {
                t /= 2
                next = PixelPoint(x: p.x - t * d.x, y: p.y - t * d.y)
                (fn, jn) = evaluate(next)
                en = length(fn.x - g.x, fn.y - g.y)
            }
            let step = t * size
            p = next
            f = fn
            j = jn
            err = en
            // A damped step says nothing of the rate.
            previous = t == 1 ? size : .infinity
            if step < 1e-10 || err == 0 {
                guard p.x.isFinite, p.y.isFinite else { return nil }
                return (p, NewtonStart(pixel: p, ground: f, jacobian: j))
            }
        }
        // Accept a point that has stalled at machine precision.
        if let d = j.solve(f.x - g.x, f.y - g.y), length(d.x, d.y) < 1e-9 { return (p, NewtonStart(pixel: p, ground: f, jacobian: j)) }
        return nil
    }

    /// √(x² + y²): a step's or a miss's length. `hypot` guards against overflow these never
    /// come near (pixels and ground units) and was 3.5 % of a TPS pyramid's CPU, three calls a
    /// Newton step.
    @inline(__always) static func length(_ x: Double, _ y: Double) -> Double { (x * x + y * y).squareRoot() }
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
        guard
            let c = LinearAlgebra.leastSquares(
                rows, rows: from.count, cols: 3,
                rhs: [to.map(\.0), to.map(\.1)])
        else { return nil }
        // Fold the normalisation back: u = (x − mx)/s.
        let s = norm.scale
        func unfold(_ k: [Double]) -> (Double, Double, Double) {
            (k[0] - k[1] * norm.meanX / s - k[2] * norm.meanY / s, k[1] / s, k[2] / s)
        }
        return AffineMap(a: unfold(c[0]), b: unfold(c[1]))
    }
}
