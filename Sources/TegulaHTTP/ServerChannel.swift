import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 child channel with ``FastPath`` added right after NIO's HTTP/1 decoder,
/// so answers from memory are given on the event loop; everything else is Hummingbird's as usual.
/// With metrics, each connection is counted open here and closed when its close completes.
@usableFromInline
struct ServerChannel<Service: HTTPService>: ServerChildChannel {
    @usableFromInline let http1: HTTP1Channel
    @usableFromInline let responder: ServiceResponder<Service>
    @usableFromInline let serverName: String

    @inlinable
    init(http1: HTTP1Channel, responder: ServiceResponder<Service>, serverName: String) {
        self.http1 = http1
        self.responder = responder
        self.serverName = serverName
    }

    @inlinable
    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        if let connections = responder.service.connections {
            connections.connectionOpened()
            channel.closeFuture.whenComplete { _ in connections.connectionClosed() }
        }
        let service = responder.service
        let (config, serverName) = (service.configuration, serverName)
        return http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            try Self.addHandlers(
                channel, configuration: config, serverName: serverName,
                respondFromMemory: { service.respondFromMemory($0) }, countAnswer: { service.countFastPathAnswer() })
            return value
        }
    }

    /// Adds the connection's handlers around Hummingbird's codec. Not generic: the service is
    /// reached through the two closures, made in ``setup(channel:logger:)`` where its type is known.
    @usableFromInline
    static func addHandlers(
        _ channel: any Channel, configuration config: ServerConfiguration, serverName: String,
        respondFromMemory: @escaping @Sendable (ServerRequest) -> ServerResponse?,
        countAnswer: @escaping @Sendable () -> Void
    ) throws {
        let codec = try channel.pipeline.syncOperations.handler(type: HTTP1ToHTTPServerCodec.self)
        let lines = RequestLineTracker()
        try channel.pipeline.syncOperations.addHandler(lines, position: .first)
        // decoder → guard → fast path → Hummingbird's codec: the guard sees both paths' responses.
        try channel.pipeline.syncOperations.addHandler(
            ConnectionGuard(
                idleTimeout: TimeAmount(config.idleTimeout), maxHeaderBytes: config.maxHeaderBytes, lines: lines,
                serverName: serverName), position: .before(codec))
        try channel.pipeline.syncOperations.addHandler(
            FastPath(respondFromMemory: respondFromMemory, countAnswer: countAnswer, serverName: serverName), position: .before(codec))
        try channel.pipeline.syncOperations.addHandler(ClientHangUp(), position: .first)
    }

    @inlinable
    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}
