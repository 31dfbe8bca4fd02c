import Foundation

/// Finding tiles for places: the tile under a coordinate and the tiles covering a box.
public enum TileGrid {
    /// Points within this fraction of a tile's right or bottom edge count in the next tile,
    /// so tile → bounds → tile round-trips despite rounding (mercantile's EPSILON).
    static let edgeEpsilon = 1e-14
    /// Nudge applied to a box's east and south edges so a tile's own bounds cover only that
    /// tile (mercantile's LL_EPSILON).
    static let boxEpsilon = 1e-11
    /// Latitude clamp used for covering boxes (mercantile clamps to ±85.051129).
    static let coverLatitude = 85.051129

    /// The tile at `zoom` containing a coordinate (mercantile `tile`).
    ///
    /// Coordinates beyond the world clamp to its edge tiles: longitude exactly 180 (or more)
    /// is in the last column, latitude beyond ±85.0511° (even ±90°) in the first or last row.
    public static func tile(containing c: Coordinate, zoom: Int) -> Tile {
        let x = c.longitude / 360 + 0.5
        let sinLat = sin(c.latitude * Double.pi / 180)
        let y = 0.5 - 0.25 * log((1 + sinLat) / (1 - sinLat)) / Double.pi
        let n = pow(2, Double(zoom))
        let last = (1 << zoom) - 1
        func index(_ v: Double) -> Int {
            if v.isNaN { return 0 }
            if v <= 0 { return 0 }
            if v >= 1 { return last }
            return min(Int(((v + edgeEpsilon) * n).rounded(.down)), last)
        }
        return Tile(x: index(x), y: index(y), z: zoom)
    }

    /// The tiles at `zoom` overlapping a box (mercantile `tiles`), row by row within each
    /// column; a box with west > east crosses the antimeridian and yields both sides.
    public static func tiles(covering box: GeoBounds, zoom: Int) -> [Tile] {
        let parts: [GeoBounds]
        if box.crossesAntimeridian {
            parts = [
                GeoBounds(west: -180, south: box.south, east: box.east, north: box.north),
                GeoBounds(west: box.west, south: box.south, east: 180, north: box.north),
            ]
        } else {
            parts = [box]
        }
        var result: [Tile] = []
        for part in parts {
            let w = max(-180, part.west), s = max(-coverLatitude, part.south)
            let e = min(180, part.east), n = min(coverLatitude, part.north)
            let ul = tile(containing: Coordinate(longitude: w, latitude: n), zoom: zoom)
            let lr = tile(
                containing: Coordinate(longitude: e - boxEpsilon, latitude: s + boxEpsilon),
                zoom: zoom)
            guard ul.x <= lr.x, ul.y <= lr.y else { continue }
            for x in ul.x...lr.x {
                for y in ul.y...lr.y { result.append(Tile(x: x, y: y, z: zoom)) }
            }
        }
        return result
    }

    /// The range of tile columns and rows at `zoom` that a box in metres touches, clamped to the
    /// world; nil when it lies outside. Edges exactly on a tile boundary do not pull in the
    /// neighbour.
    public static func tileRange(covering b: ProjectedBounds, zoom: Int)
        -> (x: ClosedRange<Int>, y: ClosedRange<Int>)?
    {
        guard let box = b.intersection(.world) else { return nil }
        let size = WebMercator.tileExtent(zoom: zoom)
        let last = (1 << zoom) - 1
        let h = WebMercator.halfCircumference
        // Edges within 1e-9 of a tile boundary count as on it (metres rounding).
        let eps = 1e-9
        let x0 = Int(((box.left + h) / size + eps).rounded(.down))
        let x1 = Int(((box.right + h) / size - eps).rounded(.up)) - 1
        let y0 = Int(((h - box.top) / size + eps).rounded(.down))
        let y1 = Int(((h - box.bottom) / size - eps).rounded(.up)) - 1
        let cx0 = min(max(x0, 0), last), cx1 = min(max(x1, 0), last)
        let cy0 = min(max(y0, 0), last), cy1 = min(max(y1, 0), last)
        guard cx0 <= cx1, cy0 <= cy1 else { return nil }
        return (cx0...cx1, cy0...cy1)
    }
}
