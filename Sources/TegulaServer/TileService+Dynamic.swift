import Foundation
import HTTPTypes
import TegulaGeometry
import TegulaHTTP
import TegulaTileset

/// Tiles of ``DynamicTileSource``s: the same routes and checks as bundles, strong ETags from the
/// source's version (so a 304 needs no tile), `Server-Timing` with the time spent making the tile.
extension TileService {
    /// Answers one request like ``respond(_:)``, but a tile made on request, or an IIIF image, is
    /// awaited (the source makes it on its own threads, never on the event loop); `isCancelled` tells the source
    /// whether the client has gone away meanwhile.
    public func respond(_ request: ServerRequest, isCancelled: @escaping @Sendable () -> Bool) async -> ServerResponse {
        if let r = await iiifAsync(request, isCancelled: isCancelled) { return r }
        guard request.isRead, request.target.utf8.count <= configuration.maxTargetLength,
            case .tile(let t) = Route(target: request.target),
            let e = catalogue[t.id], let source = e.dynamic
        else { return respond(request) }
        if let refused = refusal(t, source.metadata) { return finish(refused, request) }
        let tile = Tile(x: t.x, y: t.origin.xyzRow(forRow: t.row, zoom: t.z), z: t.z)
        if let r = notModified(tile, source, request) { return finish(r, request) }
        let made = await source.tile(tile, isCancelled: isCancelled)
        return finish(dynamicResponse(tile, id: t.id, source, made, request), request)
    }

    /// The `Server-Timing` header (W3C Server Timing), which swift-http-types does not name.
    static let serverTiming = HTTPField.Name("Server-Timing")!

    /// A strong ETag for a tile of a version: the version names every input of the tile.
    public static func entityTag(version: String, _ tile: Tile) -> String {
        "\"\(version)-\(tile.z)-\(tile.x)-\(tile.y)\""
    }

    /// The synchronous path (``respond(_:)`` and the event loop's ``respondFromMemory(_:)``):
    /// 304 or a ready tile from memory; otherwise, when `reading`, the tile made on this thread.
    func dynamicTile(
        _ tile: Tile, _ t: Route.TileRequest, _ source: any DynamicTileSource, _ request: ServerRequest,
        reading: Bool
    ) -> ServerResponse? {
        if let r = notModified(tile, source, request) { return r }
        if let ready = source.readyTile(tile) { return dynamicResponse(tile, id: t.id, source, ready, request) }
        guard reading else { return nil }
        let version = source.version
        let start = Date()
        do {
            guard let bytes = try source.tile(tile) else { return missing(tile, in: t.id) }
            return dynamicResponse(tile, id: t.id, source, .image(bytes, version: version, seconds: Date().timeIntervalSince(start)), request)
        } catch {
            return dynamicResponse(tile, id: t.id, source, .failed("\(error)"), request)
        }
    }

    /// 304 when `If-None-Match` names the tile at the source's current version.
    func notModified(_ tile: Tile, _ source: any DynamicTileSource, _ request: ServerRequest) -> ServerResponse? {
        guard let inm = request.headers[.ifNoneMatch] else { return nil }
        let tag = Self.entityTag(version: source.version, tile)
        guard EntityTag.matches(ifNoneMatch: inm, tag) else { return nil }
        return ServerResponse(status: .notModified, headers: [.eTag: tag, .cacheControl: tileConfiguration.cacheControl])
    }

    /// The answer for what the source made.
    func dynamicResponse(
        _ tile: Tile, id: String, _ source: any DynamicTileSource, _ made: DynamicTile,
        _ request: ServerRequest
    ) -> ServerResponse {
        switch made {
        case let .image(bytes, version, seconds):
            if let seconds {  // made now: a miss, and its time
                metrics?.cacheMiss()
                metrics?.recordRender(.nanoseconds(Int64(seconds * 1e9)), source: .render)
            } else {
                metrics?.cacheHit()
            }
            let tag = Self.entityTag(version: version, tile)
            var headers: HTTPFields = [
                .eTag: tag, .cacheControl: tileConfiguration.cacheControl, .xContentTypeOptions: "nosniff",
                Self.serverTiming: seconds.map { String(format: "render;dur=%.1f", $0 * 1000) } ?? "render;dur=0;desc=\"in memory\"",
            ]
            if let inm = request.headers[.ifNoneMatch], EntityTag.matches(ifNoneMatch: inm, tag) {
                return ServerResponse(status: .notModified, headers: headers)
            }
            headers.insert(HTTPField(name: .contentType, value: source.metadata.format.contentType(of: bytes)), at: 0)  // auto: per tile
            return ServerResponse(status: .ok, headers: headers, body: bytes)
        case .empty:
            metrics?.cacheMiss()
            return missing(tile, in: id)
        case .outside:
            var r = refuse(.outsideFootprint(id: id, tile: tile))
            r.headers.append(HTTPField(name: .cacheControl, value: tileConfiguration.cacheControl))
            return r
        case .cancelled:
            return refuse(.clientGone(tile: tile))
        case let .unavailable(why, retryAfter):
            metrics?.cacheMiss()
            let failure = TileServerError.upstreamUnavailable(id: id, tile: tile, reason: why)
            logger.error("\(failure)")
            var r = refuse(failure)
            r.headers.append(HTTPField(name: .retryAfter, value: "\(retryAfter)"))
            return r
        case .failed(let why):
            metrics?.cacheMiss()
            let failure = TileServerError.renderFailed(id: id, tile: tile, reason: why)
            logger.error("\(failure)")
            return refuse(failure)
        }
    }
}
