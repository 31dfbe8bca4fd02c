import TegulaGeometry
import TegulaPyramid

/// A composite cut in a tile matrix set other than WebMercatorQuad (`composite.tile.tms:`): the
/// zooms it can be cut at. Its blocks, the shards' runs of cut tiles and the parts' packs name
/// tiles by their PMTiles ids and halve them into parents, so the set must be a quadtree there.
extension CompositeBuilder {
    /// Why a composite of `zooms` in `grid`, cut with `settings` into `output`, cannot be made, in
    /// one line, or nil: the zooms must lie in the set and nest as one quadtree run
    /// (``PyramidPlan/quadtreeRuns(of:zooms:)``), each zoom z hold at most 2^z tiles a side (so
    /// that PMTiles ids name its tiles), and the output, tile size, scale and rows be what a map
    /// in the set takes (``TileJob/gridRefusal(_:zooms:settings:output:)``).
    public static func gridRefusal(_ grid: TileMatrixSet, zooms: ZoomRange, settings: TileSettings, output: String) -> String? {
        quadtreeRefusal(grid, zooms: zooms) ?? TileJob.gridRefusal(grid, zooms: zooms, settings: settings, output: output)
    }

    /// Why `zooms` of `grid` are no quadtree from zoom 0, in one line, or nil (the first two
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
        for z in zooms.levels {
            let m = grid.tileMatrices[z - grid.minZoom]
            if m.matrixWidth > 1 << z || m.matrixHeight > 1 << z {
                return "\(grid.id)'s zoom \(z) is \(m.matrixWidth) × \(m.matrixHeight) tiles, more than 2^\(z) a side: a composite names "
                    + "its tiles as a quadtree from zoom 0; cut each map in \(grid.id) alone (its tile.tms) or choose another set"
            }
        }
        return nil
    }
}
