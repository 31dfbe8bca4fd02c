import Foundation
import TegulaGeometry

/// A source warped into a tile matrix set's CRS (``WarpSource/reprojected(to:)``) measured against
/// the set: the box it covers within the set's extent, its pixel size there, and the zoom whose
/// cells are nearest that size. `tegula tile --tms` and `tegula warp --tms` choose by these alone.
extension WarpSource {
    /// The box of the footprint (in the set's CRS), within the set's extent; nil when they do not
    /// meet.
    public func gridBounds(in tms: TileMatrixSet) -> GridBounds? {
        guard let first = footprint.first else { return nil }
        var b = GridBounds(left: first.x, bottom: first.y, right: first.x, top: first.y)
        for p in footprint {
            b.left = min(b.left, p.x); b.right = max(b.right, p.x)
            b.bottom = min(b.bottom, p.y); b.top = max(b.top, p.y)
        }
        let e = tms.extent
        let clipped = GridBounds(left: max(b.left, e.left), bottom: max(b.bottom, e.bottom), right: min(b.right, e.right), top: min(b.top, e.top))
        return clipped.left < clipped.right && clipped.bottom < clipped.top ? clipped : nil
    }

    /// The scan's pixel size in CRS units at the centre of `b`: the geometric mean of a step along
    /// each axis, a hundredth of the box, in scan pixels.
    public func gridResolution(within b: GridBounds) throws -> Double {
        let e = try mapping.makeEvaluator()
        let cx = (b.left + b.right) / 2, cy = (b.bottom + b.top) / 2, d = min(b.width, b.height) / 100
        var xs = [cx, cx + d, cx], ys = [cy, cy, cy + d]
        e.sourcePixels(x: &xs, y: &ys)
        let dx = hypot(xs[1] - xs[0], ys[1] - ys[0]), dy = hypot(xs[2] - xs[0], ys[2] - ys[0])
        let resolution = d / (dx * dy).squareRoot()
        guard resolution.isFinite, resolution > 0 else { throw WarpError(.badGeoreference, at: path, "cannot measure the native resolution") }
        return resolution
    }

    /// The set's zoom whose cell size is nearest the scan's pixel size within `b` (log scale):
    /// zoom `auto`'s max.
    public func nearestZoom(in tms: TileMatrixSet, within b: GridBounds) throws -> Int {
        let resolution = try gridResolution(within: b)
        return tms.zooms.min { z1, z2 in
            abs(log2(tms.tileMatrices[z1 - tms.minZoom].cellSize / resolution))
                < abs(log2(tms.tileMatrices[z2 - tms.minZoom].cellSize / resolution))
        }!
    }
}
