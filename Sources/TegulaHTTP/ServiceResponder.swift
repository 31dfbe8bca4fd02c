import HTTPTypes
import Hummingbird
import NIOCore

/// The thin Hummingbird layer: a request (its body collected up to the service's
/// ``HTTPService/maxBodyBytes``) goes to the service and its answer is copied out verbatim (no
/// router, so the raw target reaches the service's own parser). Answers from memory are given
/// before requests get here, by ``FastPath`` with the same service.
public struct ServiceResponder<Service: HTTPService>: HTTPResponder {
    public typealias Context = ServerRequestContext
    /// The logic answering requests.
    public let service: Service

    /// A responder over a service.
    @inlinable
    public init(service: Service) {
        self.service = service
    }

    /// Converts the request, answers it, converts the response. Work the service awaits may be
    /// dropped once the client has gone (``ClientHangUp``).
    @inlinable
    public func respond(to request: Request, context: ServerRequestContext) async throws -> Response {
        let channel = context.channel
        var body: [UInt8] = []
        if service.maxBodyBytes > 0 {
            var request = request
            do { body = Array(try await request.collectBody(upTo: service.maxBodyBytes).readableBytesView) } catch {
                return httpResponse(service.refuse(.bodyTooLarge(limit: service.maxBodyBytes)), head: request.method == .head)
            }
        }
        let answer = await service.respond(ServerRequest(head: request.head, body: body), isCancelled: { clientIsGone(channel) })
        return httpResponse(answer, head: request.method == .head)
    }

    /// The service's answer as a Hummingbird response; a tile's body is the NIO buffer the tile
    /// cache holds, so a hot tile is written without another copy. A HEAD answer has no body.
    @inlinable
    func httpResponse(_ r: ServerResponse, head: Bool) -> Response {
        var fields = r.headers
        if r.status == .noContent || r.status == .notModified { fields[.contentLength] = nil }  // RFC 9110 §8.6
        let body = head || r.bodyCount == 0 ? ResponseBody() : ResponseBody(byteBuffer: r.bodyBuffer)
        return Response(status: r.status, headers: fields, body: body)
    }
}
