import Foundation

/// How a Tegula server answers: the connection limits ``HTTPServer`` applies to every service, and
/// the options of `tegula serve` (tiles and IIIF images) that shape responses.
public struct ServerConfiguration: Sendable, Equatable {
    /// Status for an in-range tile the tileset lacks: 404 (MapLibre falls back to the parent) or 204.
    public enum MissingTile: Int, Sendable {
        case notFound = 404
        case noContent = 204
    }

    /// Base of URLs in TileJSON (e.g. `https://maps.example.org/tiles`); nil: from the `Host` header.
    public var publicURL: String?
    /// `Access-Control-Allow-Origin` value (`*` or one origin); nil turns CORS headers off.
    public var corsOrigin: String?
    /// `Cache-Control` for tiles.
    public var cacheControl: String
    /// Answer for missing in-range tiles.
    public var missingTile: MissingTile
    /// Longest request target accepted (longer: 414).
    public var maxTargetLength: Int
    /// Bytes of tiles kept in memory once read (0: read every request from the tileset).
    public var tileCacheBytes: Int
    /// A connection with nothing awaiting an answer is closed after this long without progress
    /// (a slowloris client trickling a request head included); nginx waits 60 s for a head too.
    public var idleTimeout: Duration
    /// Longest request target or header field, and longest head, NIO's decoder accepts: past it
    /// the answer is 414 (target) or 431 (headers) and the connection is closed. Targets longer
    /// than ``maxTargetLength`` but within this are 414 too, from the service.
    public var maxHeaderBytes: Int
    /// The most pixels an IIIF image answer may have (`info.json`'s `maxArea`; a larger size is
    /// refused with 400): 2^24, 64 MiB of RGBA held per render, and at most one render per
    /// render thread at a time.
    public var imageMaxArea: Int

    /// The base of absolute URLs a server writes (TileJSON tile URLs, IIIF service ids):
    /// ``publicURL``, else `http://` and a `Host` header of host characters only, else empty.
    public func baseURL(_ request: ServerRequest) -> String {
        if let base = publicURL, !base.isEmpty { return base }
        if let host = request.headers[ServerRequest.host],
           host.utf8.allSatisfy({ $0 < 128 && (isalnum(Int32($0)) != 0 || ".:-[]_".utf8.contains($0)) }) {
            return "http://" + host
        }
        return ""
    }

    /// The defaults of `tegula serve`.
    public init(publicURL: String? = nil, corsOrigin: String? = "*", cacheControl: String = "public, max-age=3600",
                missingTile: MissingTile = .notFound, maxTargetLength: Int = 2048, tileCacheBytes: Int = 64 << 20,
                idleTimeout: Duration = .seconds(60), maxHeaderBytes: Int = 16 << 10, imageMaxArea: Int = 1 << 24) {
        self.publicURL = publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        self.corsOrigin = corsOrigin
        self.cacheControl = cacheControl
        self.missingTile = missingTile
        self.maxTargetLength = maxTargetLength
        self.tileCacheBytes = tileCacheBytes
        self.idleTimeout = idleTimeout
        self.maxHeaderBytes = maxHeaderBytes
        self.imageMaxArea = imageMaxArea
    }
}
