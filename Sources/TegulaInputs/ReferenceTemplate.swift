import Foundation
import TegulaGeometry
import TegulaMatch
import TegulaTileset

/// The tile URL template a reference on a server was read by (a TileJSON's first `tiles`
/// template, or a bare XYZ template with its `--reference-bounds`), with its zooms and bounds:
/// what a page needs to show that reference as a layer, its tiles fetched from their own server.
public struct ReferenceTemplate: Sendable, Equatable {
    /// The absolute template, `{z}`, `{x}` and `{y}`; `{-y}` when the rows count from the bottom
    /// (as Leaflet's `L.tileLayer` takes both).
    public var template: String
    /// The zooms it serves (a bare template: 0 to the deepest that answered), and its bounds.
    public var zooms: ZoomRange
    public var bounds: GeoBounds
    /// Pixels a tile side (tile size × scale).
    public var tilePixels: Int

    /// The template `reference` is read by; nil for a reference read otherwise (a file, a
    /// local tileset, an annotation's IIIF image).
    public init?(_ reference: MatchReference) {
        guard let tiles = (reference.reader as? TileScanReader)?.tiles as? TemplateTiles else { return nil }
        let m = tiles.metadata
        template = tiles.rowsFromBottom ? tiles.template.replacingOccurrences(of: "{y}", with: "{-y}") : tiles.template
        zooms = m.zooms
        bounds = m.bounds
        tilePixels = m.tileSize * m.scale
    }
}
