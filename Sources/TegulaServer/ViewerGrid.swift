import Foundation
import TegulaGeometry
import TegulaGeoreference

/// What the viewer's script needs to show a tileset cut in another tile matrix set than
/// WebMercatorQuad in that set's own CRS (`Pages/viewer-crs.js` makes a Leaflet CRS of it, with no
/// library beside Leaflet): the set's levels as Leaflet's tile grid reads them, the tileset's
/// columns and rows at each zoom, and the CRS's projection.
///
/// Tiles are placed by the levels alone (top-left corner and cell size in CRS units), exactly.
/// The projection places what is given in degrees (the view's centre, footprints, GCP pins, a
/// click's position): Leaflet's own longitude/latitude projection when the CRS's x and y are WGS
/// 84's longitude and latitude (WorldCRS84Quad, WGS1984Quad), else two grids of PROJ's
/// transformation sampled at ``cells`` × ``cells`` cells (degrees → CRS, and CRS → degrees) over
/// the tilesets of the set and as much again around them, which the page interpolates bilinearly
/// (and extrapolates from the edge cells beyond).
struct ViewerGrid: Encodable, Sendable {
    /// One level: its zoom, cell size, the top-left corner of its matrix in CRS units (x/y), tile
    /// size, rows, whether rows are counted from the bottom, and the tileset's columns and rows
    /// there (first and last, rows counted from the set's corner).
    struct Level: Encodable, Sendable {
        var z: Int
        var cellSize: Double
        var left: Double
        var top: Double
        var tileSize: Int
        var matrixHeight: Int
        var bottomLeft: Bool
        var columns: [Int]?
        var rows: [Int]?
    }

    /// A transformation sampled on a regular grid: `box` (min x, min y, max x, max y of the
    /// input), `count` cells a side, and the outputs of the (count + 1)² corners, x and y, row by
    /// row from the box's min y, each row from its min x.
    struct Samples: Encodable, Sendable {
        var box: [Double]
        var count: Int
        var values: [Double]
    }

    /// The set's identifier as WMTS and OGC API – Tiles serve it (the page shows one set at a
    /// time, `?tms=ID`).
    var id: String
    var crs: String
    var levels: [Level]
    /// Degrees (longitude, latitude) to the CRS's x/y; nil when they are the same numbers.
    var toCRS: Samples?
    /// The CRS's x/y to degrees; nil with ``toCRS``.
    var toDegrees: Samples?

    /// Cells a side of each sampled transformation.
    static let cells = 32

    /// The grids of the catalogue's tilesets in other sets than WebMercatorQuad, by entry id,
    /// the projection of each set sampled once over all of its tilesets. A set PROJ cannot
    /// transform (or not over its tilesets) is left out: its tilesets are not in the viewer.
    static func all(_ c: Catalogue) -> [String: ViewerGrid] {
        let gridded = ServedLayers(c).layers.filter { $0.entry.tileMatrixSet != nil }
        var out: [String: ViewerGrid] = [:]
        for (tms, group) in Dictionary(grouping: gridded, by: { $0.grid.tileMatrixSet }) {
            guard let projection = try? projection(tms, around: group.map { $0.entry.metadata.bounds }) else { continue }
            for l in group {
                out[l.entry.id] = ViewerGrid(
                    id: l.setID, crs: tms.crs, levels: tms.zooms.map { level(tms, $0, limits: l.grid.limits) },
                    toCRS: projection.toCRS, toDegrees: projection.toDegrees)
            }
        }
        return out
    }

    /// The template of a tileset's tiles in this grid: its OGC API – Tiles path
    /// (`/ogcapi/collections/{id}/map/tiles/{set}/{z}/{y}/{x}`, `y` the row from the set's corner,
    /// `x` the column), since the XYZ paths name Web Mercator's tiles alone (x, y below 2^z); for
    /// tiles made on request `?v=VERSION`, as ``TileService/tilePathTemplate(_:)``.
    func tilePathTemplate(_ e: CatalogueEntry) -> String {
        let version = e.dynamic.map { "?v=" + $0.version } ?? ""
        return "/\(OGCAPIResource.prefix)/collections/\(OGCAPITiles.pathSegment(e.id))/map/tiles/\(OGCAPITiles.pathSegment(id))/{z}/{y}/{x}"
            + version
    }

