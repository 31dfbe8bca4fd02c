import TegulaGeometry

/// Plans in a tile matrix set other than Web Mercator's (`tegula tile --tms`): the same blocks
/// and halving, over the zooms of the set that nest as a quadtree does.
extension PyramidPlan {
    /// The plan of the tiles of `zooms` in `grid` that cover `bounds` (in the grid's CRS, x/y
    /// order), `tilePixels` a side: tile ranges from the set's grid functions at the max zoom
    /// (within the matrix), halved down to the min zoom. `zooms` must be one of
    /// ``quadtreeRuns(of:zooms:)``' runs, so that a tile's children are its four halves; throws
    /// when the box covers no tile.
    public init(grid: TileMatrixSet, bounds: GridBounds, zooms: ZoomRange, tilePixels: Int) throws {
        precondition(Self.quadtreeRuns(of: grid, zooms: zooms) == [zooms], "zooms \(zooms) of \(grid.id) do not nest as a quadtree")
        let whole = grid.extent
        guard bounds.left < whole.right, bounds.right > whole.left, bounds.bottom < whole.top, bounds.top > whole.bottom else {
            throw PyramidError(.badZooms, "the scan covers no tile of \(grid.id) (its extent is \(whole))")
        }
        let top = grid.tileRange(covering: bounds, zoom: zooms.max)
        self = PyramidPlan(grid: grid, zooms: zooms, tilePixels: tilePixels, top: top)
    }

    /// The plan from its max zoom's tile range (the ranges below it halved, as the Web Mercator
    /// plan makes them).
    private init(grid: TileMatrixSet, zooms: ZoomRange, tilePixels: Int, top: (x: ClosedRange<Int>, y: ClosedRange<Int>)) {
        self.zooms = zooms
        self.tilePixels = tilePixels
        blockZoom = max(zooms.min, zooms.max - 2)
        ranges = zooms.levels.map { z in
            let d = zooms.max - z
            return ((top.x.lowerBound >> d)...(top.x.upperBound >> d), (top.y.lowerBound >> d)...(top.y.upperBound >> d))
        }
        let br = ranges[blockZoom - zooms.min]
        var b: [Tile] = []
        for y in br.y { for x in br.x { b.append(Tile(x: x, y: y, z: blockZoom)) } }
        blocks = b.sorted { PyramidPlan.morton($0) < PyramidPlan.morton($1) }
        self.grid = grid
    }

    /// The grid of a block `side` pixels wide in a tile matrix set: its top-left corner in the
    /// set's CRS and its pixel size (the tile's box from the set's grid function over `side`).
    public static func blockGeometry(_ block: Tile, side: Int, in grid: TileMatrixSet) -> (
        left: Double, top: Double, resolution: Double, side: Int
    ) {
        let box = grid.bounds(of: block)
        return (box.left, box.top, box.width / Double(side), side)
    }

    /// `zooms` cut into runs of consecutive zooms that nest as a quadtree in `grid`, highest
    /// first: within a run each level halves the cell size of the one above and shares its
    /// origin (top-left), tile size and doubled matrix, with no coalesced rows. A run's lower
    /// zooms are built by halving; a zoom alone in its run is warped straight from the scan.
    public static func quadtreeRuns(of grid: TileMatrixSet, zooms: ZoomRange) -> [ZoomRange] {
        var runs: [ZoomRange] = []
        var top = zooms.max
        for z in zooms.levels.reversed() where z == zooms.min || !nests(grid, z) {
            runs.append(ZoomRange(min: z, max: top)!)
            top = z - 1
        }
        return runs
    }

    /// True when zoom `z` of `grid` is the quadtree parent level of `z` − 1's children: level
    /// z − 1 and z nest (see ``quadtreeRuns(of:zooms:)``).
    static func nests(_ grid: TileMatrixSet, _ z: Int) -> Bool {
        guard z > grid.minZoom, let a = try? grid.matrix(zoom: z - 1), let b = try? grid.matrix(zoom: z) else { return false }
        let oa = grid.origin(of: a), ob = grid.origin(of: b)
        let halves = abs(b.cellSize * 2 - a.cellSize) <= 1e-9 * a.cellSize
        let aligned = abs(oa.x - ob.x) <= 1e-6 * b.cellSize && abs(oa.y - ob.y) <= 1e-6 * b.cellSize
        return halves && aligned && a.corner == .topLeft && b.corner == .topLeft
            && a.tileWidth == b.tileWidth && a.tileHeight == b.tileHeight && a.tileWidth == a.tileHeight
            && b.matrixWidth == 2 * a.matrixWidth && b.matrixHeight == 2 * a.matrixHeight
            && a.variableMatrixWidths == nil && b.variableMatrixWidths == nil
    }
}
