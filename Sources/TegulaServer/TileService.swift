import Foundation
import HTTPTypes
import Logging
import TegulaGeometry
import TegulaHTTP
import TegulaIIIFServer
import TegulaTileset

/// The logic of `tegula serve` as one function from request to response, so every status and
/// header is unit-tested without sockets; ``HTTPServer`` only moves bytes between this and
/// Hummingbird.
public struct TileService: HTTPService {
    /// The tilesets served.
    public let catalogue: Catalogue
    /// The rasters served as IIIF Image API 3.0 services at `/iiif/{id}/`, and their responder.
    public let imageServer: IIIFImageServer
    /// The HTTP core's options: CORS, the base URL, the longest target, the connection limits.
    public let configuration: ServerConfiguration
    /// The tiles' own: `Cache-Control`, the answer for a missing tile, the memory cache.
    public let tileConfiguration: TileServerConfiguration
    /// The viewer page and its scripts and styles.
    public let assets: ViewerAssets
    /// Where requests (debug level: one line each) and errors (error level) are logged.
    public let logger: Logger
    /// The counters `/metrics` reports; nil: not counted, and `/metrics` is 404.
    public let metrics: ServerMetrics?
    /// Tiles read once and kept (``TileServerConfiguration/tileCacheBytes``).
    let tileCache: TileResponseCache
    /// Requests the event-loop fast path answered (for tests).
    let fastPathAnswers = AnswerCounter()

    /// A service over a catalogue; `leafletDirectory` is where Debian's libjs-leaflet installs
    /// Leaflet (nil: the viewer is served without Leaflet, as the editor's basemaps are). Without
    /// `logger`, logs go to swift-log's default handler under `tegula.serve`.
    public init(
        catalogue: Catalogue, images: [String: any IIIFImageSource] = [:], configuration: ServerConfiguration = ServerConfiguration(),
        tileConfiguration: TileServerConfiguration = TileServerConfiguration(),
        imageConfiguration: IIIFServerConfiguration = IIIFServerConfiguration(),
        leafletDirectory: String? = ViewerAssets.debianLeaflet,
        logger: Logger = Logger(label: "tegula.serve"), metrics: ServerMetrics? = nil
    ) {
        self.catalogue = catalogue
        imageServer = IIIFImageServer(images: images, configuration: configuration, imageConfiguration: imageConfiguration, logger: logger)
        self.configuration = configuration
        self.tileConfiguration = tileConfiguration
        self.logger = logger
        self.metrics = metrics
        assets = ViewerAssets(catalogue: catalogue, leafletDirectory: leafletDirectory)
        tileCache = TileResponseCache(byteBudget: tileConfiguration.tileCacheBytes)
    }

    /// The rasters served as IIIF images, by id.
    public var images: [String: any IIIFImageSource] { imageServer.images }

    /// The open-connection gauge of ``metrics``.
    public var connections: (any ConnectionCounter)? { metrics }

    /// Counts a request the event-loop fast path answered.
    public func countFastPathAnswer() { fastPathAnswers.add() }

    /// Answers one request.
    public func respond(_ request: ServerRequest) -> ServerResponse {
        let (label, response) = route(request)
        return finish(response, request, label)
    }

    /// The answer to a tile request when it needs no file or database read (the tile is already
    /// in memory, or the request is refused before any read); nil for everything else. The same
    /// answer `respond` gives: the HTTP core's event-loop fast path serves hot tiles with it.
    public func respondFromMemory(_ request: ServerRequest) -> ServerResponse? {
        guard request.isRead, request.target.utf8.count <= configuration.maxTargetLength,
            case .tile(let t) = Route(target: request.target),
            let r = tile(t, request, reading: false, xyz: true)
        else { return nil }
        return finish(r, request, .tile)
    }

    /// Adds the headers every response carries, drops the body of a HEAD answer, and counts and
    /// logs the request: every answer of every path passes here exactly once.
    func finish(_ routed: ServerResponse, _ request: ServerRequest, _ label: RouteLabel = .tile) -> ServerResponse {
        let r = routed.finished(for: request, corsOrigin: configuration.corsOrigin)
        let bytes = r.bodyCount
        metrics?.recordRequest(route: label, status: r.status.code, bodyBytes: bytes)
        logger.debug("\(request.method.rawValue) \(request.target) \(r.status.code) \(bytes)")
        return r
    }

    private func route(_ request: ServerRequest) -> (RouteLabel, ServerResponse) {
        guard request.target.utf8.count <= configuration.maxTargetLength else {
            return (.other, refuse(.targetTooLong(limit: configuration.maxTargetLength)))
        }
        let route = Route(target: request.target)
        guard Route.methods.contains(request.method) else {
            var r = refuse(.methodNotAllowed(method: request.method, allowed: Route.methods))
            r.headers[.allow] = Self.allow
            return (RouteLabel(route), r)
        }
        return (RouteLabel(route), answer(route, request))
    }

