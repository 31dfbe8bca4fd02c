import Foundation

/// Finding Web Mercator tiles for places: the tile under a coordinate and the tiles covering a box,
/// as mercantile finds them. Calls into ``TileMatrixSet/webMercatorQuad``'s grid functions, with
/// mercantile's rules for degrees (its fractions of the world, its epsilons, the antimeridian)
/// around them: one grid, not a second copy.
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
    ///
    /// mercantile's fractions of the world (``WebMercator/fraction(of:)``) plus `edgeEpsilon` (1e-14),
    /// floored by ``TileMatrixSet/tile(atFraction:_:zoom:)``: the same tiles as flooring the
    /// fractions themselves, clamped to 0…1, with the nudge only inside the world.
    public static func tile(containing c: Coordinate, zoom: Int) -> Tile {
        let f = WebMercator.fraction(of: c)
        return TileMatrixSet.webMercatorQuad.tile(atFraction: f.x + edgeEpsilon, f.y + edgeEpsilon, zoom: zoom)
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
            result += TileMatrixSet.webMercatorQuad.tiles(columns: ul.x...lr.x, rows: ul.y...lr.y, zoom: zoom, byColumn: true)
        }
        return result
    }

    /// The range of tile columns and rows at `zoom` that a box in metres touches, clamped to the
    /// world; nil when it lies outside. Edges within 1e-9 of a tile of a tile boundary count as on
    /// it, so they do not pull in the neighbour (``TileMatrixSet/tileRange(touching:zoom:)``).
    public static func tileRange(covering b: ProjectedBounds, zoom: Int)
        -> (x: ClosedRange<Int>, y: ClosedRange<Int>)?
    {
        TileMatrixSet.webMercatorQuad.tileRange(touching: b, zoom: zoom)
    }
}
