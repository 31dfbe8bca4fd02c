/// The 2×2 derivative of a pixel → ground transform at one pixel: ∂ground/∂pixel.
public struct Jacobian: Sendable, Equatable {
    /// ∂X/∂x.
    public var xx: Double
    /// ∂X/∂y.
    public var xy: Double
    /// ∂Y/∂x.
    public var yx: Double
    /// ∂Y/∂y.
    public var yy: Double

    /// A Jacobian from its four partial derivatives.
    public init(xx: Double, xy: Double, yx: Double, yy: Double) {
        self.xx = xx
        self.xy = xy
        self.yx = yx
        self.yy = yy
    }

    /// The determinant; its sign flips where the transform folds over.
    public var determinant: Double { xx * yy - xy * yx }

    /// Solve J·d = (gx, gy) for d; nil when J is singular.
    public func solve(_ gx: Double, _ gy: Double) -> (x: Double, y: Double)? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        return ((yy * gx - xy * gy) / det, (xx * gy - yx * gx) / det)
    }
}
