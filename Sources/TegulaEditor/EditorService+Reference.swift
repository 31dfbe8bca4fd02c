import Foundation
import TegulaGeometry
import TegulaHTTP
import TegulaOnDemand
import TegulaPyramid
import TegulaScan
import TegulaServer

/// The reference of `tegula edit SCAN --reference REF` (``EditorReference``): its layer on the
/// map (`/reference.json`, and its tiles under `/reference/`), and the matching API,
/// `GET /api/suggest` and `GET /api/snap?x=&y=` (routes in ``EditorRoute``).
extension EditorService {
    /// How the reference's tiles are served: a local tileset as it is, by a ``TileService`` of its
    /// own; an image warped on demand, as a fit's overlay is; a tileset on a server, by that
    /// server (the page is told its template).
    enum ReferenceTiles {
        case tileset(TileService, CatalogueEntry)
        case onDemand(OnDemandSource)
        case remote(OverlayInfo)

        /// The tiles of `reference`'s layer; nil when it has none.
        static func make(
            _ reference: EditorReference?, scans: any ScanOpener, queue: RenderQueue, memo: TileMemo,
            log: @escaping @Sendable (String) -> Void
        ) throws -> ReferenceTiles? {
            switch reference?.layer {
            case .tileset(let path):
                let catalogue = try Catalogue.load(paths: [path])
                guard let entry = catalogue.entries.first else { return nil }
                return .tileset(TileService(catalogue: catalogue, leafletDirectory: nil), entry)
            case .warped(let input):
                return .onDemand(
                    try OnDemandSource(id: "reference", queue: queue, memo: memo, log: log) {
                        OnDemandSource.Loaded(job: TileJob(source: try input.resolve(opening: scans), output: "", name: "reference"))
                    })
            case let .remote(template, zooms, b)?:
                return .remote(OverlayInfo(zooms: zooms, bounds: b, tiles: template))
            case .none?, nil:
                return nil
            }
        }
    }

    /// What the page is told of the reference: its name and where its layer's zooms, bounds and
    /// tile template are (`/reference.json`, nil when it has no layer).
    struct ReferenceConfig: Encodable {
        var name: String
        var info: String?
    }

    /// The page's reference entry; nil without a reference.
    var referenceConfig: ReferenceConfig? {
        reference.map { ReferenceConfig(name: ($0.name as NSString).lastPathComponent, info: referenceTiles == nil ? nil : "/reference.json") }
    }

    /// `/reference.json`: the layer's zooms, bounds and tile template, as `/overlay/{version}.json` answers.
    func referenceInfo() throws -> ServerResponse {
        switch try referenceLayer() {
        case let .tileset(_, e):
            return .json(OverlayInfo(zooms: e.metadata.zooms, bounds: e.metadata.bounds, tiles: "/reference/" + TileService.tilePathTemplate(e)))
        case .onDemand(let source):
            return .json(Self.info(of: source, at: "/reference"))
        case .remote(let info):
            return .json(info)
        }
    }

    /// A tile of the layer: `/reference/{z}/{x}/{y}.png` of a warped image, or the rest of the
    /// target as the tileset's own ``TileService`` answers it.
    func referenceTile(
        _ request: ServerRequest, target: String, path: TilePath?,
        isCancelled: @escaping @Sendable () -> Bool
    ) async throws -> ServerResponse {
        switch try referenceLayer() {
        case .tileset(let service, _):
            return await service.respond(ServerRequest(method: request.method, target: target), isCancelled: isCancelled)
        case .onDemand(let source):
            guard let path else { throw ServerError(.noRoute, "the reference's tiles are /reference/{z}/{x}/{y}.png") }
            return try await tile(path, of: source, id: "reference", cacheControl: "no-cache", isCancelled: isCancelled)
        case .remote(let info):
            throw ServerError(.noRoute, "the reference's tiles come from its own server: \(info.tiles)")
        }
    }

    /// `GET /api/suggest`: the pairs the match proposes (``Suggestions``).
    func suggest() throws -> ServerResponse {
        .json(try matchingReference().suggestions())
    }

    /// `GET /api/snap?x=&y=`: the twin of scan pixel x, y on the reference (``Twin``).
    func snap(_ q: RequestTarget) throws -> ServerResponse {
        guard let x = q.double("x"), let y = q.double("y") else { throw ServerError(.malformedTarget, "give the scan pixel as x and y, numbers") }
        guard x >= 0, y >= 0, x <= Double(pane.width), y <= Double(pane.height) else {
            throw EditorError(.pixelOutsideScan, at: "x, y", "(\(x), \(y)) is outside the scan (x must be 0…\(pane.width), y 0…\(pane.height))")
        }
        return .json(try matchingReference().twin(of: PixelPoint(x: x, y: y)))
    }

    private func matchingReference() throws -> EditorReference {
        guard let reference else { throw ServerError(.noRoute, "no reference to match: start the editor with --reference REF") }
        return reference
    }

    private func referenceLayer() throws -> ReferenceTiles {
        guard let referenceTiles else {
            throw ServerError(.noRoute, "no reference layer: start the editor with --reference REF (a local file or a tileset's URL)")
        }
        return referenceTiles
    }
}
