import Foundation
import Hummingbird
import HTTPTypes
import NIOCore

/// The thin Hummingbird layer: every request goes to `TileService.respond` and its answer is
/// copied out verbatim (no router, so the raw target reaches our own parser).
public struct TileResponder: HTTPResponder {
    public typealias Context = BasicRequestContext
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

    /// Converts the request, answers it, converts the response.
    public func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        var headers: [String: String] = [:]
        for f in request.headers where headers[f.name.canonicalName] == nil {
            headers[f.name.canonicalName] = f.value
        }
        // HTTP/1.1's Host header arrives as the :authority pseudo-header in swift-http-types.
        if headers["host"] == nil, let authority = request.head.authority { headers["host"] = authority }
        let r = service.respond(ServerRequest(method: request.method.rawValue, target: request.head.path ?? "/", headers: headers))
        var fields = HTTPFields()
        for (k, v) in r.headers {
            if let name = HTTPField.Name(k) { fields.append(HTTPField(name: name, value: v)) }
        }
        let body: ResponseBody
        if r.body.isEmpty {
            body = ResponseBody()
        } else if r.status == 200, let tag = r.headers.first(where: { $0.0 == "ETag" })?.1 {
            body = ResponseBody(byteBuffer: buffers.buffer(for: tag, r.body))
        } else {
            body = ResponseBody(byteBuffer: ByteBuffer(bytes: r.body))
        }
        var response = Response(status: HTTPResponse.Status(code: r.status), headers: fields, body: body)
        if r.status == 204 || r.status == 304 { response.headers[.contentLength] = nil }  // RFC 9110 §8.6
        return response
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
    /// The application serving `service` on host:port (not yet running).
    public static func application(service: TileService, host: String, port: Int,
                                   onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in })
        -> some ApplicationProtocol {
        Application(responder: TileResponder(service: service),
                    configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "tegula"),
                    onServerRunning: onServerRunning)
    }

    /// Serves until SIGINT/SIGTERM.
    public static func run(service: TileService, host: String, port: Int,
                           onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }) async throws {
        try await application(service: service, host: host, port: port, onServerRunning: onServerRunning)
            .runService()
    }
}