    private func answer(_ route: Route, _ request: ServerRequest) -> ServerResponse {
        switch route {
        case .viewer:
            return cached(assets.page(catalogue), type: "text/html; charset=utf-8", request, cacheControl: "no-cache")
        case .health:
            let body = JSONValue.object(["status": .string("ok"), "tilesets": .int(catalogue.entries.count)]).serialized()
            return ServerResponse(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"], body: body)
        case .metrics:
            guard let metrics else { return refuse(.noRoute) }
            return ServerResponse(
                status: .ok,
                headers: [
                    .contentType: "text/plain; version=0.0.4; charset=utf-8",
                    .cacheControl: "no-store",
                ], body: metrics.exposition())
        case .asset(let name):
            guard let a = assets.files[name] else { return refuse(.unknownAsset(name: name)) }
            return cached(a.bytes, type: a.contentType, request, cacheControl: "public, max-age=86400")
        case let .maps(lon, lat):
            return maps(lon, lat)
        case .tileJSON(let id):
            guard let e = catalogue[id] else { return refuse(.unknownTileset(id: id)) }
            if let set = e.otherTileMatrixSet { return refuse(.otherTileMatrixSet(id: id, set: set.id)) }
            return cached(tileJSON(e, request), type: "application/json", request, cacheControl: "no-cache")
        case .sheetIndex(let id):
            guard let e = catalogue[id] else { return refuse(.unknownTileset(id: id)) }
            guard let index = e.sheetIndex else { return refuse(.noSheetIndex(id: id)) }
            return cached(index, type: "application/geo+json", request, cacheControl: "no-cache")
        case .tile(let t):
            return tile(t, request, reading: true, xyz: true)!
        case let .iiif(id, path):
            return iiif(id, path, request)
        case .wmts(let r):
            return wmts(r, request)
        case .ogcAPI(let r):
            return ogcAPI(r, request)
        case .malformed(let why):
            return refuse(.malformedTarget(reason: why))
        case .notFound:
            return refuse(.noRoute)
        }
    }

    /// The tile's answer; nil only when `reading` is false and the tile is not in memory. An
    /// `xyz` path names a Web Mercator tile: a tileset in another set has none.
    func tile(_ t: Route.TileRequest, _ request: ServerRequest, reading: Bool, xyz: Bool) -> ServerResponse? {
        guard let e = catalogue[t.id] else { return refuse(.unknownTileset(id: t.id)) }
        if xyz, let set = e.otherTileMatrixSet { return refuse(.otherTileMatrixSet(id: t.id, set: set.id)) }
        let m = e.metadata
        if let refused = refusal(t, m) { return refused }
        let tile = Tile(x: t.x, y: t.origin.xyzRow(forRow: t.row, zoom: t.z), z: t.z)
        if let source = e.dynamic { return dynamicTile(tile, t, source, request, reading: reading) }
        let key = TileResponseCache.Key(id: t.id, tile: tile)
        let entry: TileResponseCache.Entry
        if let hit = tileCache.entry(key) {
            metrics?.cacheHit()
            entry = hit
        } else {
            guard reading else { return nil }
            metrics?.cacheMiss()
            let data: [UInt8]?
            let start = ContinuousClock.now
            do { data = try e.reader.tile(tile) } catch {
                // The log gets the reason; the client only that it failed: a reason names files
                // and their state, which a stranger has no business learning (TiTiler #1422).
                logger.error("\(TileServerError.readFailed(id: t.id, tile: tile, reason: "\(error)"))")
                return refuse(.readFailed(id: t.id, tile: tile, reason: "the tileset could not be read; see the server log"))
            }
            metrics?.recordRender(.now - start, source: .tileset)
            guard let data else { return missing(tile, in: t.id) }
            entry = TileResponseCache.Entry(body: data, etag: EntityTag.of(data))
            tileCache.insert(entry, for: key)
        }
        if let inm = request.headers[.ifNoneMatch], EntityTag.matches(ifNoneMatch: inm, entry.etag) {
            return ServerResponse(
                status: .notModified,
                headers: [
                    .eTag: entry.etag, .cacheControl: tileConfiguration.cacheControl,
                    .xContentTypeOptions: "nosniff",
                ])
        }
        let type =
            m.format == .auto
            ? m.format.contentType(of: entry.buffer.getBytes(at: entry.buffer.readerIndex, length: min(12, entry.buffer.readableBytes)) ?? [])
            : m.format.contentType
        return ServerResponse(
            status: .ok,
            headers: [
                .contentType: type, .eTag: entry.etag, .cacheControl: tileConfiguration.cacheControl,
                .xContentTypeOptions: "nosniff",
            ],
            buffer: entry.buffer)
    }

    /// The answer for an in-range tile the tileset does not have (``ServerConfiguration/missingTile``).
    func missing(_ tile: Tile, in id: String) -> ServerResponse {
        var r = tileConfiguration.missingTile == .noContent ? ServerResponse(status: .noContent) : refuse(.missingTile(id: id, tile: tile))
        r.headers.append(HTTPField(name: .cacheControl, value: tileConfiguration.cacheControl))
        return r
    }

    /// `Allow` of a 405: ``Route/methods``.
    static let allow = RouteTable<Route>.allow(Route.methods)

    /// 404 for a tile the tileset cannot have (other format, scale or zoom); nil when it may.
    func refusal(_ t: Route.TileRequest, _ m: TilesetMetadata) -> ServerResponse? {
        if let refused = Self.refusal(id: t.id, fileExtension: t.ext, retina: t.retina, m) { return refuse(refused) }
        guard m.zooms.levels.contains(t.z) else {
            return refuse(.zoomOutsideTileset(id: t.id, zoom: t.z, zooms: m.zooms))
        }
        return nil
    }

    /// Why tileset `id` with metadata `m` cannot have a tile named with `fileExtension` and
    /// (`retina`) `@2x` (404: another format or scale); nil when it may. The one rule, also for the
    /// editor's overlays.
    public static func refusal(id: String, fileExtension: String, retina: Bool, _ m: TilesetMetadata) -> TileServerError? {
        // An `auto` tileset answers either extension; each tile says what it is in its Content-Type.
        guard m.format.tileFormats.contains(where: { $0.fileExtension == fileExtension }) else {
            return .wrongTileFormat(id: id, fileExtension: m.format.fileExtension)
        }
        guard retina == (m.scale == 2) else { return .wrongTileScale(id: id, tilesetIsRetina: m.scale == 2) }
        return nil
    }

    /// 200 with a strong ETag, or 304 when `If-None-Match` matches it (``ServerResponse/cached(_:type:_:cacheControl:)``).
    func cached(_ body: [UInt8], type: String, _ request: ServerRequest, cacheControl: String) -> ServerResponse {
        .cached(body, type: type, request, cacheControl: cacheControl)
    }

    /// The plain-text answer to a refused request (``ServerResponse/refusal(_:)``).
    public func refuse(_ error: ServerError) -> ServerResponse { .refusal(error) }

    /// The plain-text answer to a request the tile server refuses (``ServerResponse/refusal(_:)``).
    public func refuse(_ error: TileServerError) -> ServerResponse { .refusal(error) }

    /// TileJSON 3.0.0 with absolute tile URLs from `--public-url`, else from the Host header, and
    /// the attribution as text and http(s) links only (``AttributionHTML``).
    func tileJSON(_ e: CatalogueEntry, _ request: ServerRequest) -> [UInt8] {
        let base = baseURL(request)
        var metadata = e.metadata
        metadata.attribution = metadata.attribution.map(AttributionHTML.sanitized)
        if e.sheetIndex != nil { metadata.extra[Self.sheetIndexKey] = .string(base + Self.sheetIndexPath(e)) }
        return metadata.tileJSON(tiles: [base + "/" + Self.tilePathTemplate(e)], scheme: .topLeft)
    }

    /// The base of absolute URLs the server writes (``ServerConfiguration/baseURL(_:)``).
    func baseURL(_ request: ServerRequest) -> String { configuration.baseURL(request) }

    /// `{id}/{z}/{x}/{y}[@2x].{ext}` with the id percent-encoded; for tiles made on request
    /// `?v=VERSION`, so a browser never mixes tiles of two versions of the source.
    public static func tilePathTemplate(_ e: CatalogueEntry) -> String {
        let id = e.id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? e.id
        let version = e.dynamic.map { "?v=" + $0.version } ?? ""
        return "\(id)/{z}/{x}/{y}\(e.metadata.scale == 2 ? "@2x" : "").\(e.metadata.format.fileExtension)\(version)"
    }

    /// The TileJSON member that names a tileset's sheet index (TileJSON 3.0.0 §3: implementations
    /// may add fields); the viewer's catalogue names it as `sheets`.
    public static let sheetIndexKey = "sheet_index"

    /// `/{id}.index.geojson` with the id percent-encoded, as ``tilePathTemplate(_:)`` writes it.
    public static func sheetIndexPath(_ e: CatalogueEntry) -> String {
        "/" + (e.id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? e.id)
            + Route.sheetIndexSuffix
    }

    private func maps(_ lon: Double, _ lat: Double) -> ServerResponse {
        let p = Coordinate(longitude: lon, latitude: lat)
        let hits = catalogue.entries.filter { $0.footprint.contains(p) }.map { e -> JSONValue in
            var fields: [String: JSONValue] = ["id": .string(e.id), "name": .string(e.metadata.name), "type": .string(e.metadata.type)]
            if e.otherTileMatrixSet == nil { fields["tilejson"] = .string("/\(e.id).json") }
            return .object(fields)
        }
        let body = JSONValue.object(["lon": .double(lon), "lat": .double(lat), "maps": .array(hits)]).serialized()
        return ServerResponse(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-cache"], body: body)
    }
}
