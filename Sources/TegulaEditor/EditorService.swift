import Foundation
import TegulaBundle
import TegulaCodec
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaOnDemand
import TegulaPyramid
import TegulaServer
import TegulaSupport
import TegulaWarp

/// A request as the editor sees it: method, raw target, body.
public struct EditorRequest: Sendable {
    public var method: String
    public var target: String
    public var body: [UInt8]

    public init(method: String = "GET", target: String, body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.body = body
    }
}

/// The editor's server logic, one function from request to response (the Hummingbird layer,
/// ``EditorServer``, only moves bytes): the page and Leaflet, the session API, the raw scan's
/// pixel-space tiles, the warped overlay of a fit (by version), and local basemap tilesets
/// (answered by a ``TileService`` of their own under `/basemap/`).
public final class EditorService: @unchecked Sendable {
    /// The scan edited.
    public let scanPath: String
    /// Where Save writes.
    public let output: String
    /// The raw scan's tiles.
    public let pyramid: ScanPyramid
    /// Basemaps the page offers, in order (the first is shown).
    public let basemaps: [Basemap]
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

    /// A service for one scan. `initial` is the session to start from when there is no
    /// autosave sidecar beside `output`; with one, the sidecar's session is restored.
    public init(scanPath: String, output: String, initial: EditorSession, basemaps: [Basemap], basemapTilesets: Catalogue?,
                leafletDirectory: String = ViewerAssets.debianLeaflet, renderThreads: Int = 2, cacheBytes: Int = 128 << 20,
                log: @escaping @Sendable (String) -> Void = { _ in }) throws {
        self.scanPath = scanPath
        self.output = output
        pyramid = try ScanPyramid(path: scanPath)
        self.basemaps = basemaps
        basemapService = basemapTilesets.map { TileService(catalogue: $0, leafletDirectory: "/nonexistent") }
        let assets = ViewerAssets(catalogue: try Catalogue([]), leafletDirectory: leafletDirectory)
        leaflet = assets.files.filter { $0.key.hasPrefix("leaflet/") }
        var start = initial
        start.output = output
        if let restored = Self.restore(sidecar: Self.sidecarPath(output)) {
            start = restored
            start.output = output
            log("tegula: restored the session from \(Self.sidecarPath(output)) (\(restored.gcps.count) points)")
        }
        session = Locked(start)
        queue = RenderQueue(workers: renderThreads)
        memo = TileMemo(byteBudget: cacheBytes)
        self.log = log
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
    public func respond(_ request: EditorRequest) async -> ServerResponse {
        let (path, query) = Self.split(request.target)
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let m = request.method
        switch (m, parts.first ?? "") {
        case (_, "api"):
            return api(m, Array(parts.dropFirst()), query, request.body)
        case ("GET", "scan"), ("HEAD", "scan"):
            return scanTile(Array(parts.dropFirst()))
        case ("GET", "overlay"), ("HEAD", "overlay"):
            return await overlay(Array(parts.dropFirst()))
        case ("GET", "basemap"), ("HEAD", "basemap"):
            guard let basemapService else { return Self.error(404, "no local basemap tileset is served") }
            let rest = String(request.target.dropFirst("/basemap".count))
            return await basemapService.respond(ServerRequest(method: m, target: rest.isEmpty ? "/" : rest), isCancelled: { false })
        case ("GET", "leaflet"), ("HEAD", "leaflet"):
            guard let a = leaflet[parts.joined(separator: "/")] else { return Self.error(404, "no such asset: \(path)") }
            return ServerResponse(status: 200, headers: [("Content-Type", a.contentType), ("Cache-Control", "public, max-age=86400")], body: a.bytes)
        case ("GET", ""), ("HEAD", ""):
            return ServerResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache")],
                                  body: Array(EditorPage.html(config: pageConfig()).utf8))
        case ("GET", "editor.js"), ("HEAD", "editor.js"):
            return ServerResponse(status: 200, headers: [("Content-Type", "text/javascript; charset=utf-8"), ("Cache-Control", "no-cache")],
                                  body: Array(EditorScript.source.utf8))
        case (_, ""), (_, "scan"), (_, "overlay"), (_, "basemap"), (_, "leaflet"), (_, "editor.js"):
            return Self.error(405, "\(m) is not allowed on \(path): use GET", allow: "GET, HEAD")
        default:
            return Self.error(404, "no such route: \(path)")
        }
    }

