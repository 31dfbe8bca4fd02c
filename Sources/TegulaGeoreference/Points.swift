import Foundation

/// Pixel position in GDAL's convention (continuous; (0,0) = top-left corner of the top-left pixel).
///
/// The centre of pixel (col, row) is (col + 0.5, row + 0.5); y grows downwards.
public struct PixelPoint: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Column coordinate, pixels from the left edge.
    public var x: Double
    /// Row coordinate, pixels from the top edge.
    public var y: Double

    /// A pixel position from its column and row coordinates.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// `(x, y)` with the numbers as Swift prints them.
    public var description: String { "(\(x), \(y))" }
}

/// A position in a planar/ground CRS (x = easting/longitude, y = northing/latitude).
public struct GroundPoint: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Easting or longitude, in the CRS's units.
    public var x: Double
    /// Northing or latitude, in the CRS's units.
    public var y: Double

    /// A ground position from its easting and northing.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// `(x, y)` with the numbers as Swift prints them.
    public var description: String { "(\(x), \(y))" }
}

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
