import Foundation

/// The grid functions of a ``TileMatrixSet``, in its CRS (x/y order), as morecantile's
/// `_tile`, `xy_bounds`, `tiles`, `parent`, `children` and `minmax` compute them.
///
/// Edges, decided here once:
/// - A point exactly on a boundary between two tiles belongs to the tile right of it (or below
///   it, for a top-left origin): floor((x − origin) / span). Points beyond the matrix clamp to its
///   first or last column or row.
/// - A tile's left and top (or bottom, for a bottom-left origin) edges are origin + index × span
///   in morecantile's order of operations, so they equal morecantile's to the bit; the opposite
///   edges are that edge plus one span, as ``Tile/projectedBounds`` has always computed them for
///   Web Mercator (morecantile counts them from index + 1: the two differ by at most an ulp).
/// - In a row of coalesced tiles (``TileMatrix/variableMatrixWidths``) a tile is named by its first
///   column and spans `coalesce` columns.
///
/// Web Mercator's grid is one instance: ``TileGrid`` and ``Tile``'s `projectedBounds` call these
/// functions on ``TileMatrixSet/webMercatorQuad``, and this set's parents and children are
/// ``Tile``'s quadtree wherever a level halves the one above (``LevelGrid/halvesAbove``).
extension TileMatrixSet {
    /// The tile at `zoom` holding a point (morecantile `_tile`); with `snapToCoalesced`, a column
    /// inside a coalesced tile becomes that tile's first (morecantile `tile`'s default).
    public func tile(containing p: GridPoint, zoom: Int, snapToCoalesced: Bool = true) -> Tile {
        let g = grid(zoom)
        let fromOrigin = g.fromTop ? g.originY - p.y : p.y - g.originY
        let row = p.y.isInfinite ? 0 : Self.clamped((fromOrigin / g.spanY).rounded(.down), count: g.matrixHeight)
        var column = p.x.isInfinite ? 0 : Self.clamped(((p.x - g.originX) / g.spanX).rounded(.down), count: g.matrixWidth)
        if snapToCoalesced && g.coalesced { column = level(zoom).coalescedColumn(column, row: row) }
        return Tile(x: column, y: row, z: zoom)
    }

    /// The tile at `zoom` at a position given as fractions of the matrix, counted from its corner
    /// of origin: `x` across (0 at the first column's edge, 1 at the last one's far edge), `y` from
    /// the first row's edge. floor(fraction × tiles), clamped as ``tile(containing:zoom:snapToCoalesced:)``
    /// clamps (NaN to 0); coalesced tiles are not snapped. ``TileGrid`` finds Web Mercator's tile of
    /// a longitude and latitude so, from mercantile's fractions.
    public func tile(atFraction x: Double, _ y: Double, zoom: Int) -> Tile {
        let g = grid(zoom)
        let column = Self.clamped((x * Double(g.matrixWidth)).rounded(.down), count: g.matrixWidth)
        return Tile(x: column, y: Self.clamped((y * Double(g.matrixHeight)).rounded(.down), count: g.matrixHeight), z: zoom)
    }

    /// A whole number of tiles `i` as an index into 0..<count: 0 for NaN or below, count − 1 at or
    /// above count.
    @inline(__always)
    static func clamped(_ i: Double, count: Int) -> Int {
        if i.isNaN || i < 0 { return 0 }
        return i >= Double(count) ? count - 1 : Int(i)
    }

    /// A tile's box in the set's CRS (morecantile `xy_bounds`); a coalesced tile's box spans its
    /// columns.
    public func bounds(of t: Tile) -> GridBounds {
        let g = grid(t.z)
        // A coalesced tile: its first column, `cf` columns wide (× 1 is exact, so cf = 1 is the plain case).
        let cf = g.coalesced ? level(t.z).coalesce(row: t.y) : 1
        let left = g.originX + Double(t.x / cf) * g.cellSize * Double(cf) * g.tileWidth
        let right = left + g.cellSize * Double(cf) * g.tileWidth
        if g.fromTop {
            let top = g.originY - Double(t.y) * g.cellSize * g.tileHeight
            return GridBounds(left: left, bottom: top - g.spanY, right: right, top: top)
        }
        let bottom = g.originY + Double(t.y) * g.cellSize * g.tileHeight
        return GridBounds(left: left, bottom: bottom, right: right, top: bottom + g.spanY)
    }

    /// The columns and rows of the matrix at `zoom` (morecantile `minmax`).
    public func limits(zoom: Int) -> (x: ClosedRange<Int>, y: ClosedRange<Int>) {
        let m = level(zoom)
        return (0...(m.matrixWidth - 1), 0...(m.matrixHeight - 1))
    }

    /// True when the set has the tile: its zoom, a column and row inside the matrix.
    public func contains(_ t: Tile) -> Bool {
        guard zooms.contains(t.z) else { return false }
        let l = limits(zoom: t.z)
        return l.x.contains(t.x) && l.y.contains(t.y)
    }

    /// The whole grid's box in its CRS: the first level's matrix (morecantile `xy_bbox`, for a
    /// top-left origin).
    public var extent: GridBounds {
        let m = level(minZoom), o = origin(of: m)
        let width = Double(m.matrixWidth) * m.tileSpanX, height = Double(m.matrixHeight) * m.tileSpanY
        let bottom = m.corner == .topLeft ? o.y - height : o.y
        return GridBounds(left: o.x, bottom: bottom, right: o.x + width, top: bottom + height)
    }

    // MARK: Covering

    /// Nudge applied inward to a box's edges so that a tile's own bounds cover only that tile
    /// (morecantile's LL_EPSILON, in CRS units here).
    static let boxEpsilon = 1e-11

