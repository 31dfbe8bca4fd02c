import Foundation
import TegulaGeometry
import TegulaTileset

/// The grid a tileset is served in by WMTS and OGC API – Tiles: its tile matrix set as its tiles
/// are (``tileMatrixSet``) and, for each of its zooms, the columns and rows it has tiles in
/// (``limits``, TMS 2.0 `TileMatrixSetLimits`), rows counted from the set's corner of origin.
public struct ServedGrid: Sendable, Equatable {
    /// The set the tiles are cut in; for Web Mercator tiles of another size than 256 px (TileJSON
    /// `tile_size` times `scale`: `--tile-size 512` or `--scale 2` make 512 px tiles on the same
    /// z/x/y), WebMercatorQuad with that tile size (``sized(_:tileSize:)``).
    public let tileMatrixSet: TileMatrixSet
    /// One entry per zoom of the tileset, lowest first.
    public let limits: [TileMatrixLimits]

    /// The grid of a catalogue entry: its folder's `tms.json` and the tiles found there, else
    /// WebMercatorQuad and the tiles its bounds cover (as `tegula tile` cuts them).
    public init(_ e: CatalogueEntry) {
        let m = e.metadata
        if let own = e.tileMatrixSet {
            tileMatrixSet = own
            limits = e.tileLimits ?? Self.wholeMatrices(own, zooms: m.zooms.levels)
        } else {
            tileMatrixSet = Self.sized(.webMercatorQuad, tileSize: m.tileSize * m.scale)
            limits = m.zooms.levels.map { Self.webMercatorLimits(m.bounds, zoom: $0) }
        }
    }

    init(tileMatrixSet: TileMatrixSet, limits: [TileMatrixLimits]) {
        self.tileMatrixSet = tileMatrixSet
        self.limits = limits
    }

    /// The same grid with its set served under another identifier.
    func renamed(_ id: String) -> ServedGrid {
        var set = tileMatrixSet
        set.id = id
        return ServedGrid(tileMatrixSet: set, limits: limits)
    }

    /// A row counted from the top as the set counts it, or back (the same flip both ways): WMTS
    /// 1.0.0 counts rows from the top left only, a set may count them from the bottom.
    func flippedRow(_ row: Int, zoom: Int) -> Int {
        guard let m = try? tileMatrixSet.matrix(zoom: zoom), m.corner == .bottomLeft else { return row }
        return m.matrixHeight - 1 - row
    }

    /// The limits at `zoom`; nil when the tileset has no tiles there.
    public func limits(zoom: Int) -> TileMatrixLimits? { limits.first { $0.zoom == zoom } }

    /// True when the tileset may have the tile: a zoom it has, the column and row within its limits.
    public func covers(zoom: Int, column: Int, row: Int) -> Bool {
        guard let l = limits(zoom: zoom) else { return false }
        return l.columns.contains(column) && l.rows.contains(row)
    }

    /// The columns and rows of WebMercatorQuad at `zoom` that a box in degrees covers, by the
    /// pyramid's rule (``TileGrid/tileRange(covering:zoom:)`` of the projected box); a box across
    /// the antimeridian covers every column.
    static func webMercatorLimits(_ b: GeoBounds, zoom: Int) -> TileMatrixLimits {
        let last = (1 << zoom) - 1
        var box = WebMercator.project(b)
        if b.crossesAntimeridian { (box.left, box.right) = (-WebMercator.halfCircumference, WebMercator.halfCircumference) }
        guard let r = TileGrid.tileRange(covering: box, zoom: zoom) else { return TileMatrixLimits(zoom: zoom, columns: 0...last, rows: 0...last) }
        return TileMatrixLimits(zoom: zoom, columns: r.x, rows: r.y)
    }

    /// Every tile of the set's matrices at `zooms`.
    static func wholeMatrices(_ tms: TileMatrixSet, zooms: ClosedRange<Int>) -> [TileMatrixLimits] {
        zooms.filter(tms.zooms.contains).map { z in
            let l = tms.limits(zoom: z)
            return TileMatrixLimits(zoom: z, columns: l.x, rows: l.y)
        }
    }

    /// `tms` with tiles of `tileSize` px covering the same ground: cells that much finer, its id
    /// marked (`WebMercatorQuad@2x` for 512 px tiles); `tms` itself when its tiles are that size.
    public static func sized(_ tms: TileMatrixSet, tileSize: Int) -> TileMatrixSet {
        guard let first = tms.tileMatrices.first, first.tileWidth != tileSize, tileSize > 0 else { return tms }
        let factor = Double(tileSize) / Double(first.tileWidth)
        let levels = tms.tileMatrices.map { m in
            var m = m
            m.cellSize /= factor
            m.scaleDenominator /= factor
            m.tileWidth = Int((Double(m.tileWidth) * factor).rounded())
            m.tileHeight = Int((Double(m.tileHeight) * factor).rounded())
            return m
        }
        let mark = factor == factor.rounded() ? "@\(Int(factor))x" : "@\(tileSize)px"
        return try! TileMatrixSet(
            id: tms.id + mark, title: tms.title.map { "\($0), \(tileSize) px tiles" }, crs: tms.crs, orderedAxes: tms.orderedAxes,
            tileMatrices: levels)
    }
}

/// The columns and rows one zoom of a tileset has tiles in (TMS 2.0 `tileMatrixLimits`), rows
/// counted from the set's corner of origin.
public struct TileMatrixLimits: Sendable, Equatable {
    /// The zoom: the tile matrix's identifier.
    public var zoom: Int
    /// The first to the last column.
    public var columns: ClosedRange<Int>
    /// The first to the last row.
    public var rows: ClosedRange<Int>

    /// Limits of columns and rows at `zoom`.
    public init(zoom: Int, columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
        self.zoom = zoom
        self.columns = columns
        self.rows = rows
    }
}
