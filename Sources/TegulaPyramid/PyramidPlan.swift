import TegulaGeometry

/// Which tiles a pyramid holds and how the work is cut: max-zoom tiles are warped in square
/// blocks of `blockTiles` × `blockTiles` tiles, each block being one tile at ``blockZoom``;
/// zooms below that are built from children.
public struct PyramidPlan: Sendable {
    /// The plan's zooms.
    public let zooms: ZoomRange
    /// Pixels per tile side (256 or 512).
    public let tilePixels: Int
    public let blockZoom: Int
    /// Tile ranges per zoom, index = zoom − the lowest zoom.
    public let ranges: [(x: ClosedRange<Int>, y: ClosedRange<Int>)]
    /// The blocks (tiles at ``blockZoom``) in Morton order, so siblings finish together and
    /// their parents can be built and released early.
    public let blocks: [Tile]
    /// The tile matrix set the tiles are in when it is not Web Mercator's (a plan of
    /// ``init(grid:bounds:zooms:tilePixels:)``); nil for EPSG:3857's grid.
    public internal(set) var grid: TileMatrixSet? = nil

    /// The plan of the tiles of `zooms` that cover `bounds`, `tilePixels` a side. Throws when
    /// `bounds` covers no tile at the max zoom.
    public init(bounds: ProjectedBounds, zooms: ZoomRange, tilePixels: Int) throws {
        self.zooms = zooms
        self.tilePixels = tilePixels
        blockZoom = max(zooms.min, zooms.max - 2)
        guard let top = TileGrid.tileRange(covering: bounds, zoom: zooms.max) else {
            throw PyramidError(.badZooms, "the scan covers no tile at zoom \(zooms.max)")
        }
        var r: [(x: ClosedRange<Int>, y: ClosedRange<Int>)] = []
        for z in zooms.levels {
            let d = zooms.max - z
            r.append(((top.x.lowerBound >> d)...(top.x.upperBound >> d), (top.y.lowerBound >> d)...(top.y.upperBound >> d)))
        }
        ranges = r
        let br = r[blockZoom - zooms.min]
        var b: [Tile] = []
        for y in br.y { for x in br.x { b.append(Tile(x: x, y: y, z: blockZoom)) } }
        blocks = b.sorted { PyramidPlan.morton($0) < PyramidPlan.morton($1) }
    }

    /// Tiles per block side at the max zoom.
    public var blockTiles: Int { 1 << (zooms.max - blockZoom) }

    /// Where a block is warped: its top-left corner in EPSG:3857 metres, its pixel size and its
    /// side in pixels at the max zoom (the pyramid's blocks and the tiles rendered on demand
    /// share this, so their transform grids are the same).
    public func blockGeometry(_ block: Tile) -> (left: Double, top: Double, resolution: Double, side: Int) {
        if let grid { return PyramidPlan.blockGeometry(block, side: tilePixels * blockTiles, in: grid) }
        return PyramidPlan.blockGeometry(block, side: tilePixels * blockTiles)
    }

    /// The EPSG:3857 grid of a block `side` pixels wide: its top-left corner and pixel size (the
    /// pyramid's blocks, the composite's and a tile rendered on demand all warp on it).
    public static func blockGeometry(_ block: Tile, side: Int) -> (left: Double, top: Double, resolution: Double, side: Int) {
        let box = block.projectedBounds
        return (box.left, box.top, WebMercator.tileExtent(zoom: block.z) / Double(side), side)
    }

    /// The block (tile at ``blockZoom``) a tile at or above the block zoom is cut from; nil for
    /// tiles below it or whose block is outside the plan. Blocks reach past the planned range at
    /// their edges, and the pyramid writes what they hold there too.
    public func block(of t: Tile) -> Tile? {
        guard t.z >= blockZoom, t.z <= zooms.max else { return nil }
        let b = t.ancestor(atZoom: blockZoom)
        return contains(b) ? b : nil
    }

    /// The tile range at `zoom`.
    public func range(_ zoom: Int) -> (x: ClosedRange<Int>, y: ClosedRange<Int>) { ranges[zoom - zooms.min] }

    /// True when the tile is inside the planned range of its zoom.
    public func contains(_ t: Tile) -> Bool {
        guard t.z >= zooms.min, t.z <= zooms.max else { return false }
        let r = range(t.z)
        return r.x.contains(t.x) && r.y.contains(t.y)
    }

    /// How many tile positions the plan covers (an upper bound on tiles written).
    public var tilePositions: Int {
        ranges.reduce(0) { $0 + $1.x.count * $1.y.count }
    }

    /// Interleaved bits of x and y: the Z-order curve.
    static func morton(_ t: Tile) -> UInt64 {
        var m: UInt64 = 0
        for bit in 0..<31 {
            m |= UInt64((t.x >> bit) & 1) << UInt64(2 * bit)
            m |= UInt64((t.y >> bit) & 1) << UInt64(2 * bit + 1)
        }
        return m
    }
}
