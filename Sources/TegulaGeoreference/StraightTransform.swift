import Foundation
import TegulaGeometry

/// Allmaps' `straight` transform: one scale and a shift, no rotation, fitted as Allmaps fits it.
///
/// X = s·x + tx, Y = −s·y + ty (the row axis flipped, as Allmaps flips it for resource
/// coordinates, so a north-up scan maps without a mirror image). Allmaps (`Straight.ts` in
/// `@allmaps/transform`) takes s from the least-squares Helmert fit of the same points (the
/// length of its scale-and-rotation vector) and the shift that carries the pixels' centroid,
/// scaled, onto the grounds' centroid; it is not the least-squares fit of this model, which would
/// shrink s by the cosine of the Helmert rotation. Closed-form inverse.
public struct StraightTransform: PixelTransform {
    let s: Double, tx: Double, ty: Double

    /// `.straight`.
    public var kind: TransformKind { .straight }

    /// Allmaps' fit; nil for fewer than 2 distinct GCPs.
    init?(pixels: [PixelPoint], grounds: [GroundPoint]) {
        guard pixels.count >= 2, let helmert = HelmertTransform(pixels: pixels, grounds: grounds) else { return nil }
        let n = Double(pixels.count)
        let px = pixels.map(\.x).reduce(0, +) / n, py = pixels.map(\.y).reduce(0, +) / n
        let gx = grounds.map(\.x).reduce(0, +) / n, gy = grounds.map(\.y).reduce(0, +) / n
        s = hypot(helmert.a, helmert.b)
        guard s > 0, s.isFinite else { return nil }
        tx = gx - s * px
        ty = gy + s * py
    }

    /// Pixel → ground.
    public func forward(_ p: PixelPoint) -> GroundPoint {
        GroundPoint(x: s * p.x + tx, y: -s * p.y + ty)
    }

    /// The constant Jacobian.
    public func jacobian(at p: PixelPoint) -> Jacobian { Jacobian(xx: s, xy: 0, yx: 0, yy: -s) }

    /// Closed-form inverse.
    public func inverse(_ g: GroundPoint) -> PixelPoint? {
        PixelPoint(x: (g.x - tx) / s, y: (ty - g.y) / s)
    }
}
