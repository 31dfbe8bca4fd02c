extension TileMatrixSet {
    /// One level's numbers as the grid functions read them, worked out once when the set is made:
    /// plain numbers, so that a call per tile (``TileMatrixSet/bounds(of:)`` under every tile of a
    /// pyramid, through ``Tile/projectedBounds``) copies no text or array of the ``TileMatrix``.
    struct LevelGrid: Hashable, Sendable {
        /// The point of origin in x/y order (``TileMatrixSet/origin(of:)``).
        var originX: Double, originY: Double
        /// The cell size, and the cells across and down one tile, as numbers.
        var cellSize: Double, tileWidth: Double, tileHeight: Double
        /// One tile's width and height in CRS units (``TileMatrix/tileSpanX``, `tileSpanY`).
        var spanX: Double, spanY: Double
        /// Tiles across and down.
        var matrixWidth: Int, matrixHeight: Int
        /// Rows counted from the top (a `topLeft` corner of origin).
        var fromTop: Bool
        /// Some rows' tiles are coalesced (``TileMatrix/variableMatrixWidths``): the grid functions
        /// then read the level itself.
        var coalesced: Bool
        /// The level halves the one above as a quadtree does, exactly: the same origin, corner and
        /// tile size, half the cell size, twice the tiles, no coalesced rows in either, so that a
        /// tile's parent is (x/2, y/2) and its children (2x…2x+1, 2y…2y+1), as ``Tile`` has them.
        var halvesAbove: Bool

        /// The numbers of `m`, whose point of origin is given northing first when `northingFirst`.
        init(_ m: TileMatrix, northingFirst: Bool) {
            let p = m.pointOfOrigin
            originX = northingFirst ? p[1] : p[0]
            originY = northingFirst ? p[0] : p[1]
            cellSize = m.cellSize
            tileWidth = Double(m.tileWidth)
            tileHeight = Double(m.tileHeight)
            spanX = m.tileSpanX
            spanY = m.tileSpanY
            matrixWidth = m.matrixWidth
            matrixHeight = m.matrixHeight
            fromTop = m.corner == .topLeft
            coalesced = m.variableMatrixWidths != nil
            halvesAbove = false
        }

        /// The numbers of every level of `levels` (sorted by zoom, consecutive).
        static func all(_ levels: [TileMatrix], northingFirst: Bool) -> [LevelGrid] {
            var grids = levels.map { LevelGrid($0, northingFirst: northingFirst) }
            for i in grids.indices.dropFirst() where Int(levels[i].id)! > 0 {
                grids[i].halvesAbove = grids[i].halves(grids[i - 1])
            }
            return grids
        }

        /// True when this level is `above` split in four, tile for tile, with no rounding.
        func halves(_ above: LevelGrid) -> Bool {
            originX == above.originX && originY == above.originY && fromTop == above.fromTop
                && cellSize * 2 == above.cellSize && tileWidth == above.tileWidth && tileHeight == above.tileHeight
                && matrixWidth == 2 * above.matrixWidth && matrixHeight == 2 * above.matrixHeight
                && !coalesced && !above.coalesced
        }
    }

    /// The numbers of the level at `zoom`, which the caller knows the set has.
    @inline(__always)
    func grid(_ zoom: Int) -> LevelGrid {
        let i = zoom - minZoom
        precondition(i >= 0 && i < levelGrids.count, "\(id) has zooms \(minZoom)–\(maxZoom), not \(zoom)")
        return levelGrids[i]
    }
}
