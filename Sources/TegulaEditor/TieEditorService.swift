import Foundation
import HTTPTypes
import Logging
import TegulaGeometry
import TegulaHTTP
import TegulaIIIFServer
import TegulaOnDemand
import TegulaPipeline
import TegulaPyramid
import TegulaServer
import TegulaSupport

/// The tie editor's server logic (`tegula edit PIPELINE --map A --tie-with B`): two sheets of a
/// pipeline side by side, each scan an IIIF Image API 3.0 service under `/iiif/{map name}/`
/// (``ScanPane``); click a place on one and the same place on the other to add a tie; the seam
/// error of every tie from the two sheets' current fits (``TiePair``) answered on every edit;
/// Save rewrites the pipeline's `ties:` list in place (``PipelineTiesFile``), or with `ties: auto`
/// the pair's rows of its `ties_from:` file (``TiesFileEdit``: hand ties, found ties moved, and
/// found ties removed or moved as `rejected` rows, which the next run leaves out). Routes are
/// ``TieRoute``'s table; refusals are JSON `{"error": …}` with the status their error carries.
public final class TieEditorService: HTTPService, @unchecked Sendable {
    /// The two sheets, their fits and the ties they started with.
    public let pair: TiePair
    /// Sheet A's and sheet B's scans.
    public let paneA: ScanPane, paneB: ScanPane
    let leaflet: [String: ViewerAssets.Asset]
    let session: Locked<TieSession>
    /// The found ties not yet removed or moved by a save (``TiePair/found`` at first).
    let found: Locked<[EditorTie]>
    let log: @Sendable (String) -> Void

    /// Largest request body accepted.
    public var maxBodyBytes: Int { EditorService.maxBody }
    /// Connection limits: `tegula serve`'s defaults.
    public let configuration = ServerConfiguration()
    /// Where the HTTP layer logs.
    public let logger = Logger(label: "tegula.edit")

    /// A service for the two maps of `pair`.
    public init(
        pair: TiePair, leafletDirectory: String = ViewerAssets.debianLeaflet, renderThreads: Int = 2,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        self.pair = pair
        let queue = RenderQueue(workers: renderThreads)
        paneA = try ScanPane(path: pair.scanA, id: pair.sheetA.name, queue: queue, logger: logger)
        paneB = try ScanPane(path: pair.scanB, id: pair.sheetB.name, queue: queue, logger: logger)
        leaflet = ViewerAssets.leaflet(in: leafletDirectory)
        session = Locked(TieSession(mapA: pair.sheetA.name, mapB: pair.sheetB.name, ties: pair.ties))
        found = Locked(pair.found)
        self.log = log
    }

    /// The session now (as started, or as last saved).
    public var current: TieSession { session.withLock { $0 } }

    /// Answers one request.
    public func respond(_ request: ServerRequest, isCancelled: @escaping @Sendable () -> Bool) async -> ServerResponse {
        do {
            switch try TieRoute(request) {
            case .page:
                return ServerResponse(
                    status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
                    body: Array(TiePage.html(config: pageConfig()).utf8))
            case .script(let name):
                let source = name == "ties.js" ? TiePage.script : name == "editing.js" ? EditingScript.source : TiePage.scanTiles
                return ServerResponse(
                    status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
                    body: Array(source.utf8))
            case .leaflet(let name):
                guard let a = leaflet[name] else { throw TileServerError(.unknownAsset, "no such asset: /\(name)") }
                return ServerResponse(status: .ok, headers: [.contentType: a.contentType, .cacheControl: "public, max-age=86400"], body: a.bytes)
            case .iiif(let map):
                let pane = map == paneA.id ? paneA : paneB
                return await pane.service.respond(request, isCancelled: isCancelled)
            case .ties:
                if request.method == .get { return .json(current) }
                return try saving(request.body)
            case .seams:
                return .json(try pair.figures(TieSession.decode(Data(request.body))))
            case .predict:
                return try predict(try RequestTarget(request.target))
            }
        } catch let e as ServerError {
            var r = refuse(e)
            if e.reason == .methodNotAllowed, let allow = TieRoute.table.allow(for: request.target) { r.headers[.allow] = allow }
            return r
        } catch let e as any HTTPRefusal {
            return refuse(e)
        } catch let e as EditorError {
            return EditorService.refusal(e)
        } catch {
            return refuse(TileServerError(.renderFailed, "\(error)"))
        }
    }

