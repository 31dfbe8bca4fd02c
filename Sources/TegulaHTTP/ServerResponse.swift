import Foundation
import HTTPTypes
import NIOCore
import TegulaSupport

/// A response as every Tegula server's logic produces it: status and header fields as
/// swift-http-types has them, and the body; the HTTP layer (``HTTPServer``) copies it out verbatim.
///
/// A tile kept in memory is answered with the NIO buffer the cache holds (TegulaServer's tile cache),
/// so both HTTP paths write it to the socket without a copy and the cache holds each tile once;
/// `body` reads it as bytes (a copy, for tests and callers of the pure function).
public struct ServerResponse: Sendable, Equatable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// Header fields in the order they are sent.
    public var headers: HTTPFields
    @usableFromInline var payload: Payload

    /// Where a body's bytes live.
    @usableFromInline
    enum Payload: Sendable {
        case bytes([UInt8])
        case buffer(ByteBuffer)
    }

    /// A response.
    public init(status: HTTPResponse.Status, headers: HTTPFields = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        payload = .bytes(body)
    }

    /// A response whose body is a buffer kept in memory.
    public init(status: HTTPResponse.Status, headers: HTTPFields, buffer: ByteBuffer) {
        self.status = status
        self.headers = headers
        payload = .buffer(buffer)
    }

    /// A JSON answer: `value` encoded with sorted keys and unescaped slashes (the one way every
    /// Tegula server writes JSON), `Cache-Control` as given.
    public static func json(
        _ value: some Encodable, status: HTTPResponse.Status = .ok,
        cacheControl: String = "no-store"
    ) -> ServerResponse {
        let body = (try? JSONStyle.compact.encode(value)).map(Array.init) ?? Array("{}".utf8)
        return ServerResponse(status: status, headers: [.contentType: "application/json", .cacheControl: cacheControl], body: body)
    }

    /// The body's bytes.
    public var body: [UInt8] {
        get {
            switch payload {
            case let .bytes(b): return b
            case let .buffer(b): return Array(b.readableBytesView)
            }
        }
        set { payload = .bytes(newValue) }
    }

    /// The body's length in bytes, without copying it.
    @inlinable
    public var bodyCount: Int {
        switch payload {
        case let .bytes(b): return b.count
        case let .buffer(b): return b.readableBytes
        }
    }

    /// The body as a NIO buffer: the cached one for a tile in memory (no copy), else a new one.
    @inlinable
    public var bodyBuffer: ByteBuffer {
        switch payload {
        case let .bytes(b): return ByteBuffer(bytes: b)
        case let .buffer(b): return b
        }
    }

    /// The plain-text answer to a refused request: the error's status and its one-line description.
    /// The description may quote the request (a path segment, a tileset id); `nosniff` keeps any
    /// browser from reading it as HTML, so nothing a client sent is ever reflected as markup.
    public static func refusal(_ error: any HTTPRefusal) -> ServerResponse {
        ServerResponse(
            status: error.status ?? .internalServerError,
            headers: [.contentType: "text/plain; charset=utf-8", .xContentTypeOptions: "nosniff"],
            body: Array((error.description + "\n").utf8))
    }

    /// 200 with `body` and a strong ETag of it (``EntityTag``), or 304 when the request's
    /// `If-None-Match` matches that tag.
    public static func cached(_ body: [UInt8], type: String, _ request: ServerRequest, cacheControl: String) -> ServerResponse {
        let tag = EntityTag.of(body)
        if let inm = request.headers[.ifNoneMatch], EntityTag.matches(ifNoneMatch: inm, tag) {
            return ServerResponse(status: .notModified, headers: [.eTag: tag, .cacheControl: cacheControl])
        }
        return ServerResponse(status: .ok, headers: [.contentType: type, .eTag: tag, .cacheControl: cacheControl], body: body)
    }

    /// The response with the headers every answer carries added, `Access-Control-Allow-Origin`
    /// (and `Vary: Origin` for one origin) when `corsOrigin` is set and `Content-Length` unless
    /// 204 or 304, and the body dropped for a HEAD request.
    public func finished(for request: ServerRequest, corsOrigin: String?) -> ServerResponse {
        var r = self
        if let origin = corsOrigin {
            r.headers.append(HTTPField(name: .accessControlAllowOrigin, value: origin))
            if origin != "*" { r.headers.append(HTTPField(name: .vary, value: "Origin")) }
        }
        if r.status != .noContent && r.status != .notModified {
            r.headers.append(HTTPField(name: .contentLength, value: String(r.bodyCount)))
        }
        if request.method == .head { r.body = [] }
        return r
    }

    /// The first value of a header (case-insensitive); nil when absent or not a valid name.
    public func header(_ name: String) -> String? {
        HTTPField.Name(name).flatMap { headers[$0] }
    }

    /// Same status, headers in the same order, same body bytes.
    public static func == (a: ServerResponse, b: ServerResponse) -> Bool {
        a.status == b.status && a.body == b.body && a.headers.elementsEqual(b.headers)
    }
}
