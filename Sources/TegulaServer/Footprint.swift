import TegulaGeometry
import TegulaTileset

/// The area a scan covers on the map: its footprint polygon (from metadata `footprint`) or else
/// its bounds, for `/maps?lon=&lat=`.
public struct Footprint: Sendable, Hashable {
    /// Outer ring in degrees (closed or not); empty when the footprint is a box.
    public var ring: [Coordinate]
    /// The box used when there is no polygon.
    public var box: GeoBounds?

    /// A polygon footprint.
    public init(ring: [Coordinate]) { self.ring = ring }

    /// The footprint of a tileset: its metadata polygon, else its bounds as a rectangle.
    public init(_ m: TilesetMetadata) {
        if let ring = m.footprint {
            self.ring = ring
        } else {
            ring = []
            box = m.bounds
        }
    }

    /// True when the point is inside: box test, or even-odd ray casting (a ring crossing ±180° is
    /// unwrapped).
    public func contains(_ p: Coordinate) -> Bool {
        if let b = box {
            guard p.latitude >= b.south && p.latitude <= b.north else { return false }
            return b.crossesAntimeridian
                ? (p.longitude >= b.west || p.longitude <= b.east)
                : (p.longitude >= b.west && p.longitude <= b.east)
        }
        guard ring.count >= 3 else { return false }
        // Unwrap longitudes so consecutive vertices differ by < 180°.
        var pts = [ring[0]]
        for c in ring.dropFirst() {
            var lon = c.longitude
            let prev = pts.last!.longitude
            while lon - prev > 180 { lon -= 360 }
            while lon - prev < -180 { lon += 360 }
            pts.append(Coordinate(longitude: lon, latitude: c.latitude))
        }
        let vertices = pts.map { (x: $0.longitude, y: $0.latitude) }
        return [p.longitude, p.longitude + 360, p.longitude - 360].contains {
            EvenOddRule.contains(vertices, x: $0, y: p.latitude)
        }
    }
}
