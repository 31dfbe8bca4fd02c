import HTTPTypes
import TegulaHTTP

/// What a request to the tie editor (`tegula edit PIPELINE --map A --tie-with B`) asks for, on the
/// HTTP core's target parser (``RequestTarget``) and errors, as ``EditorRoute`` for the GCP editor.
enum TieRoute: Equatable {
    /// `/`: the page.
    case page
    /// `/ties.js`, `/scan-tiles.js`, `/editing.js`.
    case script(String)
    /// `/leaflet/…`: Leaflet from Debian's libjs-leaflet.
    case leaflet(String)
    /// `/iiif/{map}/…`: a sheet's scan as an IIIF Image API 3.0 service, by map name.
    case iiif(map: String)
    /// `GET /api/ties`, `PUT /api/ties` (save).
    case ties
    /// `POST /api/seams`.
    case seams
    /// `GET /api/predict`.
    case predict

    /// The routes, tried in order: pages and files read (GET with HEAD), the API takes what each
    /// endpoint does.
    static let table = RouteTable<TieRoute>([
        HTTPRoute([]) { _ in .page },
        HTTPRoute(["ties.js"]) { _ in .script("ties.js") },
        HTTPRoute(["scan-tiles.js"]) { _ in .script("scan-tiles.js") },
        HTTPRoute(["editing.js"]) { _ in .script("editing.js") },
        HTTPRoute(["leaflet", .rest()]) { m in .leaflet(m.path) },
        HTTPRoute(["iiif", .rest(listed: "{map}/…")]) { m in .iiif(map: m.segments.count > 1 ? m.segments[1] : "") },
        HTTPRoute(["api", "ties"], [.get, .put]) { _ in .ties },
        HTTPRoute(["api", "seams"], [.post]) { _ in .seams },
        HTTPRoute(["api", "predict"], [.get]) { _ in .predict },
    ])

    /// The route of `request` (``table``); a ``ServerError`` with its status (400, 404, 405) otherwise.
    init(_ request: ServerRequest) throws(ServerError) {
        self = try Self.table.answer(request)
    }
}
