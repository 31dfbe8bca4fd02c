import Hummingbird
import HTTPTypes
import NIOCore

/// The thin Hummingbird layer: a request goes to `TileService.respond` and its answer is copied
/// out verbatim (no router, so the raw target reaches our own parser). Tiles already in memory
/// are answered before they get here, by `TileFastPath` with the same service.
public struct TileResponder: HTTPResponder {
    public typealias Context = TileRequestContext
    /// The logic answering requests.
    public let service: TileService

    /// A responder over a service.
    public init(service: TileService) {
        self.service = service
    }

    /// Converts the request, answers it, converts the response. A tile made on request is
    /// awaited; the source may drop it unmade once the client has gone (``ClientHangUp``).
    public func respond(to request: Request, context: TileRequestContext) async throws -> Response {
        let channel = context.channel
        let answer = await service.respond(Self.serverRequest(request.head), isCancelled: { ClientHangUp.isGone(channel) })
        let (head, body) = httpResponse(answer)
        return Response(status: head.status, headers: head.headerFields, body: body.map { ResponseBody(byteBuffer: $0) } ?? ResponseBody())
    }

    /// The request as the service sees it: method, raw target, headers by lower-cased name (the
    /// first of repeated ones).
    static func serverRequest(_ head: HTTPRequest) -> ServerRequest {
        var headers: [String: String] = [:]
        for f in head.headerFields where headers[f.name.canonicalName] == nil {
            headers[f.name.canonicalName] = f.value
        }
        // HTTP/1.1's Host header arrives as the :authority pseudo-header in swift-http-types.
        if headers["host"] == nil, let authority = head.authority { headers["host"] = authority }
        return ServerRequest(method: head.method.rawValue, target: head.path ?? "/", lowercasedHeaders: headers)
    }

    /// The service's answer as an HTTP head and body (nil when empty); a tile's body is the NIO
    /// buffer the tile cache holds, so a hot tile is written without another copy.
    func httpResponse(_ r: ServerResponse) -> (HTTPResponse, ByteBuffer?) {
        var fields = HTTPFields()
        for (k, v) in r.headers {
            if let name = HTTPField.Name(k) { fields.append(HTTPField(name: name, value: v)) }
        }
        if r.status == 204 || r.status == 304 { fields[.contentLength] = nil }  // RFC 9110 §8.6
        let head = HTTPResponse(status: HTTPResponse.Status(code: r.status), headerFields: fields)
        return (head, r.bodyCount == 0 ? nil : r.bodyBuffer)
    }
}
