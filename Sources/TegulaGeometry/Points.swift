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
