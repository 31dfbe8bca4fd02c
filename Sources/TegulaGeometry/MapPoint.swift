import Foundation

/// MapKit's map-point space: the Web Mercator world as a 2^28 × 2^28 square, origin top-left,
/// y growing south. One map point is one pixel of a 256-px pyramid at zoom 20.
public struct MapPoint: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The width and height of the world in map points (2^28, MapKit's `MKMapSizeWorld`).
    public static let worldSize = 268435456.0

    /// The map point of a coordinate (MapKit `MKMapPointForCoordinate`); latitude clamped to
    /// ±85.0511°.
    public init(_ c: Coordinate) {
        let p = WebMercator.project(c)
        self.init(p)
    }

    /// The map point of an EPSG:3857 position.
    public init(_ p: ProjectedPoint) {
        let h = WebMercator.halfCircumference
        x = (p.x + h) / (2 * h) * MapPoint.worldSize
        y = (h - p.y) / (2 * h) * MapPoint.worldSize
    }

    /// The EPSG:3857 position of this map point.
    public var projected: ProjectedPoint {
        let h = WebMercator.halfCircumference
        return ProjectedPoint(x: x / MapPoint.worldSize * 2 * h - h, y: h - y / MapPoint.worldSize * 2 * h)
    }

    /// The coordinate of this map point (MapKit `MKCoordinateForMapPoint`).
    public var coordinate: Coordinate { WebMercator.unproject(projected) }

    public var description: String { "(\(x), \(y))" }
}

/// A size in map points (MapKit `MKMapSize`).
public struct MapSize: Hashable, Sendable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The whole world (MapKit `MKMapSizeWorld`).
    public static let world = MapSize(width: MapPoint.worldSize, height: MapPoint.worldSize)
}

/// A rectangle in map points (MapKit `MKMapRect`): origin is the top-left corner.
public struct MapRect: Hashable, Sendable, CustomStringConvertible {
    public var origin: MapPoint
    public var size: MapSize

    public init(origin: MapPoint, size: MapSize) {
        self.origin = origin
        self.size = size
    }

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: MapPoint(x: x, y: y), size: MapSize(width: width, height: height))
    }

    /// The whole world (MapKit `MKMapRectWorld`).
    public static let world = MapRect(x: 0, y: 0, width: MapPoint.worldSize, height: MapPoint.worldSize)

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }
    public var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

    /// The rectangle covering a box in metres.
    public init(_ b: ProjectedBounds) {
        let tl = MapPoint(ProjectedPoint(x: b.left, y: b.top))
        let br = MapPoint(ProjectedPoint(x: b.right, y: b.bottom))
        self.init(x: tl.x, y: tl.y, width: br.x - tl.x, height: br.y - tl.y)
    }

    /// The rectangle covering a box in degrees.
    public init(_ b: GeoBounds) { self.init(WebMercator.project(b)) }

    /// The same rectangle in EPSG:3857 metres.
    public var projectedBounds: ProjectedBounds {
        let tl = MapPoint(x: minX, y: minY).projected
        let br = MapPoint(x: maxX, y: maxY).projected
        return ProjectedBounds(left: tl.x, bottom: br.y, right: br.x, top: tl.y)
    }

    /// True when the point lies inside (min edges inclusive, max edges exclusive).
    public func contains(_ p: MapPoint) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// True when the two rectangles share some area (MapKit `MKMapRectIntersectsRect`).
    public func intersects(_ other: MapRect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    /// The overlap, or nil when there is none.
    public func intersection(_ other: MapRect) -> MapRect? {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        return x0 < x1 && y0 < y1 ? MapRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
    }

    /// The smallest rectangle holding both.
    public func union(_ other: MapRect) -> MapRect {
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return MapRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// The map rect of a tile of the 256-px-per-tile pyramid.
    public init(tile: Tile) {
        let side = MapPoint.worldSize / pow(2, Double(tile.z))
        self.init(x: Double(tile.x) * side, y: Double(tile.y) * side, width: side, height: side)
    }

    public var description: String { "{\(minX), \(minY), \(size.width), \(size.height)}" }
}

/// MapKit's zoom scale: screen points per map point. For tiles of `tileSize` screen points,
/// level z has zoomScale = tileSize · 2^z / 2^28 (256-px tiles: 2^(z − 20)).
public enum ZoomScale {
    /// The zoom scale at which level `zoom` tiles are shown at `tileSize` points.
    public static func scale(forZoomLevel zoom: Double, tileSize: Double = 256) -> Double {
        tileSize * pow(2, zoom) / MapPoint.worldSize
    }

    /// The (fractional) zoom level for a zoom scale.
    public static func zoomLevel(forScale scale: Double, tileSize: Double = 256) -> Double {
        log2(scale * MapPoint.worldSize / tileSize)
    }
}
