import Foundation
import TegulaGeometry

/// A polygon drawn over the map that is also an annotation (MapKit `MKPolygon`): a scan's
/// footprint or neatline, with a pin at its centre and a title.
///
/// Geometry is done in map points (world = 2^28), where the polygon is straight-edged. One outer
/// ring, no holes; a ring crossing the antimeridian is not split (give it in one continuous
/// longitude range instead).
public struct PolygonOverlay: MapOverlay, MapAnnotation, Hashable, Sendable {
    /// The ring's vertices in order, without repeating the first at the end.
    public let coordinates: [Coordinate]
    /// The same vertices in map points.
    public let points: [MapPoint]
    /// The pin's title (MapKit `title`).
    public var title: String?
    /// The pin's subtitle (MapKit `subtitle`).
    public var subtitle: String?

    /// A polygon from its ring; a closing vertex equal to the first is dropped.
    public init(coordinates: [Coordinate], title: String? = nil, subtitle: String? = nil) {
        var ring = coordinates
        if ring.count > 1, ring.first == ring.last { ring.removeLast() }
        self.coordinates = ring
        self.points = ring.map(MapPoint.init)
        self.title = title
        self.subtitle = subtitle
    }

    /// The rectangle of a geographic box (a scan's footprint), corners from the north-west clockwise.
    public init(bounds b: GeoBounds, title: String? = nil, subtitle: String? = nil) {
        self.init(
            coordinates: [
                Coordinate(longitude: b.west, latitude: b.north),
                Coordinate(longitude: b.east, latitude: b.north),
                Coordinate(longitude: b.east, latitude: b.south),
                Coordinate(longitude: b.west, latitude: b.south),
            ],
            title: title, subtitle: subtitle)
    }

    /// The smallest map rect holding every vertex (MapKit `boundingMapRect`); empty for no vertices.
    public var boundingMapRect: MapRect {
        guard let first = points.first else { return MapRect(x: 0, y: 0, width: 0, height: 0) }
        var x0 = first.x, y0 = first.y, x1 = first.x, y1 = first.y
        for p in points.dropFirst() {
            x0 = min(x0, p.x); x1 = max(x1, p.x)
            y0 = min(y0, p.y); y1 = max(y1, p.y)
        }
        return MapRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Where the pin stands: the centre of `boundingMapRect`, as MapKit's `MKPolygon`.
    public var coordinate: Coordinate {
        let r = boundingMapRect
        return MapPoint(x: r.midX, y: r.midY).coordinate
    }

    /// The enclosed area in square map points (shoelace formula).
    public var area: Double {
        guard points.count >= 3 else { return 0 }
        var twice = 0.0
        for i in points.indices {
            let a = points[i], b = points[(i + 1) % points.count]
            twice += a.x * b.y - b.x * a.y
        }
        return abs(twice) / 2
    }

    /// True when the point lies inside the ring (even–odd rule; MapKit's renderer `path.contains`).
    /// Points exactly on an edge may count either way.
    public func contains(_ p: MapPoint) -> Bool {
        guard points.count >= 3, withinBounds(p) else { return false }
        return EvenOddRule.contains(points.map { (x: $0.x, y: $0.y) }, x: p.x, y: p.y)
    }

    /// True when the geographic position lies inside the ring.
    public func contains(_ c: Coordinate) -> Bool { contains(MapPoint(c)) }

    /// The share of `visible` the polygon covers (its area over the visible rect's area).
    public func areaRatio(in visible: MapRect) -> Double {
        let v = visible.size.width * visible.size.height
        return v > 0 ? area / v : .infinity
    }

    /// The pin is shown only while the polygon is small on screen: when the pin's place is in
    /// `visible` and the polygon covers less than `maximumAreaRatio` of it (default 1%). Larger, the polygon itself is
    /// the thing to look at and the pin would only hide it.
    public func showsPin(in visible: MapRect, maximumAreaRatio: Double = PolygonOverlay.pinAreaRatio) -> Bool {
        visible.contains(MapPoint(coordinate)) && areaRatio(in: visible) < maximumAreaRatio
    }

    /// The default share of the visible area under which the pin shows: 1%.
    public static let pinAreaRatio = 0.01

    private func withinBounds(_ p: MapPoint) -> Bool {
        let r = boundingMapRect
        return p.x >= r.minX && p.x <= r.maxX && p.y >= r.minY && p.y <= r.maxY
    }
}
