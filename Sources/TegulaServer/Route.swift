import TegulaGeometry
import TegulaHTTP
import TegulaIIIFServer

/// What a request target of `tegula serve` asks for, parsed without touching the file system;
/// segments and numbers by ``RequestTarget``'s one rule.
public enum Route: Equatable, Sendable {
    /// `/`: the viewer page.
    case viewer
    /// `/health`.
    case health
    /// `/metrics`: Prometheus metrics when the server counts them (`--metrics`), else 404.
    case metrics
    /// `/maps?lon=&lat=`.
    case maps(longitude: Double, latitude: Double)
    /// A fixed asset of the viewer (`/viewer.js`, `/leaflet/…`), looked up by name.
    case asset(String)
    /// `/{id}.json`.
    case tileJSON(id: String)
    /// `/{id}.index.geojson`: the sheet index a pipeline wrote beside the tileset, when it has one.
    case sheetIndex(id: String)
    /// `/{id}/{z}/{x}/{y}[@2x].{ext}` or under `/{id}/tms/`.
    case tile(TileRequest)
    /// `/iiif/{id}`, `/iiif/{id}/info.json` or `/iiif/{id}/{region}/{size}/{rotation}/{quality}.{format}`:
    /// the IIIF Image API service of a raster (the parameters parsed by ``IIIFImageServer``).
    case iiif(id: String, IIIFImageServer.Path)
    /// A target that cannot name anything (status 400 with the reason).
    case malformed(String)
    /// A well-formed target naming nothing we have.
    case notFound

    /// A tile as requested: numbers as given, row counted from the origin given.
    public struct TileRequest: Equatable, Sendable {
        public var id: String
        public var z: Int
        public var x: Int
        public var row: Int
        /// Row 0 at the top (`/{id}/{z}/…`) or at the bottom (`/{id}/tms/{z}/…`).
        public var origin: TileOrigin
        public var retina: Bool
        public var ext: String
    }

    /// Parses a request target (`/path?query`) by ``RequestTarget``'s rule.
    public init(target: String) {
        do {
            let t = try RequestTarget(target)
            self = t.segments.isEmpty ? .viewer : Route.route(t.segments, query: t)
        } catch {
            self = .malformed(error.message)
        }
    }

    static func route(_ s: [String], query: RequestTarget) -> Route {
        if let (id, path) = IIIFImageServer.route(s) { return .iiif(id: id, path) }
        switch s.count {
        case 1:
            if s[0] == "health" { return .health }
            if s[0] == "metrics" { return .metrics }
            if s[0] == "maps" { return maps(query) }
            if s[0] == "viewer.js" { return .asset("viewer.js") }
            if s[0].hasSuffix(sheetIndexSuffix) {
                let id = String(s[0].dropLast(sheetIndexSuffix.count))
                return id.isEmpty || id == "." || id == ".." ? .notFound : .sheetIndex(id: id)
            }
            // `/.json`, `/..json` and `/...json` name no tileset: an id is never empty, `.` or `..`
            // (the segment rule above, applied to the id once `.json` is dropped; found by fuzzing).
            guard s[0].hasSuffix(".json") else { return .notFound }
            let id = String(s[0].dropLast(5))
            return id.isEmpty || id == "." || id == ".." ? .notFound : .tileJSON(id: id)
        case 2...3 where s[0] == "leaflet":
            return .asset(s.joined(separator: "/"))
        case 4:
            return tile(id: s[0], s[1], s[2], s[3], origin: .topLeft)
        case 5 where s[1] == "tms":
            return tile(id: s[0], s[2], s[3], s[4], origin: .bottomLeft)
        default:
            return .notFound
        }
    }

    /// What follows a tileset's id in its sheet index's path (as `Tileset.sheetIndexPath(of:)`
    /// names the file beside the tileset).
    public static let sheetIndexSuffix = ".index.geojson"

    static func tile(id: String, _ z: String, _ x: String, _ file: String, origin: TileOrigin) -> Route {
        let f = file.utf8
        guard let dot = f.lastIndex(of: UInt8(ascii: ".")) else { return .malformed("tile name '\(file)' has no extension") }
        var stem = f[..<dot]
        let ext = String(file[f.index(after: dot)...])
        let retina = stem.count >= 3 && stem.suffix(3).elementsEqual("@2x".utf8)
        if retina { stem = stem.dropLast(3) }
        guard let zn = RequestTarget.number(z, maxDigits: 2), let xn = RequestTarget.number(x, maxDigits: 10),
              let yn = RequestTarget.number(stem, maxDigits: 10) else {
            return .malformed("z, x and y must be plain decimal numbers")
        }
        guard zn <= WebMercator.maxZoom else { return .malformed("zoom \(zn) is beyond \(WebMercator.maxZoom)") }
        guard xn < (1 << zn), yn < (1 << zn) else { return .malformed("x and y must be below 2^z = \(1 << zn)") }
        return .tile(TileRequest(id: id, z: zn, x: xn, row: yn, origin: origin, retina: retina, ext: ext))
    }

    static func maps(_ query: RequestTarget) -> Route {
        guard let lon = query.double("lon"), let lat = query.double("lat"), (-180...180).contains(lon), (-90...90).contains(lat) else {
            return .malformed("/maps needs lon (−180…180) and lat (−90…90) as decimal degrees")
        }
        return .maps(longitude: lon, latitude: lat)
    }
}
