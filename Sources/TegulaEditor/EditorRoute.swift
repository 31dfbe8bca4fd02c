import HTTPTypes
import TegulaHTTP

/// What a request to `tegula edit` asks for: the editor's route table (``table``) on the HTTP
/// core's one target parser (``RequestTarget``) and its one tile-path parser (``TilePath``), so a
/// tile path here is answered as one of `tegula serve`.
enum EditorRoute: Equatable {
    /// `/`: the page.
    case page
    /// `/editor.js`.
    case script
    /// `/scan-tiles.js`: the scan pane's IIIF tiles, shared with the tie editor.
    case scanTiles
    /// `/editing.js`: what the editor pages share (``EditingScript``).
    case editing
    /// `/leaflet/…`: Leaflet from Debian's libjs-leaflet.
    case leaflet(String)
    /// `/iiif/{id}/…`: the raw scan as an IIIF Image API 3.0 service (``ScanPane``), answered by
    /// `tegula serve`'s IIIF responder with the request as it came.
    case iiif
    /// `/overlay/{version}.json`: zooms and bounds of a fit's overlay.
    case overlayInfo(version: String)
    /// `/overlay/{version}/{z}/{x}/{y}.png`: the scan warped by that fit (the extension and scale
    /// are checked against the overlay's, as `tegula serve` checks a tileset's).
    case overlayTile(version: String, TilePath)
    /// `/basemap/…`: a local basemap tileset, answered by a `TileService` with the rest of the target.
    case basemap(target: String)
    /// `GET /api/session`, `PUT /api/session`.
    case session
    /// `POST /api/fit`.
    case fit
    /// `GET /api/predict`.
    case predict
    /// `GET /api/convert`.
    case convert
    /// `/reference.json`: the reference layer's zooms, bounds and tile template.
    case referenceInfo
    /// `/reference/…`: the reference layer's tiles, the rest of the target (`/{z}/{x}/{y}.png` of a
    /// warped image, parsed; a tileset's own paths).
    case referenceTile(target: String, TilePath?)
    /// `GET /api/suggest`: the pairs matching proposes.
    case suggest
    /// `GET /api/snap`: the twin of a scan pixel on the reference.
    case snap

    /// The routes, tried in order: pages and files read (GET with HEAD), the API takes what each
    /// endpoint does. The overlay's other paths are refused with the form of its tiles (400).
    static let table = RouteTable<EditorRoute>([
        HTTPRoute([]) { _ in .page },
        HTTPRoute(["editor.js"]) { _ in .script },
        HTTPRoute(["scan-tiles.js"]) { _ in .scanTiles },
        HTTPRoute(["editing.js"]) { _ in .editing },
        HTTPRoute(["leaflet", .rest()]) { m in .leaflet(m.path) },
        HTTPRoute(["iiif", .rest(listed: "{id}/…")]) { _ in .iiif },
        HTTPRoute(["overlay", "{version}.json"]) { m in .overlayInfo(version: m["version"]) },
        HTTPRoute(["overlay", "{version}", .tile(listed: "{z}/{x}/{y}.png")]) { m throws(ServerError) in
            .overlayTile(version: m["version"], try m.tile())
        },
        HTTPRoute(["overlay", .rest()], listed: false) { _ throws(ServerError) in
            throw .malformedTarget(reason: "overlay tiles are /overlay/{version}/{z}/{x}/{y}.png with plain decimal numbers")
        },
        HTTPRoute(["basemap", .rest()]) { m in
            let rest = String(m.raw.dropFirst("/basemap".count))
            return .basemap(target: rest.isEmpty ? "/" : rest)
        },
        HTTPRoute(["api", "session"], [.get, .put]) { _ in .session },
        HTTPRoute(["api", "fit"], [.post]) { _ in .fit },
        HTTPRoute(["api", "predict"], [.get]) { _ in .predict },
        HTTPRoute(["api", "convert"], [.get]) { _ in .convert },
        HTTPRoute(["reference.json"]) { _ in .referenceInfo },
        HTTPRoute(["reference", .tile(listed: "{z}/{x}/{y}.png")]) { m throws(ServerError) in
            .referenceTile(target: String(m.raw.dropFirst("/reference".count)), try m.tile())
        },
        HTTPRoute(["reference", .rest()], listed: false) { m in .referenceTile(target: String(m.raw.dropFirst("/reference".count)), nil) },
        HTTPRoute(["api", "suggest"], [.get]) { _ in .suggest },
        HTTPRoute(["api", "snap"], [.get]) { _ in .snap },
    ])

    /// The route of `request` (``table``); throws a ``ServerError`` carrying its status (400, 404,
    /// 405 with the methods allowed in `table.allow(for:)`).
    init(_ request: ServerRequest) throws(ServerError) {
        self = try Self.table.answer(request)
    }
}