    /// Check, figure, then rewrite the pipeline's `ties:` list (with `ties: auto`, the pair's rows
    /// of the ties file); the figures with `saved` set.
    func saving(_ body: [UInt8]) throws -> ServerResponse {
        var s = try TieSession.decode(Data(body))
        var figures = try pair.figures(s)
        guard let file = pair.tiesFile else {
            try PipelineTiesFile.save(s.ties, mapA: s.mapA, mapB: s.mapB, to: pair.pipelineFile)
            session.withLock { $0 = s }
            log("tegula: saved \(s.ties.count) ties between \(s.mapA) and \(s.mapB) to \(pair.pipelineFile)")
            figures.saved = pair.pipelineFile
            return .json(figures)
        }
        let (hand, rejected, kept) = pair.split(s, found: found.withLock { $0 })
        do { try TiesFileEdit.save(mapA: s.mapA, mapB: s.mapB, ties: hand, rejected: rejected, to: file) } catch {
            throw EditorError(.writeFailed, at: file, "\(error)")
        }
        let still = Set(kept.map(\.id))
        for i in s.ties.indices where !still.contains(s.ties[i].id) { s.ties[i].score = nil }
        found.withLock { $0 = kept }
        session.withLock { $0 = s }
        log(
            "tegula: saved \(hand.count) hand ties and \(rejected.count) removed found ties between \(s.mapA) and \(s.mapB) to \(file) (\(kept.count) found ties kept as found)"
        )
        figures.saved = file
        return .json(figures)
    }

    /// `?from=a|b&x=&y=` → `{"pixel": [x, y]}`: where the other sheet's fit puts the place the
    /// `from` sheet's fit puts pixel x, y (the twin the page offers; null outside the other scan).
    func predict(_ q: RequestTarget) throws -> ServerResponse {
        guard let from = q.query["from"], from == "a" || from == "b", let x = q.double("x"), let y = q.double("y") else {
            throw ServerError(.malformedTarget, "give from (a or b), x and y as numbers")
        }
        let p = try pair.predict(from: from == "a", PixelPoint(x: x, y: y))
        return .json(EditorService.PointAnswer(pixel: p.map { [$0.x, $0.y] }))
    }

    /// A refusal as the editor answers it: `{"error": …}` with the error's status.
    public func refuse(_ error: ServerError) -> ServerResponse { refuse(error as any HTTPRefusal) }

    /// Any server's refusal (the core's, the tile server's, the IIIF server's) as the editor answers it.
    public func refuse(_ error: any HTTPRefusal) -> ServerResponse {
        .json(EditorService.ErrorBody(error: error.description), status: error.status ?? .internalServerError)
    }

    /// One sheet as the page needs it.
    struct SheetConfig: Encodable {
        var name: String
        var width: Int
        var height: Int
        var maxzoom: Int
        var tilesize: Int
        var iiif: String
    }

    struct PageConfig: Encodable {
        var a: SheetConfig
        var b: SheetConfig
        var pipeline: String
        var tieWeight: Double
        enum CodingKeys: String, CodingKey { case a, b, pipeline, tieWeight = "tie_weight" }
    }

    func pageConfig() -> String {
        func sheet(_ p: ScanPane) -> SheetConfig {
            SheetConfig(
                name: p.id, width: p.width, height: p.height, maxzoom: p.maxZoom, tilesize: ScanPane.tileSize,
                iiif: "/iiif/" + IIIFImageServer.percentEncoded(p.id))
        }
        let config = PageConfig(a: sheet(paneA), b: sheet(paneB), pipeline: pair.pipelineFile, tieWeight: pair.tieWeight)
        let json = (try? JSONStyle.compact.string(config)) ?? "{}"
        return PageTemplate.scriptSafe(json: json)
    }
}

/// The tie editor's page (`Pages/ties.html`, styled by `Pages/ties.css`), its script
/// (`Pages/ties.js`) and the IIIF scan tiles it shares with the GCP editor (`Pages/scan-tiles.js`),
/// all embedded by SwiftPM's `embedInCode`.
enum TiePage {
    static let template = PageTemplate(PackageResources.ties_html)
    static let style = String(decoding: PackageResources.ties_css, as: UTF8.self)
    static let script = String(decoding: PackageResources.ties_js, as: UTF8.self)
    static let scanTiles = String(decoding: PackageResources.scan_tiles_js, as: UTF8.self)

    static func html(config: String) -> String {
        template.filled(["style": style, "config": config])
    }
}
