import HTTPTypes
import TegulaHTTP

/// What a request to the tie editor (`tegula edit PIPELINE --map A --tie-with B`) asks for, on the
/// HTTP core's target parser (``RequestTarget``) and errors, as ``EditorRoute`` for the GCP editor.
enum TieRoute: Equatable, EditorRouteTable {
    /// `/`: the page.
    case page
    /// `/ties.js`, `/scan-tiles.js`.
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

    static let table: [(prefix: [String], methods: [HTTPRequest.Method])] = [
        ([], [.get, .head]), (["ties.js"], [.get, .head]), (["scan-tiles.js"], [.get, .head]), (["leaflet"], [.get, .head]),
        (["iiif"], [.get, .head]), (["api", "ties"], [.get, .put]), (["api", "seams"], [.post]), (["api", "predict"], [.get]),
    ]

    /// Every route, as 404 answers list them.
    static let routes = "/, /ties.js, /scan-tiles.js, /leaflet/…, /iiif/{map}/…, GET /api/ties, PUT /api/ties, POST /api/seams, GET /api/predict"

    /// The route of `request`; a ``ServerError`` with its status (400, 404, 405) otherwise.
    init(_ request: ServerRequest) throws(ServerError) {
        let target = try RequestTarget(request.target)
        let s = target.segments
        guard let entry = Self.entry(s) else { throw ServerError(.noRoute, "no such route: \(target.path); routes: \(Self.routes)") }
        guard entry.methods.contains(request.method) else {
            throw ServerError(.methodNotAllowed, "\(request.method.rawValue) is not allowed on \(target.path): use "
                + entry.methods.filter { $0 != .head }.map(\.rawValue).joined(separator: " or "))
        }
        switch entry.prefix.first ?? "" {
        case "": self = .page
        case "ties.js", "scan-tiles.js": self = .script(s[0])
        case "leaflet": self = .leaflet(s.joined(separator: "/"))
        case "iiif": self = .iiif(map: s.count > 1 ? s[1] : "")
        default: self = s[1] == "ties" ? .ties : s[1] == "seams" ? .seams : .predict
        }
    }
}
