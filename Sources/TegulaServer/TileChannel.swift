import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 child channel with `TileFastPath` added right after NIO's HTTP/1 decoder,
/// so tiles in memory are answered on the event loop; everything else is Hummingbird's as usual.
struct TileChannel: ServerChildChannel {
    let http1: HTTP1Channel
    let responder: TileResponder
    let serverName: String

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let codec = try channel.pipeline.syncOperations.handler(type: HTTP1ToHTTPServerCodec.self)
            try channel.pipeline.syncOperations.addHandler(TileFastPath(responder: responder, serverName: serverName),
                                                           position: .before(codec))
            try channel.pipeline.syncOperations.addHandler(ClientHangUp(), position: .first)
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}
