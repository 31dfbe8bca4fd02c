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
extension TileMatrixSet {
    /// The tile at `zoom` holding a point (morecantile `_tile`); with `snapToCoalesced`, a column
    /// inside a coalesced tile becomes that tile's first (morecantile `tile`'s default).
    public func tile(containing p: GridPoint, zoom: Int, snapToCoalesced: Bool = true) -> Tile {
        let m = level(zoom), o = origin(of: m)
        let fromTop = m.corner == .topLeft ? o.y - p.y : p.y - o.y
        let row = Self.index(fromTop, span: m.tileSpanY, count: m.matrixHeight, infinite: p.y.isInfinite)
        var column = Self.index(p.x - o.x, span: m.tileSpanX, count: m.matrixWidth, infinite: p.x.isInfinite)
        if snapToCoalesced { column = m.coalescedColumn(column, row: row) }
        return Tile(x: column, y: row, z: zoom)
    }

    /// floor(offset / span), clamped to 0..<count; 0 for an infinite or NaN offset.
    static func index(_ offset: Double, span: Double, count: Int, infinite: Bool) -> Int {
        let i = (offset / span).rounded(.down)
        if infinite || i.isNaN || i < 0 { return 0 }
        return i >= Double(count) ? count - 1 : Int(i)
    }

    /// A tile's box in the set's CRS (morecantile `xy_bounds`); a coalesced tile's box spans its
    /// columns.
    public func bounds(of t: Tile) -> GridBounds {
        let m = level(t.z), o = origin(of: m)
        let cf = m.coalesce(row: t.y)
        let left = o.x + Double(t.x / cf) * m.cellSize * Double(cf) * Double(m.tileWidth)
        let right = left + m.cellSize * Double(cf) * Double(m.tileWidth)
        if m.corner == .topLeft {
            let top = o.y - Double(t.y) * m.cellSize * Double(m.tileHeight)
            return GridBounds(left: left, bottom: top - m.tileSpanY, right: right, top: top)
        }
        let bottom = o.y + Double(t.y) * m.cellSize * Double(m.tileHeight)
        return GridBounds(left: left, bottom: bottom, right: right, top: bottom + m.tileSpanY)
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

    /// The tiles of a block of columns and rows, row by row, each coalesced tile once.
    func tiles(columns: ClosedRange<Int>, rows: ClosedRange<Int>, zoom: Int) -> [Tile] {
        let m = level(zoom)
        var result: [Tile] = []
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
        t.z > minZoom ? overlapping(t, atZoom: t.z - 1) : []
    }

    /// The tiles one zoom down inside this one (morecantile `children`): four in a quadtree, rows
    /// first (top-left, top-right, then the next row); empty at the last zoom.
    public func children(of t: Tile) -> [Tile] {
        t.z < maxZoom ? overlapping(t, atZoom: t.z + 1) : []
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
