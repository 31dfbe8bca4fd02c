import Foundation
import TegulaGeometry

/// Map geometry for clients: which tile paths cover a visible map rect at a zoom scale, and the
/// conversions between paths, tiles, map rects and zoom levels (map points: world = 2^28).
extension TileOverlay {
    /// The overlay path of an XYZ tile: the row flipped to TMS when `isGeometryFlipped`.
    public func path(for tile: Tile, contentScaleFactor: Double = 1) -> TileOverlayPath {
        TileOverlayPath(
            x: tile.x, y: origin.row(forXYZRow: tile.y, zoom: tile.z), z: tile.z,
            contentScaleFactor: contentScaleFactor)
    }

    /// The XYZ tile an overlay path names (inverse of `path(for:contentScaleFactor:)`).
    public func tile(for path: TileOverlayPath) -> Tile {
        Tile(x: path.x, y: origin.xyzRow(forRow: path.y, zoom: path.z), z: path.z)
    }

    /// The map rect a path covers.
    public func mapRect(for path: TileOverlayPath) -> MapRect { MapRect(tile: tile(for: path)) }

    /// The zoom scale (screen points per map point) at which level `zoom` tiles show at
    /// `tileSize` points: `tileSize · 2^z / 2^28`.
    public func zoomScale(forZoomLevel zoom: Int) -> Double {
        ZoomScale.scale(forZoomLevel: Double(zoom), tileSize: Double(tileSize.width))
    }

    /// The tile level drawn at a zoom scale: the nearest whole level (halves round up), so tiles
    /// are shown between 0.71× and 1.41× their size. Not clamped to `minimumZ...maximumZ`.
    public func zoomLevel(forZoomScale scale: Double) -> Int {
        let level = ZoomScale.zoomLevel(forScale: scale, tileSize: Double(tileSize.width))
        // A hair of tolerance so exact powers of two computed in floating point land on their level.
        return Int((level + 1e-9).rounded(.toNearestOrAwayFromZero))
    }

    /// The paths to request to draw `visible` at `zoomScale`, row by row from the north-west:
    /// only tiles that overlap both `visible` and `boundingMapRect`, none when the level is
    /// outside `minimumZ...maximumZ`. `contentScaleFactor` is copied into every path.
    public func tilePaths(
        in visible: MapRect, zoomScale: Double,
        contentScaleFactor: Double = 1
    ) -> [TileOverlayPath] {
        let z = zoomLevel(forZoomScale: zoomScale)
        guard z >= minimumZ, z <= maximumZ, z >= 0, z <= WebMercator.maxZoom,
            let area = visible.intersection(boundingMapRect),
            let range = TileGrid.tileRange(covering: area.projectedBounds, zoom: z)
        else { return [] }
        var paths: [TileOverlayPath] = []
        paths.reserveCapacity(range.x.count * range.y.count)
        for y in range.y {
            for x in range.x {
                paths.append(path(for: Tile(x: x, y: y, z: z), contentScaleFactor: contentScaleFactor))
            }
        }
        return paths
    }

    /// How many tiles at most cover a viewport of `viewportSize` screen points: the size of a
    /// request stack is twice this (the seed talk's rule).
    public func tileCountCovering(viewportWidth: Double, viewportHeight: Double) -> Int {
        let w = Double(tileSize.width), h = Double(tileSize.height)
        // A viewport not aligned to tiles straddles one extra tile in each direction.
        return (Int((viewportWidth / w).rounded(.up)) + 1) * (Int((viewportHeight / h).rounded(.up)) + 1)
    }
}
