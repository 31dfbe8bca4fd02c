import Foundation
import TegulaGeometry

/// A similarity (Helmert) transform: uniform scale, rotation and shift, fitted by least squares.
///
/// X = a·x + b·y + tx, Y = b·x − a·y + ty: the row axis is flipped (rows grow down, northings
/// up), so a scan that is north-up maps without a mirror image. Closed-form inverse.
public struct HelmertTransform: PixelTransform {
    let a: Double, b: Double, tx: Double, ty: Double

    /// `.helmert`.
    public var kind: TransformKind { .helmert }

    /// Least-squares fit; nil for fewer than 2 distinct GCPs.
    init?(pixels: [PixelPoint], grounds: [GroundPoint]) {
        guard pixels.count >= 2 else { return nil }
        let norm = Normalization(pixels.map(\.x), pixels.map(\.y))
        var rows: [Double] = [], rhs: [Double] = []
        for (p, g) in zip(pixels, grounds) {
            let (u, v) = norm.apply(p.x, p.y)
            rows += [u, v, 1, 0]; rhs.append(g.x)
            rows += [-v, u, 0, 1]; rhs.append(g.y)
        }
        // Unknowns: a, b, tx', ty' for X = a·u + b·v + tx', Y = b·u − a·v + ty'.
        guard let c = LinearAlgebra.leastSquares(rows, rows: rhs.count, cols: 4, rhs: [rhs])?[0]
        else { return nil }
        // In normalised coordinates the rows are [u, v, 1, 0] → X and [−v, u, 0, 1] → Y,
        // i.e. Y = c1·u − c0·v + c3: b = c1, −a = −c0.
        let s = norm.scale
        a = c[0] / s
        b = c[1] / s
        tx = c[2] - a * norm.meanX - b * norm.meanY
        ty = c[3] - b * norm.meanX + a * norm.meanY
        guard a * a + b * b > 0 else { return nil }
    }

    /// Pixel → ground.
    public func forward(_ p: PixelPoint) -> GroundPoint {
        GroundPoint(x: a * p.x + b * p.y + tx, y: b * p.x - a * p.y + ty)
    }

    /// The constant Jacobian.
    public func jacobian(at p: PixelPoint) -> Jacobian { Jacobian(xx: a, xy: b, yx: b, yy: -a) }

    /// Closed-form inverse.
    public func inverse(_ g: GroundPoint) -> PixelPoint? {
        let dx = g.x - tx, dy = g.y - ty
        let d = a * a + b * b
        return PixelPoint(x: (a * dx + b * dy) / d, y: (b * dx - a * dy) / d)
    }
}
