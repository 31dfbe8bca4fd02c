import Foundation
import TegulaBundle
import TegulaGeometry

/// Tiles of ``DynamicTileSource``s: the same routes and checks as bundles, strong ETags from the
/// source's version (so a 304 needs no tile), `Server-Timing` with the time spent making the tile.
extension TileService {
    /// Answers one request like ``respond(_:)``, but a tile made on request is awaited (the source
    /// makes it on its own threads, never on the event loop); `isCancelled` tells the source
    /// whether the client has gone away meanwhile.
    public func respond(_ request: ServerRequest, isCancelled: @escaping @Sendable () -> Bool) async -> ServerResponse {
        guard request.method == "GET" || request.method == "HEAD",
              request.target.utf8.count <= configuration.maxTargetLength,
              case .tile(let t) = Route(target: request.target),
              let e = catalogue[t.id], let source = e.dynamic else { return respond(request) }
        if let refused = refusal(t, source.metadata) { return finish(refused, request) }
        let tile = t.tms ? Tile(x: t.x, tmsY: t.row, z: t.z) : Tile(x: t.x, y: t.row, z: t.z)
        if let r = notModified(tile, source, request) { return finish(r, request) }
        let made = await source.tile(tile, isCancelled: isCancelled)
        return finish(dynamicResponse(tile, id: t.id, source, made, request), request)
    }

    /// A strong ETag for a tile of a version: the version names every input of the tile.
    public static func entityTag(version: String, _ tile: Tile) -> String {
        "\"\(version)-\(tile.z)-\(tile.x)-\(tile.y)\""
    }

    /// The synchronous path (``respond(_:)`` and the event loop's ``respondFromMemory(_:)``):
    /// 304 or a ready tile from memory; otherwise, when `reading`, the tile made on this thread.
    func dynamicTile(_ tile: Tile, _ t: Route.TileRequest, _ source: any DynamicTileSource, _ request: ServerRequest,
                     reading: Bool) -> ServerResponse? {
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
        guard let inm = request.headers["if-none-match"] else { return nil }
        let tag = Self.entityTag(version: source.version, tile)
        guard EntityTag.matches(ifNoneMatch: inm, tag) else { return nil }
        return ServerResponse(status: 304, headers: [("ETag", tag), ("Cache-Control", configuration.cacheControl)])
    }

    /// The answer for what the source made.
    func dynamicResponse(_ tile: Tile, id: String, _ source: any DynamicTileSource, _ made: DynamicTile,
                         _ request: ServerRequest) -> ServerResponse {
        switch made {
        case let .image(bytes, version, seconds):
            var r = cached(bytes, type: source.metadata.format.contentType, request, cacheControl: configuration.cacheControl,
                           tag: Self.entityTag(version: version, tile))
            r.headers.append(("X-Content-Type-Options", "nosniff"))
            r.headers.append(("Server-Timing", seconds.map { String(format: "render;dur=%.1f", $0 * 1000) } ?? "render;dur=0;desc=\"in memory\""))
            return r
        case .empty:
            return missing(tile, in: id)
        case .outside:
            var r = text(404, "tile \(tile) is outside the footprint of '\(id)'")
            r.headers.append(("Cache-Control", configuration.cacheControl))
            return r
        case .cancelled:
            return text(503, "the client went away before tile \(tile) was rendered")
        case .failed(let why):
            return text(500, "rendering tile \(tile) of '\(id)' failed: \(why)")
        }
    }
}
