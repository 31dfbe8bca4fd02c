/// A geographic position in degrees on the WGS 84 / spherical-Mercator datum.
///
/// Longitude is x (east positive), latitude is y (north positive), as in GeoJSON.
public struct Coordinate: Hashable, Sendable, CustomStringConvertible {
    /// Degrees east of Greenwich.
    public var longitude: Double
    /// Degrees north of the equator.
    public var latitude: Double

    public init(longitude: Double, latitude: Double) {
        self.longitude = longitude
        self.latitude = latitude
    }

    public var description: String { "(\(longitude), \(latitude))" }
}

/// A position in EPSG:3857 metres (spherical Web Mercator).
public struct ProjectedPoint: Hashable, Sendable, CustomStringConvertible {
    /// Metres east of the origin.
    public var x: Double
    /// Metres north of the equator.
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public var description: String { "(\(x), \(y))" }
}

/// A geographic bounding box in degrees (mercantile's `LngLatBbox`).
///
/// `west > east` means the box crosses the antimeridian.
public struct GeoBounds: Hashable, Sendable, CustomStringConvertible {
    public var west: Double
    public var south: Double
    public var east: Double
    public var north: Double

    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// True when the box wraps over ±180° (west greater than east).
    public var crossesAntimeridian: Bool { west > east }

    /// The centre, taking the antimeridian into account.
    public var center: Coordinate {
        var lon = crossesAntimeridian ? (west + east + 360) / 2 : (west + east) / 2
        if lon > 180 { lon -= 360 }
        return Coordinate(longitude: lon, latitude: (south + north) / 2)
    }

    /// The whole Web Mercator world.
    public static let world = GeoBounds(
        west: -180, south: -WebMercator.maxLatitude, east: 180, north: WebMercator.maxLatitude)

    public var description: String { "\(west) \(south) \(east) \(north)" }
}

/// A bounding box in EPSG:3857 metres (mercantile's `Bbox`: left, bottom, right, top).
public struct ProjectedBounds: Hashable, Sendable, CustomStringConvertible {
    public var left: Double
    public var bottom: Double
    public var right: Double
    public var top: Double

    public init(left: Double, bottom: Double, right: Double, top: Double) {
        self.left = left
        self.bottom = bottom
        self.right = right
        self.top = top
    }

    public var width: Double { right - left }
    public var height: Double { top - bottom }

    /// The smallest box holding both.
    public func union(_ other: ProjectedBounds) -> ProjectedBounds {
        ProjectedBounds(
            left: min(left, other.left), bottom: min(bottom, other.bottom),
            right: max(right, other.right), top: max(top, other.top))
    }

    /// The overlap, or nil when the boxes do not overlap.
    public func intersection(_ other: ProjectedBounds) -> ProjectedBounds? {
        let box = ProjectedBounds(
            left: max(left, other.left), bottom: max(bottom, other.bottom),
            right: min(right, other.right), top: min(top, other.top))
        return box.left < box.right && box.bottom < box.top ? box : nil
    }

    /// The whole Web Mercator square.
    public static let world = ProjectedBounds(
        left: -WebMercator.halfCircumference, bottom: -WebMercator.halfCircumference,
        right: WebMercator.halfCircumference, top: WebMercator.halfCircumference)

    public var description: String { "\(left) \(bottom) \(right) \(top)" }
}
