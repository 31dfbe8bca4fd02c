import Foundation

/// NASA's Blue Marble as Marble ships it (Debian's marble-data: a 2700 × 1350 JPEG of the whole
/// world in plate carrée), the end-to-end tests' world map, and its georeference.
public enum BlueMarble {
    /// The JPEG.
    public static let path = "/usr/share/marble/data/maps/earth/bluemarble/bluemarble.jpg"

    /// A VRT in `dir` giving `image` (by default the Blue Marble) a plate carrée georeference:
    /// EPSG:4326, longitudes −180…180, latitudes `north`…`south` (±85 by default, inside Web
    /// Mercator). Made by `gdal_translate -a_srs -a_ullr`; throws its error.
    public static func georeferenced(_ image: String = path, in dir: URL, north: Double = 85, south: Double = -85) throws -> String {
        let vrt = dir.appendingPathComponent("geo-\(UUID()).vrt").path
        _ = try ProgramRun.output(
            "gdal_translate",
            [
                "-q", "-of", "VRT", "-a_srs", "EPSG:4326",
                "-a_ullr", "-180", "\(north)", "180", "\(south)", image, vrt,
            ])
        return vrt
    }
}
