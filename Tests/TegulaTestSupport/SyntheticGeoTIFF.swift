import TegulaGDAL

/// The synthetic scan several test suites tile: an RGB GeoTIFF in EPSG:4326 over lon 5…23,
/// lat 41…53 (900 × 600 px of 0.02°) with smooth ramps and a hard-edged checkerboard.
public enum SyntheticGeoTIFF {
    /// Writes it to `path`; the dataset is closed (flushed) when this returns.
    public static func write(to path: String) throws {
        let w = 900, h = 600
        let d = try Dataset.create(path: path, driver: "GTiff", width: w, height: h, bands: 3)
        var px = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 3
                px[i] = UInt8(truncatingIfNeeded: x / 3)
                px[i + 1] = UInt8(truncatingIfNeeded: y / 2 + 30)
                px[i + 2] = ((x / 50) + (y / 40)) % 2 == 0 ? 30 : 220
            }
        }
        try d.writeBytes(x: 0, y: 0, width: w, height: h, bands: [1, 2, 3], from: px)
        try d.setGeoTransform(GeoTransform([5, 0.02, 0, 53, 0, -0.02]))
        try d.setSpatialReference(SpatialReference("EPSG:4326"))
    }
}
