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
/// found ties removed or moved as `rejected` rows, which the next run leaves out; the rejected
/// rows of removed found ties put back dropped); then the pair is opened again from the files,
/// so what the API answers after a save is what they hold, as the next run reads them. Routes
/// are ``TieRoute``'s table; refusals are JSON `{"error": …}` with the status their error carries.
public final class TieEditorService: HTTPService, @unchecked Sendable {
    /// Sheet A's and sheet B's scans.
    public let paneA: ScanPane, paneB: ScanPane
    let leaflet: [String: ViewerAssets.Asset]
    /// The pair as opened at start, then again after each save; held while a save writes.
    let opened: Locked<TiePair>
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
        let queue = RenderQueue(workers: renderThreads)
        paneA = try ScanPane(path: pair.scanA, id: pair.sheetA.name, queue: queue, logger: logger)
        paneB = try ScanPane(path: pair.scanB, id: pair.sheetB.name, queue: queue, logger: logger)
        leaflet = ViewerAssets.leaflet(in: leafletDirectory)
        opened = Locked(pair)
        self.log = log
    }

    /// The two sheets, their fits and the ties the files hold (as started, or as read back after
    /// the last save).
    public var pair: TiePair { opened.current }

    /// The session now: the pair's as opened at start or after the last save.
    public var current: TieSession { pair.session }

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

    /// Check, figure, rewrite the pipeline's `ties:` list (with `ties: auto`, the pair's rows of
    /// the ties file), then open the pair again from the files; the figures of the session sent,
    /// with `saved` set. A save that wrote but cannot be opened again says so.
    func saving(_ body: [UInt8]) throws -> ServerResponse {
        let s = try TieSession.decode(Data(body))
        return try opened.withLock { pair in
            var figures = try pair.figures(s)
            let file = try write(s, of: pair)
            do { pair = try TiePair(pipeline: pair.pipelineFile, mapA: s.mapA, mapB: s.mapB) } catch {
                throw EditorError(.unreadableInput, at: file, "saved, but the pair cannot be opened again: \(error)")
            }
            log(
                "tegula: saved the ties between \(s.mapA) and \(s.mapB) to \(file); read back: \(pair.ties.count - pair.found.count) hand ties, \(pair.found.count) found, \(pair.removed.count) found ties removed"
            )
            figures.saved = file
            return .json(figures)
        }
    }

    /// Write `s` into the pipeline's `ties:` list, or with `ties: auto` the pair's rows of the
    /// ties file; the file written.
    func write(_ s: TieSession, of pair: TiePair) throws -> String {
        guard let file = pair.tiesFile else {
            try PipelineTiesFile.save(s.ties, mapA: s.mapA, mapB: s.mapB, to: pair.pipelineFile)
            return pair.pipelineFile
        }
        let (hand, rejected, restored) = pair.split(s)
        do { try TiesFileEdit.save(mapA: s.mapA, mapB: s.mapB, ties: hand, rejected: rejected, restored: restored, to: file) } catch {
            throw EditorError(.writeFailed, at: file, "\(error)")
        }
        return file
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
