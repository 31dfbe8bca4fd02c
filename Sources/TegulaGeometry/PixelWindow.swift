/// A rectangle of whole pixels on one zoom level's global pixel grid (256-px tiles unless told
/// otherwise; column 0 at −180°, row 0 at the top), and where it lies in EPSG:3857 metres.
public struct PixelWindow: Hashable, Sendable, CustomStringConvertible {
    /// The zoom whose grid this is.
    public let zoom: Int
    /// Pixel side of a tile on this grid.
    public let tileSize: Int
    /// First column and row.
    public let column: Int
    public let row: Int
    /// Size in pixels.
    public let width: Int
    public let height: Int

    /// A window from its parts.
    public init(zoom: Int, tileSize: Int = 256, column: Int, row: Int, width: Int, height: Int) {
        self.zoom = zoom
        self.tileSize = tileSize
        self.column = column
        self.row = row
        self.width = width
        self.height = height
    }

    /// The smallest window of whole pixels that holds the box (edges rounded outwards); nil
    /// when it holds no pixel.
    public init?(covering b: ProjectedBounds, zoom: Int, tileSize: Int = 256) {
        let res = WebMercator.resolution(zoom: zoom, tileSize: tileSize)
        let h = WebMercator.halfCircumference
        let c0 = Int(((b.left + h) / res).rounded(.down)), c1 = Int(((b.right + h) / res).rounded(.up))
        let r0 = Int(((h - b.top) / res).rounded(.down)), r1 = Int(((h - b.bottom) / res).rounded(.up))
        guard c1 > c0, r1 > r0 else { return nil }
        self.init(zoom: zoom, tileSize: tileSize, column: c0, row: r0, width: c1 - c0, height: r1 - r0)
    }

    /// Metres per pixel.
    public var resolution: Double { WebMercator.resolution(zoom: zoom, tileSize: tileSize) }

    /// The west edge in metres.
    public var left: Double { -WebMercator.halfCircumference + Double(column) * resolution }
    /// The north edge in metres.
    public var top: Double { WebMercator.halfCircumference - Double(row) * resolution }

    /// The GDAL geotransform of an image holding exactly this window.
    public var geoTransform: [Double] { [left, resolution, 0, top, 0, -resolution] }

    /// `W × H px at column, row of zoom Z`.
    public var description: String { "\(width) × \(height) px at \(column), \(row) of zoom \(zoom)" }
}
