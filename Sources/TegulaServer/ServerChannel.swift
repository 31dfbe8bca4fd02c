import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 child channel with ``FastPath`` added right after NIO's HTTP/1 decoder,
/// so answers from memory are given on the event loop; everything else is Hummingbird's as usual.
/// With metrics, each connection is counted open here and closed when its close completes.
struct ServerChannel<Service: HTTPService>: ServerChildChannel {
    let http1: HTTP1Channel
    let responder: ServiceResponder<Service>
    let serverName: String

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        if let metrics = responder.service.metrics {
            metrics.connectionOpened()
            channel.closeFuture.whenComplete { _ in metrics.connectionClosed() }
        }
        return http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let codec = try channel.pipeline.syncOperations.handler(type: HTTP1ToHTTPServerCodec.self)
            let config = responder.service.configuration
            let lines = RequestLineTracker()
            try channel.pipeline.syncOperations.addHandler(lines, position: .first)
            // decoder → guard → fast path → Hummingbird's codec: the guard sees both paths' responses.
            try channel.pipeline.syncOperations.addHandler(
                ConnectionGuard(idleTimeout: TimeAmount(config.idleTimeout), maxHeaderBytes: config.maxHeaderBytes, lines: lines,
                                serverName: serverName), position: .before(codec))
            try channel.pipeline.syncOperations.addHandler(FastPath(service: responder.service, serverName: serverName),
                                                           position: .before(codec))
            try channel.pipeline.syncOperations.addHandler(ClientHangUp(), position: .first)
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}
