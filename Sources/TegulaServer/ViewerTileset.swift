import Foundation
import TegulaHTTP
import TegulaSupport
import TegulaTileset

/// One tileset as the viewer's script reads it (`Pages/viewer.js`): the catalogue in the viewer
/// page is a JSON array of these.
struct ViewerTileset: Encodable {
    var id: String
    /// The tileset's name, or its id when it has none.
    var name: String
    /// `baselayer` or `overlay`, as in TileJSON.
    var type: String
    var minZoom: Int
    var maxZoom: Int
    /// West, south, east, north in degrees.
    var bounds: [Double]
    /// Longitude, latitude, zoom.
    var center: [Double]
    /// The tile URL template, `/{id}/{z}/{x}/{y}.png` (in another set, ``ViewerGrid/tilePathTemplate(_:)``).
    var tiles: String
    /// Text and plain links only (``AttributionHTML``).
    var attribution: String
    /// The scan's footprint (a GeoJSON polygon), or null.
    var footprint: JSONValue
    /// The GCP pins: name, lon, lat, residual_m.
    var gcps: JSONValue
    /// Rendered on request rather than cut ahead.
    var onDemand: Bool
    /// Where the sheet index beside the tileset is served (`/{id}.index.geojson`); nil without one.
    var sheets: String?
    /// For a tileset in another tile matrix set than WebMercatorQuad, what the page makes its CRS
    /// of (``ViewerGrid``); absent for Web Mercator.
    var grid: ViewerGrid?

    enum CodingKeys: String, CodingKey {
        case id, name, type, minZoom = "minzoom", maxZoom = "maxzoom", bounds, center, tiles, attribution, footprint, gcps
        case onDemand = "ondemand", sheets, grid
    }

    init(_ e: CatalogueEntry, grid: ViewerGrid? = nil) {
        let m = e.metadata, b = m.bounds
        id = e.id
        name = m.name.isEmpty ? e.id : m.name
        type = m.type
        minZoom = m.zooms.min
        maxZoom = m.zooms.max
        bounds = [b.west, b.south, b.east, b.north]
        center = [m.center.longitude, m.center.latitude, Double(m.center.zoom)]
        tiles = grid.map { $0.tilePathTemplate(e) } ?? "/" + TileService.tilePathTemplate(e)
        attribution = AttributionHTML.sanitized(m.attribution ?? "")
        footprint = m.extra[TilesetMetadata.footprintKey] ?? .null
        gcps = m.extra[TilesetMetadata.gcpsKey] ?? .array([])
        onDemand = e.dynamic != nil
        sheets = e.sheetIndex == nil ? nil : TileService.sheetIndexPath(e)
        self.grid = grid
    }

    /// The catalogue as JSON text safe to put in the page's `<script type="application/json">`
    /// element: sorted keys, slashes unescaped, `<` written `\u003c` (``PageTemplate/scriptSafe(json:)``).
    /// A tileset in another tile matrix set carries its entry of `grids`; one in a set without an
    /// entry (PROJ could not sample it) is left out.
    static func scriptSafeJSON(_ c: Catalogue, grids: [String: ViewerGrid] = [:]) -> String {
        let encoder = JSONStyle.compact.encoder()
        // The maps of one pipeline rendered on demand share its index: its outlines drawn once.
        var drawn = Set<[UInt8]>()
        let tilesets = c.entries.compactMap { e -> ViewerTileset? in
            guard e.tileMatrixSet == nil || grids[e.id] != nil else { return nil }
            var t = ViewerTileset(e, grid: grids[e.id])
            if let index = e.sheetIndex, !drawn.insert(index).inserted { t.sheets = nil }
            return t
        }
        let data = (try? encoder.encode(tilesets)) ?? Data("[]".utf8)
        return PageTemplate.scriptSafe(json: String(decoding: data, as: UTF8.self))
    }
}
