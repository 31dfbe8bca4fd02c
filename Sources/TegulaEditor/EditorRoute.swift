import HTTPTypes
import TegulaGeometry
import TegulaHTTP

/// What a request to `tegula edit` asks for: the editor's route table on the HTTP core's one
/// target parser (``RequestTarget``), its strict numbers and its errors, so a tile path here
/// follows the same rule as one of `tegula serve`.
enum EditorRoute: Equatable, EditorRouteTable {
    /// `/`: the page.
    case page
    /// `/editor.js`.
    case script
    /// `/scan-tiles.js`: the scan pane's IIIF tiles, shared with the tie editor.
    case scanTiles
    /// `/leaflet/…`: Leaflet from Debian's libjs-leaflet.
    case leaflet(String)
    /// `/iiif/{id}/…`: the raw scan as an IIIF Image API 3.0 service (``ScanPane``), answered by
    /// `tegula serve`'s IIIF responder with the request as it came.
    case iiif
    /// `/overlay/{version}.json`: zooms and bounds of a fit's overlay.
    case overlayInfo(version: String)
    /// `/overlay/{version}/{z}/{x}/{y}.png`: the scan warped by that fit.
    case overlayTile(version: String, Tile)
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

    /// The route table: each path's first segments and the methods it takes (HEAD with GET).
    static let table: [(prefix: [String], methods: [HTTPRequest.Method])] = [
        ([], [.get, .head]), (["editor.js"], [.get, .head]), (["scan-tiles.js"], [.get, .head]), (["leaflet"], [.get, .head]), (["iiif"], [.get, .head]),
        (["overlay"], [.get, .head]), (["basemap"], [.get, .head]),
        (["api", "session"], [.get, .put]), (["api", "fit"], [.post]), (["api", "predict"], [.get]), (["api", "convert"], [.get]),
    ]

    /// Every route, as 404 answers list them.
    static let routes = "/, /editor.js, /scan-tiles.js, /leaflet/…, /iiif/{id}/info.json, /iiif/{id}/{region}/{size}/0/default.{jpg|png|webp}, /overlay/{version}.json, "
        + "/overlay/{version}/{z}/{x}/{y}.png, /basemap/…, GET /api/session, PUT /api/session, POST /api/fit, "
        + "GET /api/predict, GET /api/convert"

    /// The route of `request`; throws a ``ServerError`` carrying its status (400, 404, 405 with
    /// the methods allowed in ``allowed(for:)``).
    init(_ request: ServerRequest) throws(ServerError) {
        let target = try RequestTarget(request.target)
        let s = target.segments
        guard let entry = Self.entry(s) else {
            throw ServerError(.noRoute, "no such route: \(target.path); routes: \(Self.routes)")
        }
        guard entry.methods.contains(request.method) else {
            throw ServerError(.methodNotAllowed, "\(request.method.rawValue) is not allowed on \(target.path): use "
                + entry.methods.filter { $0 != .head }.map(\.rawValue).joined(separator: " or "))
        }
        switch entry.prefix.first ?? "" {
        case "": self = .page
        case "editor.js": self = .script
        case "scan-tiles.js": self = .scanTiles
        case "leaflet": self = .leaflet(s.joined(separator: "/"))
        case "iiif": self = .iiif
        case "overlay": self = try Self.overlay(Array(s.dropFirst()))
        case "basemap":
            let rest = String(request.target.dropFirst("/basemap".count))
            self = .basemap(target: rest.isEmpty ? "/" : rest)
        default:
            switch s[1] {
            case "session": self = .session
            case "fit": self = .fit
            case "predict": self = .predict
            default: self = .convert
            }
        }
    }

    static func overlay(_ p: [String]) throws(ServerError) -> EditorRoute {
        if p.count == 1, p[0].hasSuffix(".json") { return .overlayInfo(version: String(p[0].dropLast(5))) }
        guard p.count == 4, p[3].hasSuffix(".png"), let (z, x, y) = numbers(p[1], p[2], String(p[3].dropLast(4))) else {
            throw .malformedTarget(reason: "overlay tiles are /overlay/{version}/{z}/{x}/{y}.png with plain decimal numbers")
        }
        guard z <= WebMercator.maxZoom else { throw .malformedTarget(reason: "zoom \(z) is beyond \(WebMercator.maxZoom)") }
        guard x < (1 << z), y < (1 << z) else { throw ServerError(.noRoute, "no tile \(z)/\(x)/\(y): x and y must be below 2^z") }
        return .overlayTile(version: p[0], Tile(x: x, y: y, z: z))
    }

    /// z, x and y by the HTTP core's strict rule (plain decimal, no sign or leading zeros).
    static func numbers(_ z: String, _ x: String, _ y: String) -> (Int, Int, Int)? {
        guard let zn = RequestTarget.number(z, maxDigits: 2), let xn = RequestTarget.number(x, maxDigits: 10),
              let yn = RequestTarget.number(y, maxDigits: 10) else { return nil }
        return (zn, xn, yn)
    }
}
