import Foundation
import TegulaHTTP
import TegulaIIIFServer
import TegulaTileset

/// `/iiif/…`: rasters served as IIIF Image API 3.0 services, answered by ``IIIFImageServer`` (the
/// same answers as on its own, with this server's headers, metrics and log).
extension TileService {
    /// The synchronous answer to an IIIF route: the window rendered on this thread.
    func iiif(_ id: String, _ path: IIIFImageServer.Path, _ request: ServerRequest) -> ServerResponse {
        switch imageServer.step(id, path, request) {
        case let .answer(r): return r
        case let .render(source, window, tag, canonical):
            return iiifImage(id, window, imageServer.renderNow(source, window), tag: tag, canonical: canonical)
        }
    }

    /// The answer to an IIIF image request with the window made off the event loop, or nil when
    /// the request is not one (``respond(_:isCancelled:)`` answers it as usual).
    func iiifAsync(_ request: ServerRequest, isCancelled: @escaping @Sendable () -> Bool) async -> ServerResponse? {
        // Checked on the raw bytes first: every tile request passes here, and needs no second parse.
        guard request.target.utf8.starts(with: "/iiif/".utf8), request.isRead,
            request.target.utf8.count <= configuration.maxTargetLength,
            case let .iiif(id, path) = Route(target: request.target)
        else { return nil }
        switch imageServer.step(id, path, request) {
        case let .answer(r): return finish(r, request, .iiif)
        case let .render(source, window, tag, canonical):
            let made = await source.image(window, isCancelled: isCancelled)
            return finish(iiifImage(id, window, made, tag: tag, canonical: canonical), request, .iiif)
        }
    }

    /// The answer for a window made, its render time counted.
    private func iiifImage(_ id: String, _ window: ImageWindow, _ made: DynamicTile, tag: String, canonical: String) -> ServerResponse {
        if case let .image(_, _, seconds?) = made { metrics?.recordRender(.nanoseconds(Int64(seconds * 1e9)), source: .render) }
        return imageServer.response(id, window, made, tag: tag, canonical: canonical)
    }
}