    // MARK: helpers

    func pageConfig() -> String {
        let bm = basemaps.map { b in
            "{\"name\":\(Self.quote(b.name)),\"url\":\(Self.quote(b.url)),\"attribution\":\(Self.quote(b.attribution)),\"minzoom\":\(b.minZoom),\"maxzoom\":\(b.maxZoom)}"
        }.joined(separator: ",")
        return "{\"scan\":\(Self.quote((scanPath as NSString).lastPathComponent)),\"width\":\(pyramid.width),\"height\":\(pyramid.height),\"maxzoom\":\(pyramid.maxZoom),\"tilesize\":\(ScanPyramid.tileSize),\"output\":\(Self.quote(output)),\"basemaps\":[\(bm)]}"
    }

    static func quote(_ s: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [s], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8)
        return ViewerAssets.scriptSafe(json: String(decoding: data.dropFirst().dropLast(), as: UTF8.self))
    }

    static func split(_ target: String) -> (String, [String: String]) {
        guard let q = target.firstIndex(of: "?") else { return (target, [:]) }
        var query: [String: String] = [:]
        for pair in target[target.index(after: q)...].split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            if let k = kv.first { query[k] = kv.count > 1 ? kv[1] : "" }
        }
        return (String(target[..<q]), query)
    }

    static func json(_ status: Int, _ body: Data) -> ServerResponse {
        ServerResponse(status: status, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body: Array(body))
    }

    /// `{"error": "…"}` with a status.
    static func error(_ status: Int, _ message: String, allow: String? = nil) -> ServerResponse {
        let data = (try? JSONSerialization.data(withJSONObject: ["error": message], options: [.withoutEscapingSlashes])) ?? Data()
        var r = json(status, data)
        if let allow { r.headers.append(("Allow", allow)) }
        return r
    }

    /// 422 `{"error", "code", "field"}` for a refused session.
    static func refusal(_ e: EditorError) -> ServerResponse {
        var o: [String: Any] = ["error": e.description, "code": e.reason.code]
        if let l = e.location { o["field"] = l }
        let data = (try? JSONSerialization.data(withJSONObject: o, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return json(422, data)
    }
}

/// A basemap the page offers: a URL template (`{z}/{x}/{y}`) with its attribution and zooms.
public struct Basemap: Sendable, Equatable {
    public var name: String
    public var url: String
    public var attribution: String
    public var minZoom: Int
    public var maxZoom: Int

    public init(name: String, url: String, attribution: String, minZoom: Int = 0, maxZoom: Int = 19) {
        self.name = name
        self.url = url
        self.attribution = attribution
        self.minZoom = minZoom
        self.maxZoom = maxZoom
    }

    /// OpenStreetMap's standard tiles, with the attribution their usage policy asks for.
    public static let openStreetMap = Basemap(name: "OpenStreetMap", url: "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
                                              attribution: "&copy; <a href=\"https://www.openstreetmap.org/copyright\">OpenStreetMap</a> contributors",
                                              minZoom: 0, maxZoom: 19)

    /// The basemaps of local tilesets, served under `/basemap/`.
    public static func local(_ c: Catalogue) -> [Basemap] {
        c.entries.map { e in
            let m = e.metadata
            return Basemap(name: m.name.isEmpty ? e.id : m.name, url: "/basemap/" + TileService.tilePathTemplate(e),
                           attribution: AttributionHTML.sanitized(m.attribution ?? ""), minZoom: m.minZoom, maxZoom: m.maxZoom)
        }
    }
}
