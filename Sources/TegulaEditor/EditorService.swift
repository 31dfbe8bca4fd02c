import Foundation
import HTTPTypes
import Logging
import TegulaCodec
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaHTTP
import TegulaIIIFServer
import TegulaOnDemand
import TegulaPyramid
import TegulaScan
import TegulaServer
import TegulaSupport
import TegulaTileset

/// The editor's server logic, one function from request to response on the HTTP core (served by
/// ``HTTPServer``, which only moves bytes): the page and Leaflet, the session API, the raw scan as
/// an IIIF Image API 3.0 service under `/iiif/` (``ScanPane``: `tegula serve`'s own ``IIIFImageServer``),
/// the warped overlay of a fit (by version), and local basemap tilesets (answered by a
/// ``TileService`` of their own under `/basemap/`). Routes are ``EditorRoute``'s table; every
/// refusal is JSON, `{"error": …}`, with the status its error carries, but the IIIF service's,
/// which answers as it does in `tegula serve`.
public final class EditorService: HTTPService, @unchecked Sendable {
    /// The scan edited.
    public let scanPath: String
    /// Where Save writes.
    public let output: String
    /// The raw scan, read through its IIIF service.
    public let pane: ScanPane
    /// The IIIF image service a remote scan comes from and its Allmaps type (`ImageService2`,
    /// `ImageService3`): what a saved annotation names, instead of this editor's own service.
    public let scanService: (id: String, type: String)?
    /// How the scan is opened (an IIIF image once, shared by the pane and the overlays).
    let scans: any ScanOpener
    /// Basemaps the page offers, in order (the first is shown).
    public let basemaps: [Basemap]
    /// The georeferenced image of the same map Suggest and snap match against, shown as a layer.
    public let reference: EditorReference?
    let referenceTiles: ReferenceTiles?
    let basemapService: TileService?
    let leaflet: [String: ViewerAssets.Asset]
    let session: Locked<EditorSession>
    let fits = Locked<[(version: String, fit: SessionFit)]>([])
    let overlays = Locked<[(version: String, source: OnDemandSource)]>([])
    let queue: RenderQueue
    let memo: TileMemo
    let log: @Sendable (String) -> Void
    let emptyTile: [UInt8]

    /// Largest request body accepted (a session with thousands of points is far below it).
    public static let maxBody = 8 << 20
    public var maxBodyBytes: Int { Self.maxBody }
    /// Connection limits: `tegula serve`'s defaults.
    public let configuration = ServerConfiguration()
    /// Where the HTTP layer logs.
    public let logger = Logger(label: "tegula.edit")

    /// A service for one scan. `initial` is the session to start from when there is no
    /// autosave sidecar beside `output`; with one, the sidecar's session is restored.
    /// `scanService` names the remote image service `scanPath` reads, for Save; `scans` opens the
    /// scan for its pane and its overlays (the program's resolver; local files alone by default).
    /// `reference`, when given, is matched against by Suggest and snap and shown on the map.
    public init(
        scanPath: String, output: String, initial: EditorSession, basemaps: [Basemap], basemapTilesets: Catalogue?,
        leafletDirectory: String = ViewerAssets.debianLeaflet, renderThreads: Int = 2, cacheBytes: Int = 128 << 20,
        scanService: (id: String, type: String)? = nil, scans: any ScanOpener = LocalScans(), reference: EditorReference? = nil,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        self.scanPath = scanPath
        self.scans = scans
        self.scanService = scanService
        self.output = output
        let queue = RenderQueue(workers: renderThreads)
        self.queue = queue
        pane = try ScanPane(path: scanPath, scans: scans, queue: queue, logger: Logger(label: "tegula.edit"))
        self.basemaps = basemaps
        basemapService = basemapTilesets.map { TileService(catalogue: $0, leafletDirectory: nil) }
        leaflet = ViewerAssets.leaflet(in: leafletDirectory)
        var start = initial
        start.output = output
        if let restored = Self.restore(sidecar: Self.sidecarPath(output)) {
            start = restored
            start.output = output
            log("tegula: restored the session from \(Self.sidecarPath(output)) (\(restored.gcps.count) points)")
        }
        session = Locked(start)
        memo = TileMemo(byteBudget: cacheBytes)
        self.log = log
        self.reference = reference
        referenceTiles = try ReferenceTiles.make(reference, scans: scans, queue: queue, memo: memo, log: log)
        let clear = [UInt8](repeating: 0, count: 256 * 256 * 4)
        emptyTile = clear.withUnsafeBufferPointer { PNGEncoder().encode(pixels: $0.baseAddress!, width: 256, height: 256, channels: 4) }
    }

    /// The autosave sidecar beside an output: `OUTPUT.session.json`.
    public static func sidecarPath(_ output: String) -> String { output + ".session.json" }

    static func restore(sidecar: String) -> EditorSession? {
        guard let data = FileManager.default.contents(atPath: sidecar) else { return nil }
        return try? EditorSession.decode(data)
    }

    /// The session now (the last one fitted, saved or restored).
    public var current: EditorSession { session.withLock { $0 } }

