import Foundation
import TegulaGDAL

/// A smooth-plus-detail RGB pattern (no aliasing surprises, but real edges) and a GeoTIFF of it:
/// the scan the warp's and the scan readers' suites read and warp.
public enum PatternGeoTIFF {
    /// The pattern's `width` × `height` RGB pixels.
    public static func pixels(width: Int, height: Int) -> [UInt8] {
        var px = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                let fx = Double(x) / Double(width), fy = Double(y) / Double(height)
                px[i] = UInt8(127.5 + 127.5 * sin(fx * 19 + fy * 7))
                px[i + 1] = UInt8(127.5 + 127.5 * cos(fy * 23 - fx * 5))
                px[i + 2] = ((x / 37) + (y / 29)) % 2 == 0 ? 40 : 210
            }
        }
        return px
    }

    /// Write the pattern as an RGB GeoTIFF with a geotransform and CRS.
    public static func write(to path: String, width: Int, height: Int, geoTransform: [Double], srs: String) throws {
        let d = try Dataset.create(path: path, driver: "GTiff", width: width, height: height, bands: 3)
        let px = pixels(width: width, height: height)
        try d.writeBytes(x: 0, y: 0, width: width, height: height, bands: [1, 2, 3], from: px)
        try d.setGeoTransform(GeoTransform(geoTransform))
        try d.setSpatialReference(SpatialReference(srs))
    }
}
