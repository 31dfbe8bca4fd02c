import TegulaGDAL
import TegulaGeometry

/// A tile matrix set's grid functions from longitude and latitude (WGS 84 degrees, ``Coordinate``),
/// through PROJ between WGS 84 and the set's CRS: morecantile's `tile(lng, lat, zoom)`,
/// `bounds(tile)` and `tiles(west, south, east, north, zooms)` with its geographic CRS set to
/// WGS 84 (morecantile's own default is the CRS's datum, OSGB 36 for EPSG:27700; Tegula's degrees
/// are WGS 84's everywhere). The grid itself is the set's (``TileMatrixSet``'s functions, in its
/// CRS): this adds the transformation alone, here because ``TegulaGeometry`` has no PROJ.
///
/// A point PROJ cannot transform becomes infinite, and an infinite point falls in the first column
/// or row, as morecantile's does. Holds PROJ handles: not shared between threads, make one per
/// worker (as ``CoordinateTransformation``).
public final class GeographicGrid {
    /// The set.
    public let tms: TileMatrixSet
    /// WGS 84 longitude/latitude to the set's CRS, x/y order (morecantile `_from_geographic`).
    let toGrid: CoordinateTransformation
    /// The set's CRS to WGS 84 (morecantile `_to_geographic`).
    let toDegrees: CoordinateTransformation
    /// The set's extent in degrees, its edges densified by 21 points (morecantile `bbox`); nil when
    /// PROJ cannot transform it.
    public let extentInDegrees: GeoBounds?

    /// Morecantile's nudge of a box's edges inward, in degrees (`LL_EPSILON`).
    static let boxEpsilon = 1e-11

    /// The grid of `tms`, its CRS read by PROJ from the set's `crs` URI; throws a ``GDALError``
    /// when PROJ does not know it or has no transformation from WGS 84.
    public init(_ tms: TileMatrixSet) throws {
        let crs = try SpatialReference(tms.crs), wgs84 = SpatialReference.wgs84()
        self.tms = tms
        toGrid = try CoordinateTransformation(from: wgs84, to: crs)
        toDegrees = try CoordinateTransformation(from: crs, to: wgs84)
        let e = tms.extent
        extentInDegrees = toDegrees.transformBounds((e.left, e.bottom, e.right, e.top)).map {
            GeoBounds(west: $0.left, south: $0.bottom, east: $0.right, north: $0.top)
        }
    }

    /// The point in the set's CRS of a coordinate (morecantile `xy`); infinite when PROJ cannot.
    public func point(of c: Coordinate) -> GridPoint {
        guard let p = toGrid.transform(c.longitude, c.latitude) else { return GridPoint(x: .infinity, y: .infinity) }
        return GridPoint(x: p.x, y: p.y)
    }

    /// The coordinate of a point in the set's CRS (morecantile `lnglat`); infinite when PROJ cannot.
    public func coordinate(of p: GridPoint) -> Coordinate {
        guard let c = toDegrees.transform(p.x, p.y) else { return Coordinate(longitude: .infinity, latitude: .infinity) }
        return Coordinate(longitude: c.x, latitude: c.y)
    }

    /// The tile at `zoom` holding a coordinate (morecantile `tile(lng, lat, zoom)`): its point in
    /// the CRS, clamped to the matrix, a column inside a coalesced tile snapped to its first.
    public func tile(containing c: Coordinate, zoom: Int) -> Tile {
        tms.tile(containing: point(of: c), zoom: zoom)
    }

    /// A tile's box in degrees (morecantile `bounds`): its upper-left and lower-right corners in
    /// the CRS transformed, so the box of a tile whose edges curve in degrees holds its corners, not
    /// all of it; west > east when the corners straddle the antimeridian.
    public func bounds(of t: Tile) -> GeoBounds {
        let b = tms.bounds(of: t)
        let nw = coordinate(of: GridPoint(x: b.left, y: b.top)), se = coordinate(of: GridPoint(x: b.right, y: b.bottom))
        return GeoBounds(west: nw.longitude, south: se.latitude, east: se.longitude, north: nw.latitude)
    }

    /// The tiles at `zoom` that a box in degrees covers, row by row, each coalesced tile once
    /// (morecantile `tiles`): the box clamped to ``extentInDegrees`` (west > east split at its
    /// edges), nudged inward by 1e-11°, its north-west and south-east corners' tiles and those
    /// between. None for a box with a NaN edge or a set PROJ gives no extent in degrees.
    public func tiles(covering box: GeoBounds, zoom: Int) -> [Tile] {
        tileRanges(covering: box, zoom: zoom).flatMap { tms.tiles(columns: $0.x, rows: $0.y, zoom: zoom) }
    }

    /// The blocks of columns and rows ``tiles(covering:zoom:)`` lists (two for a box across the
    /// antimeridian), before coalescence: what a plan needs without listing the tiles.
    public func tileRanges(covering box: GeoBounds, zoom: Int) -> [(x: ClosedRange<Int>, y: ClosedRange<Int>)] {
        guard let whole = extentInDegrees, ![box.west, box.south, box.east, box.north].contains(where: \.isNaN) else { return [] }
        let parts =
            box.crossesAntimeridian
            ? [
                GeoBounds(west: whole.west, south: box.south, east: box.east, north: box.north),
                GeoBounds(west: box.west, south: box.south, east: whole.east, north: box.north),
            ] : [box]
        return parts.map { tileRange(clampedTo: whole, $0, zoom: zoom) }
    }

    /// The block of one part of a box (not crossing the antimeridian), clamped to `whole`.
    func tileRange(clampedTo whole: GeoBounds, _ b: GeoBounds, zoom: Int) -> (x: ClosedRange<Int>, y: ClosedRange<Int>) {
        let e = Self.containsAntimeridian(b.east, whole.east) ? max(whole.east, b.east) : min(whole.east, b.east)
        let w = max(whole.west, b.west), s = max(whole.south, b.south), n = min(whole.north, b.north)
        let eps = Self.boxEpsilon
        let nw = tms.tile(containing: point(of: Coordinate(longitude: w + eps, latitude: n - eps)), zoom: zoom, snapToCoalesced: false)
        let se = tms.tile(containing: point(of: Coordinate(longitude: e - eps, latitude: s + eps)), zoom: zoom, snapToCoalesced: false)
        return (min(nw.x, se.x)...max(nw.x, se.x), min(nw.y, se.y)...max(nw.y, se.y))
    }

    /// Whether the antimeridian lies between two longitudes taken as 0…360 in the order given
    /// (morecantile `lons_contain_antimeridian`, which does not sort them).
    static func containsAntimeridian(_ a: Double, _ b: Double) -> Bool {
        let x = (max(-180, min(a, 180)) + 360).truncatingRemainder(dividingBy: 360)
        let y = (max(-180, min(b, 180)) + 360).truncatingRemainder(dividingBy: 360)
        return x < 180 && 180 < y
    }
}
