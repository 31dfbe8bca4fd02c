import TegulaGDAL
import TegulaGeometry

/// The pixels a warp writes: a window of whole pixels of one zoom's grid, where it lies in that
/// grid's CRS. Web Mercator's zoom levels (``PixelWindow``) and any tile matrix set's levels
/// (`tegula warp --tms`) alike, so that `tegula tile` cuts the image without resampling.
public struct WarpGrid: Sendable {
    /// The CRS of the positions (axes x/y: easting or longitude first).
    public let crs: CRS
    /// The west edge and the north edge, in CRS units.
    public let left: Double
    public let top: Double
    /// CRS units a pixel, both ways.
    public let resolution: Double
    /// Size in pixels.
    public let width: Int
    public let height: Int

    /// The GDAL geotransform of an image holding exactly this window.
    public var geoTransform: [Double] { [left, resolution, 0, top, 0, -resolution] }

    /// A Web Mercator zoom level's window, EPSG:3857.
    public init(_ window: PixelWindow) {
        crs = .webMercator
        left = window.left
        top = window.top
        resolution = window.resolution
        width = window.width
        height = window.height
    }

    /// The smallest window of whole pixels of `tms`'s matrix at `zoom` that holds `b` (in the
    /// set's CRS, edges rounded outwards), counted from the matrix's top-left corner whichever
    /// corner its rows are counted from; nil when it holds no pixel.
    public init?(covering b: GridBounds, zoom: Int, in tms: TileMatrixSet, crs: CRS) throws {
        let m = try tms.matrix(zoom: zoom)
        let origin = tms.origin(of: m), c = m.cellSize
        let gridTop = m.cornerOfOrigin == .bottomLeft ? origin.y + Double(m.matrixHeight * m.tileHeight) * c : origin.y
        let c0 = ((b.left - origin.x) / c).rounded(.down), c1 = ((b.right - origin.x) / c).rounded(.up)
        let r0 = ((gridTop - b.top) / c).rounded(.down), r1 = ((gridTop - b.bottom) / c).rounded(.up)
        guard c1 > c0, r1 > r0, (c1 - c0) * (r1 - r0) < 1e15 else { return nil }
        self.crs = crs
        left = origin.x + c0 * c
        top = gridTop - r0 * c
        resolution = c
        width = Int(c1 - c0)
        height = Int(r1 - r0)
    }
}
