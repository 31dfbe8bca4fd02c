import TegulaGeometry
import TegulaPyramid

/// A composite cut in a tile matrix set other than WebMercatorQuad (`composite.tile.tms:`): the
/// zooms it can be cut at. Its blocks, the shards' runs of cut tiles and the parts' packs name
/// tiles by ids of one quadtree (``QuadtreeIDs``) and halve them into parents, so the set's
/// zooms must nest as a quadtree there.
extension CompositeBuilder {
    /// Why a composite of `zooms` in `grid`, cut with `settings` into `output`, cannot be made, in
    /// one line, or nil: the zooms must lie in the set and nest as one quadtree run
    /// (``PyramidPlan/quadtreeRuns(of:zooms:)``) that ids name (``QuadtreeIDs/init(grid:zooms:)``),
    /// and the output, tile size, scale and rows be what a map in the set takes
    /// (``TileJob/gridRefusal(_:zooms:settings:output:)``).
    public static func gridRefusal(_ grid: TileMatrixSet, zooms: ZoomRange, settings: TileSettings, output: String) -> String? {
        quadtreeRefusal(grid, zooms: zooms) ?? TileJob.gridRefusal(grid, zooms: zooms, settings: settings, output: output)
    }

    /// Why `zooms` of `grid` are no quadtree that ids name, in one line, or nil (the first
    /// conditions of ``gridRefusal(_:zooms:settings:output:)``).
    package static func quadtreeRefusal(_ grid: TileMatrixSet, zooms: ZoomRange) -> String? {
        guard grid.zooms.contains(zooms.min), grid.zooms.contains(zooms.max) else {
            return "zooms \(zooms) are not in \(grid.id), whose zooms are \(grid.minZoom)-\(grid.maxZoom)"
        }
        let runs = PyramidPlan.quadtreeRuns(of: grid, zooms: zooms)
        guard runs.count == 1 else {
            return "zooms \(zooms) of \(grid.id) do not nest as a quadtree (each zoom halving the cells of the one above, from the same "
                + "corner), which a composite's blocks need: choose zooms within one of \(runs.reversed().map { "\($0)" }.joined(separator: ", "))"
        }
        guard QuadtreeIDs(grid: grid, zooms: zooms) != nil else {
            let m = grid.tileMatrices[zooms.max - grid.minZoom]
            return "\(grid.id)'s zoom \(zooms.max) (\(m.matrixWidth) × \(m.matrixHeight) tiles) lies past zoom 31 of the quadtree whose "
                + "PMTiles ids name a composite's tiles: choose a lower max zoom"
        }
        return nil
    }
}
