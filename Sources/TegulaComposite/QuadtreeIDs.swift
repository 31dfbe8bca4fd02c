import TegulaGeometry
import TegulaTileset

/// How a composite names the tiles of its tile matrix set by PMTiles ids (``PMTilesID``, a
/// quadtree from one tile at zoom 0): the set's tile at column x, row y of zoom z is the
/// quadtree's tile x, y at zoom z + ``depth``. Its blocks, the shards' runs of cut tiles, the
/// parts' packs and the parents built above them all go by these ids. WebMercatorQuad and the
/// sets whose zoom z is at most 2^z tiles a side (UTM31WGS84Quad, a `tegula grid --tms-from`
/// set) have depth 0, PMTiles' own ids; WorldCRS84Quad, 2 × 1 tiles at zoom 0, has depth 1:
/// its zoom z is the top half of the quadtree's zoom z + 1. A tile's parent, x/2 and y/2 a zoom
/// up, is the same in both, so zooms that nest as one quadtree run
/// (``PyramidPlan/quadtreeRuns(of:zooms:)``) keep their subtrees whole under the ids.
public struct QuadtreeIDs: Sendable, Hashable {
    /// How many zooms the quadtree's zoom lies below the set's.
    public let depth: Int

    /// PMTiles' own ids: EPSG:3857's grid, and any set that is a quadtree from one tile.
    public static let pmTiles = QuadtreeIDs(depth: 0)

    init(depth: Int) { self.depth = depth }

    /// The ids of `zooms` of `grid`: the least depth at which each zoom's matrix fits in the
    /// quadtree's zoom (at most 2^(z + depth) tiles a side); nil when the max zoom would then lie
    /// past zoom 31, the last PMTiles ids name, or `zooms` are not the set's.
    public init?(grid: TileMatrixSet, zooms: ZoomRange) {
        guard grid.zooms.contains(zooms.min), grid.zooms.contains(zooms.max) else { return nil }
        var depth = 0
        for z in zooms.levels {
            let m = grid.tileMatrices[z - grid.minZoom]
            while z + depth <= 31, max(m.matrixWidth, m.matrixHeight) > 1 << (z + depth) { depth += 1 }
        }
        guard zooms.max + depth <= 31 else { return nil }
        self.depth = depth
    }

    /// The quadtree's tile that a tile of the set is.
    public func quadtreeTile(_ t: Tile) -> Tile { Tile(x: t.x, y: t.y, z: t.z + depth) }

    /// The set's tile that a tile of the quadtree is.
    public func gridTile(_ q: Tile) -> Tile { Tile(x: q.x, y: q.y, z: q.z - depth) }

    /// The quadtree's zoom of the set's zoom `z`.
    public func quadtreeZoom(_ z: Int) -> Int { z + depth }

    /// The id of a tile of the set.
    public func id(of t: Tile) -> UInt64 { PMTilesID.id(of: quadtreeTile(t)) }

    /// The tile of the set an id names.
    public func tile(of id: UInt64) -> Tile { gridTile(PMTilesID.tile(of: id)) }

    /// The place of a tile's ancestor at the set's `zoom` along the quadtree's Hilbert curve at
    /// that zoom: 0 for the top-left tile, below ``hilbertEnd(at:)``.
    public func hilbert(_ t: Tile, at zoom: Int) -> UInt64 {
        id(of: t.ancestor(atZoom: zoom)) - id(of: Tile(x: 0, y: 0, z: zoom))
    }

    /// How many places the Hilbert curve has at the set's `zoom`: 4^(zoom + depth).
    public func hilbertEnd(at zoom: Int) -> UInt64 { UInt64(1) << UInt64(2 * quadtreeZoom(zoom)) }
}
