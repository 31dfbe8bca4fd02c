import TegulaGeometry

/// A plane projective transform, 3 × 3 row-major, between two images' pixel positions (GDAL's
/// convention: (0, 0) is the top-left corner of the top-left pixel): what MAGSAC++ finds and what
/// the refinement warps each template by.
public struct Homography: Sendable, Hashable {
    /// The nine entries, row by row.
    public var m: [Double]

    /// A homography from its nine entries, row by row.
    public init(_ m: [Double]) {
        precondition(m.count == 9, "a homography has nine entries")
        self.m = m
    }

    /// The identity.
    public static let identity = Homography([1, 0, 0, 0, 1, 0, 0, 0, 1])

    /// Scale by `sx`, `sy`, then move by `tx`, `ty`.
    public static func scaling(_ sx: Double, _ sy: Double, moving tx: Double = 0, _ ty: Double = 0) -> Homography {
        Homography([sx, 0, tx, 0, sy, ty, 0, 0, 1])
    }

    /// The image of `p`; NaN where it maps to infinity.
    public func apply(_ p: PixelPoint) -> PixelPoint {
        let w = m[6] * p.x + m[7] * p.y + m[8]
        guard w != 0 else { return PixelPoint(x: .nan, y: .nan) }
        return PixelPoint(x: (m[0] * p.x + m[1] * p.y + m[2]) / w, y: (m[3] * p.x + m[4] * p.y + m[5]) / w)
    }

    /// `self` after `other`: `(self ∘ other)(p) = self(other(p))`.
    public func after(_ other: Homography) -> Homography {
        var r = [Double](repeating: 0, count: 9)
        for i in 0..<3 { for j in 0..<3 { for k in 0..<3 { r[i * 3 + j] += m[i * 3 + k] * other.m[k * 3 + j] } } }
        return Homography(r)
    }

    /// The inverse (the adjugate over the determinant); nil when singular.
    public var inverse: Homography? {
        let a = m
        let c0 = a[4] * a[8] - a[5] * a[7], c1 = a[5] * a[6] - a[3] * a[8], c2 = a[3] * a[7] - a[4] * a[6]
        let det = a[0] * c0 + a[1] * c1 + a[2] * c2
        guard det.isFinite, abs(det) > 1e-300 else { return nil }
        let adj = [
            c0, a[2] * a[7] - a[1] * a[8], a[1] * a[5] - a[2] * a[4],
            c1, a[0] * a[8] - a[2] * a[6], a[2] * a[3] - a[0] * a[5],
            c2, a[1] * a[6] - a[0] * a[7], a[0] * a[4] - a[1] * a[3],
        ]
        return Homography(adj.map { $0 / det })
    }

    /// How many of the target's pixels one source pixel at `p` covers along a side: the square
    /// root of the Jacobian's determinant (a central difference of ±0.5 px).
    public func localScale(at p: PixelPoint) -> Double {
        let l = apply(PixelPoint(x: p.x - 0.5, y: p.y)), r = apply(PixelPoint(x: p.x + 0.5, y: p.y))
        let u = apply(PixelPoint(x: p.x, y: p.y - 0.5)), d = apply(PixelPoint(x: p.x, y: p.y + 0.5))
        let det = (r.x - l.x) * (d.y - u.y) - (r.y - l.y) * (d.x - u.x)
        return abs(det).squareRoot()
    }
}
