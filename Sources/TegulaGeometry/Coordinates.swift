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

/// A position in EPSG:3857 metres (spherical Web Mercator): a ``GridPoint`` of
/// ``TileMatrixSet/webMercatorQuad``, the one point type of every grid. The older name, kept so
/// that code written against it builds; new code says `GridPoint`.
public typealias ProjectedPoint = GridPoint

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

    /// `[west, south, east, north]` in degrees, the one check of a box given by a user (`tegula
    /// match --reference-bounds`, a pipeline's `reference_bounds`): four finite numbers, west <
    /// east, south < north, latitudes within ±90; nil otherwise.
    public init?(validating v: [Double]) {
        guard v.count == 4, v.allSatisfy(\.isFinite), v[0] < v[2], v[1] < v[3], v[1] >= -90, v[3] <= 90 else { return nil }
        self.init(west: v[0], south: v[1], east: v[2], north: v[3])
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

/// A box in EPSG:3857 metres (mercantile's `Bbox`): a ``GridBounds`` of
/// ``TileMatrixSet/webMercatorQuad``, the one box type of every grid. The older name, kept so that
/// code written against it builds; new code says `GridBounds`.
public typealias ProjectedBounds = GridBounds
