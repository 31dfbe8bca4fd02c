import HTTPTypes
import TegulaGeometry
import TegulaHTTP
import TegulaIIIFServer

/// What a request target of `tegula serve` asks for, parsed without touching the file system:
/// segments and numbers by ``RequestTarget``'s one rule, routes by ``table``, tiles by
/// ``TilePath``'s.
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
    /// the IIIF Image API service of a raster (the parameters parsed by `IIIFImageServer`).
    case iiif(id: String, IIIFImagePath)
    /// `/wmts?…` (KVP) or `/wmts/1.0.0/…` (RESTful): WMTS 1.0.0's capabilities and tiles.
    case wmts(WMTSRequest)
    /// `/ogcapi…`: OGC API – Tiles.
    case ogcAPI(OGCAPIResource)
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

    /// Parses a request target (`/path?query`) by ``RequestTarget``'s rule and ``table``.
    public init(target: String) {
        do {
            self = try Self.table.answer(try RequestTarget(target), raw: target) ?? .notFound
        } catch {
            self = .malformed(error.message)
        }
    }

    /// `tegula serve`'s routes, tried in order, all GET and HEAD: the image server's `/iiif/` ones
    /// first (their segment counts, 2, 3 and 6, differ from a tile's, so a tileset named `iiif` keeps
    /// its tiles), WMTS's and OGC API – Tiles' (none has a tile's four segments with numbers
    /// where a tile has them, so tilesets named `wmts` or `ogcapi` keep theirs too), then the pages,
    /// the tileset's files and its tiles.
    public static let table = RouteTable<Route>(
        IIIFImagePath.routes.routes.map { $0.map { Route.iiif(id: $0.id, $0.path) } } + [
            HTTPRoute(["wmts"]) { m in .wmts(WMTSRequest(kvp: m.target.query)) },
            HTTPRoute(["wmts", .literal(WMTSRequest.version), "WMTSCapabilities.xml"]) { _ in .wmts(.capabilities) },
            HTTPRoute(["wmts", .literal(WMTSRequest.version), "{layer}", "{style}", "{set}", "{matrix}", "{row}", "{file}"]) { m in
                .wmts(WMTSRequest(rest: m))
            },
        ] + OGCAPIResource.routes.map { $0.map(Route.ogcAPI) } + [
            HTTPRoute([]) { _ in .viewer },
            HTTPRoute(["health"]) { _ in .health },
            HTTPRoute(["metrics"]) { _ in .metrics },
            HTTPRoute(["maps"]) { m in maps(m.target) },
            HTTPRoute(["viewer.js"]) { _ in .asset("viewer.js") },
            HTTPRoute(["viewer-crs.js"]) { _ in .asset("viewer-crs.js") },
            HTTPRoute([.parameter("id", suffix: sheetIndexSuffix)]) { m in servedID(m["id"]).map { .sheetIndex(id: $0) } ?? .notFound },
            HTTPRoute(["{id}.json"]) { m in servedID(m["id"]).map { .tileJSON(id: $0) } ?? .notFound },
            HTTPRoute(["leaflet", "{file}"]) { m in .asset(m.path) },
            HTTPRoute(["leaflet", "{folder}", "{file}"]) { m in .asset(m.path) },
            HTTPRoute(["{id}", .tile()]) { m in tile(m, origin: .topLeft) },
            HTTPRoute(["{id}", "tms", .tile()]) { m in tile(m, origin: .bottomLeft) },
        ])

    /// The methods `tegula serve` takes, on every target (``table``'s).
    public static let methods = table.methods

    /// A tileset id as a path names it, or nil for none: `/.json`, `/..json` and `/...json` name no
    /// tileset, since an id is never empty, `.` or `..` (the segment rule, applied to the id once
    /// its suffix is dropped; found by fuzzing).
    static func servedID(_ id: String) -> String? { id.isEmpty || id == "." || id == ".." ? nil : id }

    /// What follows a tileset's id in its sheet index's path (as `Tileset.sheetIndexPath(of:)`
    /// names the file beside the tileset).
    public static let sheetIndexSuffix = ".index.geojson"

    static func tile(_ m: RouteMatch, origin: TileOrigin) -> Route {
        do {
            let t = try m.tile()
            return .tile(TileRequest(id: m["id"], z: t.z, x: t.x, row: t.y, origin: origin, retina: t.retina, ext: t.fileExtension))
        } catch {
            return .malformed(error.message)
        }
    }

    static func maps(_ query: RequestTarget) -> Route {
        guard let lon = query.double("lon"), let lat = query.double("lat"), (-180...180).contains(lon), (-90...90).contains(lat) else {
            return .malformed("/maps needs lon (−180…180) and lat (−90…90) as decimal degrees")
        }
        return .maps(longitude: lon, latitude: lat)
    }
}
