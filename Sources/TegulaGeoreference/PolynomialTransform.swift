import Foundation
import TegulaGeometry

/// GDAL's polynomial GCP transform of order 1, 2 or 3 (`gdal_crs.cpp`, `gdaltransform -order N`):
/// X and Y are each a full polynomial in pixel x, y, fitted by least squares.
///
/// Terms in GDAL's order: 1, x, y, x², xy, y², x³, x²y, xy², y³. The fit works on mean-centred,
/// scaled pixel coordinates and solves by Householder QR, so order 3 stays well conditioned.
/// Order 1 inverts in closed form; orders 2 and 3 by Newton iteration on the analytic Jacobian.
public struct PolynomialTransform: PixelTransform {
    /// 1, 2 or 3.
    public let order: Int
    let norm: Normalization
    let cx: [Double]
    let cy: [Double]
    let inverter: NewtonInverter?
    let affineInverse: AffineMap?

    /// `.polynomial1`, `.polynomial2` or `.polynomial3`.
    public var kind: TransformKind { [.polynomial1, .polynomial2, .polynomial3][order - 1] }

    /// Number of terms for an order: 3, 6 or 10.
    static func termCount(_ order: Int) -> Int { (order + 1) * (order + 2) / 2 }

    /// Least-squares fit; nil when the GCPs do not determine it (too few or collinear).
    init?(
        order: Int, pixels: [PixelPoint], grounds: [GroundPoint],
        domain: (Double, Double, Double, Double)
    ) {
        precondition((1...3).contains(order))
        let n = Self.termCount(order)
        guard pixels.count >= n else { return nil }
        let norm = Normalization(pixels.map(\.x), pixels.map(\.y))
        var rows: [Double] = []
        for p in pixels {
            let (u, v) = norm.apply(p.x, p.y)
            rows += Self.terms(u, v, order: order)
        }
        // Centre the outputs too so the coefficients carry no large offsets.
        let gx = grounds.map(\.x), gy = grounds.map(\.y)
        guard let c = LinearAlgebra.leastSquares(rows, rows: pixels.count, cols: n, rhs: [gx, gy])
        else { return nil }
        self.order = order
        self.norm = norm
        cx = c[0]
        cy = c[1]
        if order == 1 {
            // Closed-form inverse of the affine map in normalised coordinates.
            let det = cx[1] * cy[2] - cx[2] * cy[1]
            guard det != 0 else { return nil }
            let ia1 = cy[2] / det, ia2 = -cx[2] / det, ib1 = -cy[1] / det, ib2 = cx[1] / det
            let s = norm.scale
            affineInverse = AffineMap(
                a: (norm.meanX - s * (ia1 * cx[0] + ia2 * cy[0]), s * ia1, s * ia2),
                b: (norm.meanY - s * (ib1 * cx[0] + ib2 * cy[0]), s * ib1, s * ib2))
            inverter = nil
        } else {
            guard
                let seed = AffineMap.fit(
                    from: grounds.map { ($0.x, $0.y) },
                    to: pixels.map { ($0.x, $0.y) })
            else { return nil }
            affineInverse = nil
            let copy = (norm, cx, cy, order)
            inverter = NewtonInverter(seed: seed, domain: domain) { p in
                Self.evaluate(p, norm: copy.0, cx: copy.1, cy: copy.2, order: copy.3)
            }
        }
    }

    /// The monomials at (u, v) in GDAL's term order.
    static func terms(_ u: Double, _ v: Double, order: Int) -> [Double] {
        switch order {
        case 1: return [1, u, v]
        case 2: return [1, u, v, u * u, u * v, v * v]
        default: return [1, u, v, u * u, u * v, v * v, u * u * u, u * u * v, u * v * v, v * v * v]
        }
    }

    static func evaluate(
        _ p: PixelPoint, norm: Normalization, cx: [Double], cy: [Double],
        order: Int
    ) -> GroundPoint {
        let (u, v) = norm.apply(p.x, p.y)
        let t = terms(u, v, order: order)
        var x = 0.0, y = 0.0
        for i in t.indices {
            x += cx[i] * t[i]
            y += cy[i] * t[i]
        }
        return GroundPoint(x: x, y: y)
    }

    /// Pixel → ground.
    public func forward(_ p: PixelPoint) -> GroundPoint {
        Self.evaluate(p, norm: norm, cx: cx, cy: cy, order: order)
    }

    /// Analytic ∂ground/∂pixel.
    public func jacobian(at p: PixelPoint) -> Jacobian {
        let (u, v) = norm.apply(p.x, p.y)
        // d(term)/du and d(term)/dv in GDAL's term order.
        let du: [Double] = [0, 1, 0, 2 * u, v, 0, 3 * u * u, 2 * u * v, v * v, 0]
        let dv: [Double] = [0, 0, 1, 0, u, 2 * v, 0, u * u, 2 * u * v, 3 * v * v]
        var j = Jacobian(xx: 0, xy: 0, yx: 0, yy: 0)
        for i in 0..<Self.termCount(order) {
            j.xx += cx[i] * du[i]
            j.xy += cx[i] * dv[i]
            j.yx += cy[i] * du[i]
            j.yy += cy[i] * dv[i]
        }
        let s = norm.scale
        return Jacobian(xx: j.xx / s, xy: j.xy / s, yx: j.yx / s, yy: j.yy / s)
    }

    /// Ground → pixel by Newton from `seed` when given (orders 2 and 3), else as ``inverse(_:)``.
    public func inverse(_ g: GroundPoint, near seed: PixelPoint?) -> PixelPoint? {
        if let seed, inverter != nil, seed.x.isFinite, seed.y.isFinite,
            let p = NewtonInverter.newton(from: seed, target: g, evaluate: { (forward($0), jacobian(at: $0)) })
        {
            return p
        }
        return inverse(g)
    }

    /// Ground → pixel: closed form for order 1, Newton otherwise.
    public func inverse(_ g: GroundPoint) -> PixelPoint? {
        if let affineInverse { return affineInverse.apply(g) }
        return inverter?.invert(g, evaluate: { (forward($0), jacobian(at: $0)) })?.point
    }

    /// Ground → pixel by Newton from `start` when given (orders 2 and 3), else as
    /// ``inverse(_:)``; `start` becomes where this one stopped (nil for order 1).
    public func inverse(_ g: GroundPoint, continuing start: inout NewtonStart?) -> PixelPoint? {
        guard let inverter else {
            start = nil
            return inverse(g)
        }
        let evaluate = { (p: PixelPoint) in (forward(p), jacobian(at: p)) }
        if let s = start, let found = NewtonInverter.newton(from: s, target: g, evaluate: evaluate) {
            start = found.last
            return found.point
        }
        let found = inverter.invert(g, evaluate: evaluate)
        start = found?.last
        return found?.point
    }
}
