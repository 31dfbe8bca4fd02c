import Foundation

/// How a Tegula server answers at the HTTP level, whatever it serves: the connection limits
/// ``HTTPServer`` applies to every service, and the base URL and CORS origin of its answers. What
/// the tile server and the IIIF image server answer is shaped by their own configurations
/// (`TileServerConfiguration`, `IIIFServerConfiguration`).
public struct ServerConfiguration: Sendable, Equatable {
    /// Base of absolute URLs (e.g. `https://maps.example.org/tiles`); nil: from the `Host` header.
    public var publicURL: String?
    /// `Access-Control-Allow-Origin` value (`*` or one origin); nil turns CORS headers off.
    public var corsOrigin: String?
    /// Longest request target accepted (longer: 414).
    public var maxTargetLength: Int
    /// A connection with nothing awaiting an answer is closed after this long without progress
    /// (a slowloris client trickling a request head included); nginx waits 60 s for a head too.
    public var idleTimeout: Duration
    /// Longest request target or header field, and longest head, NIO's decoder accepts: past it
    /// the answer is 414 (target) or 431 (headers) and the connection is closed. Targets longer
    /// than ``maxTargetLength`` but within this are 414 too, from the service.
    public var maxHeaderBytes: Int

    /// The base of absolute URLs a server writes (TileJSON tile URLs, IIIF service ids):
    /// ``publicURL``, else `http://` and a `Host` header of host characters only, else empty.
    public func baseURL(_ request: ServerRequest) -> String {
        if let base = publicURL, !base.isEmpty { return base }
        if let host = request.headers[ServerRequest.host],
            host.utf8.allSatisfy({ $0 < 128 && (isalnum(Int32($0)) != 0 || ".:-[]_".utf8.contains($0)) })
        {
            return "http://" + host
        }
        return ""
    }

    /// The defaults of `tegula serve`.
    public init(
        publicURL: String? = nil, corsOrigin: String? = "*", maxTargetLength: Int = 2048,
        idleTimeout: Duration = .seconds(60), maxHeaderBytes: Int = 16 << 10
    ) {
        self.publicURL = publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        self.corsOrigin = corsOrigin
        self.maxTargetLength = maxTargetLength
        self.idleTimeout = idleTimeout
        self.maxHeaderBytes = maxHeaderBytes
    }
}
