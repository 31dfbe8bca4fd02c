import Foundation
import Hummingbird
import HummingbirdCore
import HTTPTypes
import NIOCore

/// The thin Hummingbird layer: a request goes to `TileService.respond` and its answer is copied
/// out verbatim (no router, so the raw target reaches our own parser). Tiles already in memory
/// are answered before they get here, by `TileFastPath` with the same service.
public struct TileResponder: HTTPResponder {
    public typealias Context = TileRequestContext
    /// The logic answering requests.
    public let service: TileService
    /// Bodies of 200 responses already copied into NIO buffers, by their strong ETag (a content
    /// hash and length), so a hot tile is written to the socket without another copy.
    let buffers: BodyBuffers

    /// A responder over a service.
    public init(service: TileService) {
        self.service = service
        buffers = BodyBuffers(byteBudget: service.configuration.tileCacheBytes)
    }

    /// Converts the request, answers it, converts the response. A tile made on request is
    /// awaited; the source may drop it unmade once the connection has closed.
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

    /// The service's answer as an HTTP head and body (nil when empty); a 200's body is the NIO
    /// buffer kept for its ETag, so a hot tile is written without another copy.
    func httpResponse(_ r: ServerResponse) -> (HTTPResponse, ByteBuffer?) {
        var fields = HTTPFields()
        for (k, v) in r.headers {
            if let name = HTTPField.Name(k) { fields.append(HTTPField(name: name, value: v)) }
        }
        if r.status == 204 || r.status == 304 { fields[.contentLength] = nil }  // RFC 9110 §8.6
        let head = HTTPResponse(status: HTTPResponse.Status(code: r.status), headerFields: fields)
        return (head, r.body.isEmpty ? nil : bodyBuffer(r))
    }

    /// The body as a NIO buffer: a 200's is the one kept for its ETag (no copy for a hot tile).
    func bodyBuffer(_ r: ServerResponse) -> ByteBuffer {
        if r.status == 200, let tag = r.headers.first(where: { $0.0 == "ETag" })?.1 {
            return buffers.buffer(for: tag, r.body)
        }
        return ByteBuffer(bytes: r.body)
    }
}

/// NIO buffers by strong ETag, first in first out within a byte budget.
final class BodyBuffers: @unchecked Sendable {
    let byteBudget: Int
    private let lock = NSLock()
    private var buffers: [String: ByteBuffer] = [:]
    private var order: [String] = []
    private var head = 0
    private var bytes = 0

    init(byteBudget: Int) { self.byteBudget = max(0, byteBudget) }

    /// The buffer holding `body`, made once per tag.
    func buffer(for tag: String, _ body: [UInt8]) -> ByteBuffer {
        guard body.count <= byteBudget else { return ByteBuffer(bytes: body) }
        lock.lock()
        if let b = buffers[tag] { lock.unlock(); return b }
        lock.unlock()
        let b = ByteBuffer(bytes: body)
        lock.lock(); defer { lock.unlock() }
        if buffers[tag] == nil {
            buffers[tag] = b
            order.append(tag)
            bytes += body.count
            while bytes > byteBudget, head < order.count {
                if let old = buffers.removeValue(forKey: order[head]) { bytes -= old.readableBytes }
                head += 1
            }
            if head > 4096 && head * 2 > order.count { order.removeFirst(head); head = 0 }
        }
        return b
    }
}

/// Builds and runs the Hummingbird application for `tegula serve`.
public enum TileServer {
    /// The `Server` header's value.
    static let serverName = "tegula"

    /// The application serving `service` on host:port (not yet running).
    public static func application(service: TileService, host: String, port: Int,
                                   onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in })
        -> some ApplicationProtocol {
        let responder = TileResponder(service: service)
        return Application(responder: responder,
                    server: HTTPServerBuilder { hummingbird in
                        TileChannel(http1: HTTP1Channel(responder: hummingbird), responder: responder, serverName: serverName)
                    },
                    configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: serverName),
                    onServerRunning: onServerRunning)
    }

    /// Serves until SIGINT/SIGTERM.
    public static func run(service: TileService, host: String, port: Int,
                           onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }) async throws {
        try await application(service: service, host: host, port: port, onServerRunning: onServerRunning)
            .runService()
    }
}
