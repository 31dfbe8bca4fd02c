/// GDAL's affine geotransform: X = c0 + px·c1 + line·c2, Y = c3 + px·c4 + line·c5.
public struct GeoTransform: Sendable, Equatable {
    public var coefficients: [Double]

    public init(_ c: [Double]) {
        precondition(c.count == 6, "a geotransform has six coefficients")
        coefficients = c
    }

    /// GDAL's default for a file without one: (0, 1, 0, 0, 0, 1).
    public var isIdentity: Bool { coefficients == [0, 1, 0, 0, 0, 1] }

    /// Pixel/line (GDAL convention) to georeferenced coordinates.
    public func apply(pixel: Double, line: Double) -> (x: Double, y: Double) {
        let c = coefficients
        return (c[0] + pixel * c[1] + line * c[2], c[3] + pixel * c[4] + line * c[5])
    }

    /// The inverse (GDALInvGeoTransform), or nil when singular.
    public var inverse: GeoTransform? {
        let c = coefficients
        let det = c[1] * c[5] - c[2] * c[4]
        guard det != 0, det.isFinite else { return nil }
        let i1 = c[5] / det, i2 = -c[2] / det, i4 = -c[4] / det, i5 = c[1] / det
        return GeoTransform([-c[0] * i1 - c[3] * i2, i1, i2, -c[0] * i4 - c[3] * i5, i4, i5])
    }
}
