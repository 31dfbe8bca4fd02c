import Hummingbird
import HTTPTypes
import NIOCore
import TegulaServer

/// The thin Hummingbird layer of `tegula edit`: each request's body is collected (up to
/// ``EditorService/maxBody``) and handed to ``EditorService/respond(_:)``, whose answer is
/// copied out verbatim.
public enum EditorServer {
    /// The responder: request in, the service's response out.
    struct Responder: HTTPResponder {
        typealias Context = BasicRequestContext
        let service: EditorService

        func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
            var request = request
            let body: ByteBuffer
            do { body = try await request.collectBody(upTo: EditorService.maxBody) } catch {
                return Self.response(EditorService.error(413, "the body is over \(EditorService.maxBody) bytes"))
            }
            let answer = await service.respond(EditorRequest(method: request.method.rawValue, target: request.uri.description,
                                                             body: Array(body.readableBytesView)))
            var r = Self.response(answer)
            if request.method == .head { r.body = ResponseBody() }
            return r
        }

        static func response(_ r: ServerResponse) -> Response {
            var fields = HTTPFields()
            for (k, v) in r.headers {
                if let name = HTTPField.Name(k) { fields.append(HTTPField(name: name, value: v)) }
            }
            return Response(status: HTTPResponse.Status(code: r.status), headers: fields,
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: r.body)))
        }
    }

    /// The application serving `service` on host:port (not yet running).
    public static func application(service: EditorService, host: String, port: Int,
                                   onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in })
        -> some ApplicationProtocol {
        Application(responder: Responder(service: service),
                    configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "tegula"),
                    onServerRunning: onServerRunning)
    }

    /// Serves until SIGINT/SIGTERM.
    public static func run(service: EditorService, host: String, port: Int,
                           onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }) async throws {
        try await application(service: service, host: host, port: port, onServerRunning: onServerRunning).runService()
    }
}
