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

    // MARK: the API

    func api(_ method: String, _ parts: [String], _ query: [String: String], _ body: [UInt8]) -> ServerResponse {
        switch (method, parts) {
        case ("GET", ["session"]):
            return Self.json(200, current.json())
        case ("POST", ["fit"]):
            return fitting(body, save: false)
        case ("PUT", ["session"]):
            return fitting(body, save: true)
        case ("GET", ["predict"]):
            return predict(query)
        case ("GET", ["convert"]):
            return convert(query)
        case (_, ["session"]):
            return Self.error(405, "\(method) is not allowed on /api/session: GET reads it, PUT saves it", allow: "GET, PUT")
        case (_, ["fit"]):
            return Self.error(405, "\(method) is not allowed on /api/fit: POST a session", allow: "POST")
        case (_, ["convert"]):
            return Self.error(405, "\(method) is not allowed on /api/convert", allow: "GET")
        case (_, ["predict"]):
            return Self.error(405, "\(method) is not allowed on /api/predict", allow: "GET")
        default:
            return Self.error(404, "no such API route: /api/\(parts.joined(separator: "/")); routes: GET /api/session, POST /api/fit, PUT /api/session, GET /api/predict")
        }
    }

    /// Check, autosave, fit; with `save`, also write the output.
    func fitting(_ body: [UInt8], save: Bool) -> ServerResponse {
        do {
            var s = try EditorSession.decode(Data(body))
            guard s.output.isEmpty || s.output == output else {
                throw EditorError(.badSession, at: "output", "is '\(s.output)', but this editor saves to '\(output)' (set by -o when it started)")
            }
            s.output = output
            _ = try SessionCheck(s, width: pyramid.width, height: pyramid.height)
            try autosave(s)
            let fit = try SessionFit(s, scanPath: scanPath, width: pyramid.width, height: pyramid.height)
            fits.withLock { list in
                list.removeAll { $0.version == fit.result.version }
                list.append((fit.result.version, fit))
                if list.count > 32 { list.removeFirst(list.count - 32) }
            }
            if save {
                try SessionFormat(output: output).write(fit, session: s, scanPath: scanPath, width: pyramid.width, height: pyramid.height, to: output)
                log("tegula: saved \(s.gcps.count) points (\(fit.result.transform)) to \(output)")
            }
            return Self.json(200, fit.result.json())
        } catch let e as EditorError {
            return Self.refusal(e)
        } catch {
            return Self.error(422, "\(error)")
        }
    }

    /// Keep the session in memory and in the sidecar (atomically).
    func autosave(_ s: EditorSession) throws {
        session.withLock { $0 = s }
        do { try AtomicFile.write(Array(s.json()), to: Self.sidecarPath(output)) } catch {
            throw EditorError(.writeFailed, at: Self.sidecarPath(output), "cannot autosave the session: \(error)")
        }
    }

    /// `?v=VERSION&x=&y=` → `{"ground": [x, y]}` in the session's CRS; `?v=&lon=&lat=` (ground
    /// x, y) → `{"pixel": [x, y]}` by the exact inverse.
    func predict(_ q: [String: String]) -> ServerResponse {
        guard let v = q["v"], let fit = fits.withLock({ $0.last { $0.version == v }?.fit }) else {
            return Self.error(404, "no fit with version '\(q["v"] ?? "")': POST /api/fit first")
        }
        let g = fit.georeference
        if let x = q["x"].flatMap(Double.init), let y = q["y"].flatMap(Double.init) {
            guard let p = try? g.pixelsToGround([PixelPoint(x: x, y: y)]).first, p.x.isFinite, p.y.isFinite else {
                return Self.error(422, "pixel (\(x), \(y)) has no ground position under this fit")
            }
            return Self.json(200, Data("{\"ground\":[\(p.x),\(p.y)]}".utf8))
        }
        if let lon = q["lon"].flatMap(Double.init), let lat = q["lat"].flatMap(Double.init) {
            guard let r = try? g.groundToPixels([GroundPoint(x: lon, y: lat)]).first, let p = r else {
                return Self.error(422, "ground (\(lon), \(lat)) has no pixel under this fit")
            }
            return Self.json(200, Data("{\"pixel\":[\(p.x),\(p.y)]}".utf8))
        }
        return Self.error(400, "give x and y (pixel → ground) or lon and lat (ground → pixel) as numbers")
    }

    /// `?crs=EPSG:28992&x=&y=` → `{"ground": [lon, lat]}`: a coordinate typed in a projected
    /// CRS, converted for the session (whose ground is WGS 84 longitude/latitude).
    func convert(_ q: [String: String]) -> ServerResponse {
        guard let def = q["crs"], var x = q["x"].flatMap(Double.init), var y = q["y"].flatMap(Double.init) else {
            return Self.error(400, "give crs (e.g. EPSG:28992), x and y")
        }
        do {
            let crs: CRS
            do { crs = try CRS(def) } catch { throw EditorError(.badCRS, at: "crs", "unknown CRS '\(def.prefix(80))': expected e.g. EPSG:28992") }
            var xs = [x], ys = [y]
            try EditorSession.toLonLat(from: crs, x: &xs, y: &ys, at: "ground")
            (x, y) = (xs[0], ys[0])
            guard abs(y) <= 90, abs(x) <= 180 else { throw EditorError(.invalidGround, at: "ground", "(\(x), \(y)) is not on the Earth") }
            return Self.json(200, Data("{\"ground\":[\(x),\(y)]}".utf8))
        } catch let e as EditorError {
            return Self.refusal(e)
        } catch {
            return Self.error(422, "\(error)")
        }
    }

    // MARK: tiles

    func scanTile(_ parts: [String]) -> ServerResponse {
        guard parts.count == 3, let z = Int(parts[0]), let x = Int(parts[1]), parts[2].hasSuffix(".jpg"),
              let y = Int(parts[2].dropLast(4)) else {
            return Self.error(400, "scan tiles are /scan/{z}/{x}/{y}.jpg")
        }
        do {
            guard let jpeg = try pyramid.tile(z: z, x: x, y: y) else { return Self.error(404, "tile \(z)/\(x)/\(y) is outside the scan") }
            return ServerResponse(status: 200, headers: [("Content-Type", "image/jpeg"), ("Cache-Control", "public, max-age=86400")], body: jpeg)
        } catch {
            return Self.error(500, "\(error)")
        }
    }

    /// `/overlay/{version}.json` (zooms and bounds) and `/overlay/{version}/{z}/{x}/{y}.png`: the
    /// scan warped by the fit of that version, rendered on demand by ``OnDemandSource``. The URL
    /// names the fit, so tiles are immutable.
    func overlay(_ parts: [String]) async -> ServerResponse {
        let version = parts.first.map { $0.hasSuffix(".json") ? String($0.dropLast(5)) : $0 } ?? ""
        let source: OnDemandSource
        do {
            guard let s = try overlaySource(version) else { return Self.error(404, "no fit with version '\(version)': POST /api/fit first") }
            source = s
        } catch {
            return Self.error(500, "the overlay of fit \(version) cannot be rendered: \(error)")
        }
        if parts.count == 1 {
            let m = source.metadata, b = m.bounds
            let json = "{\"minzoom\":\(m.minZoom),\"maxzoom\":\(m.maxZoom),\"bounds\":[\(b.west),\(b.south),\(b.east),\(b.north)],\"tiles\":\"/overlay/\(version)/{z}/{x}/{y}.\(m.format.fileExtension)\"}"
            return Self.json(200, Data(json.utf8))
        }
        guard parts.count == 4, let z = Int(parts[1]), let x = Int(parts[2]),
              let dot = parts[3].firstIndex(of: "."), let y = Int(parts[3][..<dot]), z >= 0, z < 31 else {
            return Self.error(400, "overlay tiles are /overlay/{version}/{z}/{x}/{y}.png")
        }
        let n = 1 << z
        guard (0..<n).contains(x), (0..<n).contains(y) else { return Self.error(404, "no tile \(z)/\(x)/\(y)") }
        let immutable = ("Cache-Control", "public, max-age=31536000, immutable")
        switch await source.tile(Tile(x: x, y: y, z: z), isCancelled: { false }) {
        case let .image(bytes, _, _):
            return ServerResponse(status: 200, headers: [("Content-Type", source.metadata.format.contentType(of: bytes)), immutable], body: bytes)
        case .empty, .outside:
            return ServerResponse(status: 200, headers: [("Content-Type", "image/png"), immutable], body: emptyTile)
        case .cancelled:
            return Self.error(503, "the client went away")
        case .failed(let why):
            return Self.error(500, why)
        }
    }

    /// The on-demand source of fit `version` (made on first use; the last four are kept).
    func overlaySource(_ version: String) throws -> OnDemandSource? {
        if let s = overlays.withLock({ $0.last { $0.version == version }?.source }) { return s }
        guard let fit = fits.withLock({ $0.last { $0.version == version }?.fit }) else { return nil }
        let scan = scanPath
        let input = WarpInput(path: scan, gcpSet: fit.check.set, fit: FitOptions(transform: fit.georeference.kind), mask: fit.check.mask)
        let source = try OnDemandSource(id: "overlay-" + version, queue: queue, memo: memo, log: log) {
            OnDemandSource.Loaded(job: TileJob(source: try input.resolve(), output: "", name: "overlay"))
        }
        overlays.withLock { list in
            if let s = list.last(where: { $0.version == version }) { _ = s; return }
            list.append((version, source))
            if list.count > 4 {
                for old in list.prefix(list.count - 4) { memo.removeVersions(of: old.source.id, except: "") }
                list.removeFirst(list.count - 4)
            }
        }
        return overlays.withLock { $0.last { $0.version == version }?.source }
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
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self).replacingOccurrences(of: "</", with: "<\\/")
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
                           attribution: m.attribution ?? "", minZoom: m.minZoom, maxZoom: m.maxZoom)
        }
    }
}
