import Foundation
import TegulaGeometry

/// A projective transform (homography): X = (h0 + h1·x + h2·y) / (1 + h6·x + h7·y), likewise Y.
///
/// Fitted by the normalised direct linear transform (Hartley): both point clouds are centred and
/// scaled, then the linearised equations are solved by least squares. The inverse is the
/// inverse 3×3 matrix, in closed form; it is nil on the horizon line (denominator zero).
public struct ProjectiveTransform: PixelTransform {
    let pixelNorm: Normalization
    let groundNorm: Normalization
    /// Row-major 3×3 matrix in normalised coordinates, pixel → ground.
    let h: [Double]
    /// Its inverse, ground → pixel.
    let hInverse: [Double]

    /// `.projective`.
    public var kind: TransformKind { .projective }

    /// Least-squares fit; nil when fewer than 4 GCPs or degenerate (three collinear).
    init?(pixels: [PixelPoint], grounds: [GroundPoint]) {
        guard pixels.count >= 4 else { return nil }
        let pn = Normalization(pixels.map(\.x), pixels.map(\.y))
        let gn = Normalization(grounds.map(\.x), grounds.map(\.y))
        var rows: [Double] = [], rhs: [Double] = []
        for (p, g) in zip(pixels, grounds) {
            let (u, v) = pn.apply(p.x, p.y)
            let (X, Y) = gn.apply(g.x, g.y)
            rows += [1, u, v, 0, 0, 0, -X * u, -X * v]; rhs.append(X)
            rows += [0, 0, 0, 1, u, v, -Y * u, -Y * v]; rhs.append(Y)
        }
        guard let c = LinearAlgebra.leastSquares(rows, rows: rhs.count, cols: 8, rhs: [rhs])?[0]
        else { return nil }
        let m = [c[1], c[2], c[0], c[4], c[5], c[3], c[6], c[7], 1]
        guard let inv = Self.invert3(m) else { return nil }
        pixelNorm = pn
        groundNorm = gn
        h = m
        hInverse = inv
    }

    static func invert3(_ m: [Double]) -> [Double]? {
        let det =
            m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6])
            + m[2] * (m[3] * m[7] - m[4] * m[6])
        guard det != 0, det.isFinite else { return nil }
        return [
            (m[4] * m[8] - m[5] * m[7]) / det, (m[2] * m[7] - m[1] * m[8]) / det,
            (m[1] * m[5] - m[2] * m[4]) / det, (m[5] * m[6] - m[3] * m[8]) / det,
            (m[0] * m[8] - m[2] * m[6]) / det, (m[2] * m[3] - m[0] * m[5]) / det,
            (m[3] * m[7] - m[4] * m[6]) / det, (m[1] * m[6] - m[0] * m[7]) / det,
            (m[0] * m[4] - m[1] * m[3]) / det,
        ]
    }

    /// Pixel → ground.
    public func forward(_ p: PixelPoint) -> GroundPoint {
        let (u, v) = pixelNorm.apply(p.x, p.y)
        let w = h[6] * u + h[7] * v + h[8]
        let (x, y) = groundNorm.undo((h[0] * u + h[1] * v + h[2]) / w, (h[3] * u + h[4] * v + h[5]) / w)
        return GroundPoint(x: x, y: y)
    }

    /// Analytic ∂ground/∂pixel (quotient rule).
    public func jacobian(at p: PixelPoint) -> Jacobian {
        let (u, v) = pixelNorm.apply(p.x, p.y)
        let w = h[6] * u + h[7] * v + h[8]
        let nx = h[0] * u + h[1] * v + h[2], ny = h[3] * u + h[4] * v + h[5]
        let f = groundNorm.scale / pixelNorm.scale / (w * w)
        return Jacobian(
            xx: f * (h[0] * w - nx * h[6]), xy: f * (h[1] * w - nx * h[7]),
            yx: f * (h[3] * w - ny * h[6]), yy: f * (h[4] * w - ny * h[7]))
    }

    /// Closed-form inverse; nil on the horizon.
    public func inverse(_ g: GroundPoint) -> PixelPoint? {
        let (X, Y) = groundNorm.apply(g.x, g.y)
        let w = hInverse[6] * X + hInverse[7] * Y + hInverse[8]
        guard w != 0, w.isFinite else { return nil }
        let (x, y) = pixelNorm.undo(
            (hInverse[0] * X + hInverse[1] * Y + hInverse[2]) / w,
            (hInverse[3] * X + hInverse[4] * Y + hInverse[5]) / w)
        return PixelPoint(x: x, y: y)
    }
}