    /// Answers one request.
    public func respond(_ request: ServerRequest, isCancelled: @escaping @Sendable () -> Bool) async -> ServerResponse {
        do {
            switch try EditorRoute(request) {
            case .page:
                return ServerResponse(
                    status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
                    body: Array(EditorPage.html(config: pageConfig()).utf8))
            case .script:
                return ServerResponse(
                    status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
                    body: Array(EditorScript.source.utf8))
            case .scanTiles:
                return ServerResponse(
                    status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
                    body: Array(TiePage.scanTiles.utf8))
            case .editing:
                return ServerResponse(
                    status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
                    body: Array(EditingScript.source.utf8))
            case .leaflet(let name):
                guard let a = leaflet[name] else { throw TileServerError(.unknownAsset, "no such asset: /\(name)") }
                return ServerResponse(status: .ok, headers: [.contentType: a.contentType, .cacheControl: "public, max-age=86400"], body: a.bytes)
            case .iiif:
                return await pane.service.respond(request, isCancelled: isCancelled)
            case .overlayInfo(let version):
                return try overlayInfo(version)
            case let .overlayTile(version, tile):
                return try await overlayTile(version, tile, isCancelled: isCancelled)
            case .basemap(let target):
                guard let basemapService else { throw TileServerError(.unknownTileset, "no local basemap tileset is served") }
                return await basemapService.respond(ServerRequest(method: request.method, target: target), isCancelled: isCancelled)
            case .session:
                return request.method == .get
                    ? .json(current, status: .ok)
                    : try fitting(request.body, save: scanService?.id ?? pane.service.serviceID(pane.id, for: request))
            case .fit:
                return try fitting(request.body, save: nil)
            case .predict:
                return try predict(try RequestTarget(request.target))
            case .convert:
                return try convert(try RequestTarget(request.target))
            case .referenceInfo:
                return try referenceInfo()
            case let .referenceTile(target, path):
                return try await referenceTile(request, target: target, path: path, isCancelled: isCancelled)
            case .suggest:
                return try suggest()
            case .snap:
                return try snap(try RequestTarget(request.target))
            }
        } catch let e as ServerError {
            var r = refuse(e)
            if e.reason == .methodNotAllowed, let allow = EditorRoute.table.allow(for: request.target) { r.headers[.allow] = allow }
            return r
        } catch let e as any HTTPRefusal {
            return refuse(e)
        } catch let e as EditorError {
            return Self.refusal(e)
        } catch {
            return refuse(TileServerError(.renderFailed, "\(error)"))
        }
    }

    /// A refusal as the editor answers it: `{"error": …}` with the error's status.
    public func refuse(_ error: ServerError) -> ServerResponse { refuse(error as any HTTPRefusal) }

    /// Any server's refusal (the core's, the tile server's, the IIIF server's) as the editor answers it.
    public func refuse(_ error: any HTTPRefusal) -> ServerResponse {
        .json(ErrorBody(error: error.description), status: error.status ?? .internalServerError)
    }

    // MARK: helpers

    /// A refusal's JSON body: the message, and for a refused session its stable code and field.
    struct ErrorBody: Encodable {
        var error: String
        var code: String?
        var field: String?
    }

    /// What the page needs to know, as the JSON object it reads from its configuration element.
    struct PageConfig: Encodable {
        var scan: String
        var width: Int
        var height: Int
        var maxzoom: Int
        var tilesize: Int
        /// The scan's IIIF service, as a path on this server (`/iiif/{id}`).
        var iiif: String
        var output: String
        var basemaps: [Basemap]
        /// The reference Suggest and snap match against; absent without one.
        var reference: ReferenceConfig?
    }

    /// The page's configuration as JSON safe to embed in a `<script>` element.
    func pageConfig() -> String {
        let config = PageConfig(
            scan: (scanPath as NSString).lastPathComponent, width: pane.width, height: pane.height,
            maxzoom: pane.maxZoom, tilesize: ScanPane.tileSize, iiif: "/iiif/" + IIIFImageServer.percentEncoded(pane.id),
            output: output, basemaps: basemaps, reference: referenceConfig)
        let json = (try? JSONStyle.compact.string(config)) ?? "{}"
        return PageTemplate.scriptSafe(json: json)
    }

    /// 422 `{"error", "code", "field"}` for a refused session.
    static func refusal(_ e: EditorError) -> ServerResponse {
        .json(ErrorBody(error: e.description, code: e.reason.code, field: e.location), status: .unprocessableContent)
    }
}

/// A basemap the page offers: a URL template (`{z}/{x}/{y}`) with its attribution and zooms
/// (encoded as `minzoom` and `maxzoom`).
public struct Basemap: Sendable, Equatable, Encodable {
    public var name: String
    public var url: String
    public var attribution: String
    public var zooms: ZoomRange

    /// Zooms 0 to 19, OpenStreetMap's (a basemap given on the command line is taken to have them).
    public static let standardZooms = ZoomRange(min: 0, max: 19)!

    enum CodingKeys: String, CodingKey { case name, url, attribution, minzoom, maxzoom }

    /// A basemap from its template, attribution and zooms.
    public init(name: String, url: String, attribution: String, zooms: ZoomRange = Basemap.standardZooms) {
        self.name = name
        self.url = url
        self.attribution = attribution
        self.zooms = zooms
    }

    /// Encodes the name, template, attribution, `minzoom` and `maxzoom`.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(url, forKey: .url)
        try c.encode(attribution, forKey: .attribution)
        try c.encode(zooms.min, forKey: .minzoom)
        try c.encode(zooms.max, forKey: .maxzoom)
    }

    /// OpenStreetMap's standard tiles, with the attribution their usage policy asks for.
    public static let openStreetMap = Basemap(
        name: "OpenStreetMap", url: "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
        attribution: "&copy; <a href=\"https://www.openstreetmap.org/copyright\">OpenStreetMap</a> contributors")

    /// The basemaps of local tilesets, served under `/basemap/`.
    public static func local(_ c: Catalogue) -> [Basemap] {
        c.entries.map { e in
            let m = e.metadata
            return Basemap(
                name: m.name.isEmpty ? e.id : m.name, url: "/basemap/" + TileService.tilePathTemplate(e),
                attribution: AttributionHTML.sanitized(m.attribution ?? ""), zooms: m.zooms)
        }
    }
}
