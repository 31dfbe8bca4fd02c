import Foundation

/// Spherical Web Mercator (EPSG:3857) and its 256-px tile grid.
///
/// Edges, decided here once for every module:
/// - Latitudes beyond ±``maxLatitude`` are clamped to it by ``project(_:)-(Coordinate)`` (the square world ends
///   there); ±90° therefore maps to the top or bottom edge instead of infinity.
/// - Longitudes outside −180…180 are not wrapped by ``project(_:)-(Coordinate)``; tile lookups clamp them to the
///   first or last column, and longitude exactly 180 belongs to the last column.
/// - Zoom levels run from 0 (one tile) to ``maxZoom`` (30), the deepest level whose tile indices
///   and quadkeys fit comfortably in 64-bit integers and double-precision metres.
public enum WebMercator {
    /// Radius of the sphere, metres (WGS 84 semi-major axis).
    public static let radius = 6378137.0
    /// Half the equator's length, metres: the world spans −this…+this on both axes.
    public static let halfCircumference = 20037508.342789244
    /// The latitude at which the square world ends, degrees (y = ±halfCircumference).
    public static let maxLatitude = 85.0511287798066
    /// The deepest zoom level Tegula accepts.
    public static let maxZoom = 30

    /// The side of one tile at `zoom` in metres: the world's width over 2^zoom (exact in
    /// binary, so tile edges computed from it agree everywhere).
    public static func tileExtent(zoom: Int) -> Double {
        2 * halfCircumference / pow(2, Double(zoom))
    }

    /// Metres per pixel at `zoom` for tiles of `tileSize` pixels (z0, 256 px: 156543.03392804097).
    public static func resolution(zoom: Int, tileSize: Int = 256) -> Double {
        2 * halfCircumference / Double(tileSize) / pow(2, Double(zoom))
    }

    /// Longitude/latitude degrees to EPSG:3857 metres; latitude clamped to ±maxLatitude.
    public static func project(_ c: Coordinate) -> ProjectedPoint {
        let lat = min(max(c.latitude, -maxLatitude), maxLatitude)
        let x = c.longitude * halfCircumference / 180
        let y = radius * log(tan(Double.pi / 4 + lat * Double.pi / 360))
        return ProjectedPoint(x: x, y: y)
    }

    /// EPSG:3857 metres to longitude/latitude degrees.
    public static func unproject(_ p: ProjectedPoint) -> Coordinate {
        let lon = p.x * 180 / halfCircumference
        let lat = (2 * atan(exp(p.y / radius)) - Double.pi / 2) * 180 / Double.pi
        return Coordinate(longitude: lon, latitude: lat)
    }

    /// Where a coordinate lies in the square world as fractions of its side, x from the west edge
    /// and y from the north edge, 0…1 within the world (mercantile `_xy`); beyond ±``maxLatitude``
    /// y runs past 0 or 1 (±90° gives ∓infinity), and it is not clamped.
    public static func fraction(of c: Coordinate) -> (x: Double, y: Double) {
        let sinLat = sin(c.latitude * Double.pi / 180)
        return (c.longitude / 360 + 0.5, 0.5 - 0.25 * log((1 + sinLat) / (1 - sinLat)) / Double.pi)
    }

    /// Project a geographic box; a box crossing the antimeridian is given its eastern extension
    /// (right beyond +halfCircumference).
    public static func project(_ b: GeoBounds) -> ProjectedBounds {
        let sw = project(Coordinate(longitude: b.west, latitude: b.south))
        var ne = project(Coordinate(longitude: b.east, latitude: b.north))
        if b.crossesAntimeridian { ne.x += 2 * halfCircumference }
        return ProjectedBounds(left: sw.x, bottom: sw.y, right: ne.x, top: ne.y)
    }

    /// Unproject a box in metres.
    public static func unproject(_ b: ProjectedBounds) -> GeoBounds {
        let sw = unproject(ProjectedPoint(x: b.left, y: b.bottom))
        let ne = unproject(ProjectedPoint(x: b.right, y: b.top))
        return GeoBounds(west: sw.longitude, south: sw.latitude, east: ne.longitude, north: ne.latitude)
    }
}