    /// The columns and rows at `zoom` that a box touches, clamped to the grid (before coalescence).
    public func tileRange(covering b: GridBounds, zoom: Int) -> (x: ClosedRange<Int>, y: ClosedRange<Int>) {
        let whole = extent
        let w = max(whole.left, b.left) + Self.boxEpsilon, n = min(whole.top, b.top) - Self.boxEpsilon
        let e = min(whole.right, b.right) - Self.boxEpsilon, s = max(whole.bottom, b.bottom) + Self.boxEpsilon
        let nw = tile(containing: GridPoint(x: w, y: n), zoom: zoom, snapToCoalesced: false)
        let se = tile(containing: GridPoint(x: e, y: s), zoom: zoom, snapToCoalesced: false)
        return (min(nw.x, se.x)...max(nw.x, se.x), min(nw.y, se.y)...max(nw.y, se.y))
    }

    /// The tiles at `zoom` overlapping a box in the set's CRS, row by row (morecantile `tiles`
    /// given the set's own CRS); a coalesced tile is listed once, by its first column. A box
    /// outside the grid covers no tile (morecantile clamps it to the edge tiles).
    public func tiles(covering b: GridBounds, zoom: Int) -> [Tile] {
        let whole = extent
        guard b.left < whole.right, b.right > whole.left, b.bottom < whole.top, b.top > whole.bottom else { return [] }
        let r = tileRange(covering: b, zoom: zoom)
        return tiles(columns: r.x, rows: r.y, zoom: zoom)
    }

    /// The columns and rows at `zoom` that a box touches, clamped to the grid (before coalescence),
    /// or nil when it does not overlap the grid. An edge within 1e-9 of a tile of a tile boundary
    /// counts as on it, so a tile's own bounds touch that tile alone at any zoom and any distance
    /// from the origin (``tileRange(covering:zoom:)``'s 1e-11 CRS units, morecantile's, vanish in
    /// the rounding of coordinates in the millions). The rule the pyramid plans Web Mercator with
    /// (``TileGrid/tileRange(covering:zoom:)``).
    public func tileRange(touching b: GridBounds, zoom: Int) -> (x: ClosedRange<Int>, y: ClosedRange<Int>)? {
        guard let box = b.intersection(extent) else { return nil }
        let g = grid(zoom)
        let rowEdges = g.fromTop ? (g.originY - box.top, g.originY - box.bottom) : (box.bottom - g.originY, box.top - g.originY)
        guard let x = Self.touched(box.left - g.originX, box.right - g.originX, span: g.spanX, count: g.matrixWidth),
            let y = Self.touched(rowEdges.0, rowEdges.1, span: g.spanY, count: g.matrixHeight)
        else { return nil }
        return (x, y)
    }

    /// The indices a span from `low` to `high` (offsets from the origin) touches along one axis,
    /// edges within 1e-9 of a tile counted on the boundary, clamped to 0..<count; nil when none.
    static func touched(_ low: Double, _ high: Double, span: Double, count: Int) -> ClosedRange<Int>? {
        let eps = 1e-9
        let first = Int((low / span + eps).rounded(.down)), last = Int((high / span - eps).rounded(.up)) - 1
        let a = min(max(first, 0), count - 1), b = min(max(last, 0), count - 1)
        return a <= b ? a...b : nil
    }

    /// The tiles of a block of columns and rows, row by row (or column by column, mercantile's
    /// order, when `byColumn`), each coalesced tile once (by its first column).
    public func tiles(columns: ClosedRange<Int>, rows: ClosedRange<Int>, zoom: Int, byColumn: Bool = false) -> [Tile] {
        let m = level(zoom)
        var result: [Tile] = []
        if byColumn {
            for x in columns {
                for y in rows where x % m.coalesce(row: y) == 0 { result.append(Tile(x: x, y: y, z: zoom)) }
            }
            return result
        }
        for y in rows {
            let cf = m.coalesce(row: y)
            for x in columns where x % cf == 0 { result.append(Tile(x: x, y: y, z: zoom)) }
        }
        return result
    }

    // MARK: Hierarchy

    /// The tiles one zoom up that hold this one: one in a quadtree, more where levels do not nest
    /// (morecantile `parent`); empty at the first zoom.
    public func parents(of t: Tile) -> [Tile] {
        guard t.z > minZoom else { return [] }
        return grid(t.z).halvesAbove ? [t.ancestor(atZoom: t.z - 1)] : overlapping(t, atZoom: t.z - 1)
    }

    /// The tiles one zoom down inside this one (morecantile `children`): four in a quadtree, rows
    /// first (top-left, top-right, then the next row); empty at the last zoom.
    public func children(of t: Tile) -> [Tile] {
        guard t.z < maxZoom else { return [] }
        guard grid(t.z + 1).halvesAbove else { return overlapping(t, atZoom: t.z + 1) }
        let c = t.children  // mercantile's order, clockwise: top-left, top-right, bottom-right, bottom-left
        return [c[0], c[1], c[3], c[2]]
    }

    /// The tiles at `zoom` overlapping a tile's box shrunk by a tenth of its cell, as morecantile
    /// finds parents and children.
    func overlapping(_ t: Tile, atZoom zoom: Int) -> [Tile] {
        let b = bounds(of: t), inset = level(t.z).cellSize / 10
        let ul = tile(containing: GridPoint(x: b.left + inset, y: b.top - inset), zoom: zoom, snapToCoalesced: false)
        let lr = tile(containing: GridPoint(x: b.right - inset, y: b.bottom + inset), zoom: zoom, snapToCoalesced: false)
        return tiles(columns: min(ul.x, lr.x)...max(ul.x, lr.x), rows: min(ul.y, lr.y)...max(ul.y, lr.y), zoom: zoom)
    }
}
