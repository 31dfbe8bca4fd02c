import TegulaGeometry

/// The address of one tile as an overlay asks for it (MapKit `MKTileOverlayPath`).
///
/// `y` is in the overlay's own row numbering: XYZ (row 0 at the top) unless the overlay's
/// `isGeometryFlipped` is true, in which case it is a TMS row (row 0 at the bottom), exactly as
/// MapKit hands paths to ``TileOverlay/url(forTilePath:)``. Convert with
/// ``TileOverlay/path(for:contentScaleFactor:)`` and ``TileOverlay/tile(for:)``.
public struct TileOverlayPath: Hashable, Sendable, CustomStringConvertible {
    /// Column, 0 at the west edge.
    public var x: Int
    /// Row in the overlay's numbering (see the type's documentation).
    public var y: Int
    /// Zoom level.
    public var z: Int
    /// Screen scale the tile is drawn at: 1, or 2 for "@2x" tiles (MapKit `contentScaleFactor`).
    public var contentScaleFactor: Double

    /// A path (MapKit's memberwise `MKTileOverlayPath`).
    public init(x: Int, y: Int, z: Int, contentScaleFactor: Double = 1) {
        self.x = x
        self.y = y
        self.z = z
        self.contentScaleFactor = contentScaleFactor
    }

    /// True when z is 0…`WebMercator.maxZoom` (30) and x, y lie within 0..<2^z.
    public var isValid: Bool { Tile(x: x, y: y, z: z).isValid }

    /// Printed as `z/x/y@scale`, e.g. `10/486/332@2x`.
    public var description: String { "\(z)/\(x)/\(y)@\(TileURLTemplate.format(scale: contentScaleFactor))x" }
}