    /// Level `z` of `tms` with the tileset's limits there.
    static func level(_ tms: TileMatrixSet, _ z: Int, limits: [TileMatrixLimits]) -> Level {
        let m = try! tms.matrix(zoom: z), o = tms.origin(of: m)
        let top = m.corner == .topLeft ? o.y : o.y + Double(m.matrixHeight) * m.tileSpanY
        let l = limits.first { $0.zoom == z }
        return Level(
            z: z, cellSize: m.cellSize, left: o.x, top: top, tileSize: m.tileWidth, matrixHeight: m.matrixHeight,
            bottomLeft: m.corner == .bottomLeft, columns: l.map { [$0.columns.lowerBound, $0.columns.upperBound] },
            rows: l.map { [$0.rows.lowerBound, $0.rows.upperBound] })
    }

    /// The sampled projection of `tms` over `boxes` and as much again on each side (within the
    /// set's extent in degrees); none when the CRS's x/y are longitude and latitude. Throws
    /// when PROJ cannot transform every sample.
    static func projection(_ tms: TileMatrixSet, around boxes: [GeoBounds]) throws -> (toCRS: Samples?, toDegrees: Samples?) {
        let grid = try GeographicGrid(tms)
        if isLongitudeLatitude(grid) { return (nil, nil) }
        let box = sampledBox(boxes, within: grid.extentInDegrees)
        let toCRS = try sample(box) { x, y in
            let p = grid.point(of: Coordinate(longitude: x, latitude: y))
            return (p.x, p.y)
        }
        let xs = stride(from: 0, to: toCRS.values.count, by: 2).map { toCRS.values[$0] }
        let ys = stride(from: 1, to: toCRS.values.count, by: 2).map { toCRS.values[$0] }
        let toDegrees = try sample([xs.min()!, ys.min()!, xs.max()!, ys.max()!]) { x, y in
            let c = grid.coordinate(of: GridPoint(x: x, y: y))
            return (c.longitude, c.latitude)
        }
        return (toCRS, toDegrees)
    }

    /// True when the set's x/y are the degrees themselves (to 1e-9°) at a few points.
    static func isLongitudeLatitude(_ grid: GeographicGrid) -> Bool {
        [(0.0, 0.0), (10, 45), (-120, -30), (170, 80)].allSatisfy { lon, lat in
            let p = grid.point(of: Coordinate(longitude: lon, latitude: lat))
            return abs(p.x - lon) < 1e-9 && abs(p.y - lat) < 1e-9
        }
    }

    /// The union of `boxes` grown by its width and height on each side, within `extent` (and
    /// ±180°, ±89°): west, south, east, north.
    static func sampledBox(_ boxes: [GeoBounds], within extent: GeoBounds?) -> [Double] {
        let w = boxes.map(\.west).min()!, s = boxes.map(\.south).min()!
        let e = boxes.map(\.east).max()!, n = boxes.map(\.north).max()!
        let dx = max(e - w, 1e-3), dy = max(n - s, 1e-3)
        let limit = extent ?? GeoBounds(west: -180, south: -89, east: 180, north: 89)
        return [
            max(w - dx, limit.west, -180), max(s - dy, limit.south, -89),
            min(e + dx, limit.east, 180), min(n + dy, limit.north, 89),
        ]
    }

    /// `f` at the corners of ``cells`` × ``cells`` cells over `box`; throws when a value is not finite.
    static func sample(_ box: [Double], _ f: (Double, Double) -> (Double, Double)) throws -> Samples {
        let n = cells
        var values: [Double] = []
        values.reserveCapacity(2 * (n + 1) * (n + 1))
        for j in 0...n {
            let y = box[1] + (box[3] - box[1]) * Double(j) / Double(n)
            for i in 0...n {
                let (u, v) = f(box[0] + (box[2] - box[0]) * Double(i) / Double(n), y)
                guard u.isFinite, v.isFinite else { throw SampleFailure() }
                values += [u, v]
            }
        }
        return Samples(box: box, count: n, values: values)
    }

    /// A sample PROJ could not transform.
    struct SampleFailure: Error {}
}
