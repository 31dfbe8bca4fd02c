import NIOCore
import NIOHTTP1

/// Per connection, right after NIO's HTTP/1 decoder and ahead of ``FastPath``, so it sees
/// every request and every response of both paths. It does two things Hummingbird does not:
///
/// - **Idle deadline.** A connection making no progress for ``ServerConfiguration/idleTimeout``
///   while it has nothing awaiting an answer is closed. Progress is a request head or body part
///   read, or a response finished. A slowloris client trickling a request head never completes
///   one, so it is closed that long after it connected (or after its last answer), however
///   steadily it trickles; a client waiting for a slow answer is not. (Hummingbird's own
///   `idleTimeout` never sees requests the fast path answers, so it would close busy
///   keep-alive connections.) One timer per connection, rescheduled lazily: no timer work per
///   request.
/// - **Over-long heads**: the decoder (limited to ``ServerConfiguration/maxHeaderBytes``) fails
///   with `headerOverflow`, which Hummingbird answers 400. Here it is 414 when the request
///   target was the long part (`RequestLineTracker`), else 431, with one line saying the limit,
///   and the connection is closed.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let idleTimeout: TimeAmount
    private let maxHeaderBytes: Int
    private let lines: RequestLineTracker
    private let serverName: String
    /// Requests read whose response has not ended.
    private var awaiting = 0
    /// A request head read, its end not yet.
    private var reading = false
    /// The last progress.
    private var since = NIODeadline.now()
    private var timer: Scheduled<Void>?
    private var refused = false

    init(idleTimeout: TimeAmount, maxHeaderBytes: Int, lines: RequestLineTracker, serverName: String) {
        self.idleTimeout = idleTimeout
        self.maxHeaderBytes = maxHeaderBytes
        self.lines = lines
        self.serverName = serverName
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    private func start(_ context: ChannelHandlerContext) {
        guard timer == nil else { return }
        since = .now()
        schedule(context, at: since + idleTimeout)
    }

    private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            timer = nil
            guard context.channel.isActive else { return }
            let now = NIODeadline.now()
            if awaiting > 0 && !reading {
                schedule(context, at: now + idleTimeout)  // an answer is being made or written
            } else if now >= since + idleTimeout {
                context.close(promise: nil)
            } else {
                schedule(context, at: since + idleTimeout)
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        switch unwrapInboundIn(data) {
        case .head:
            awaiting += 1
            reading = true
        case .body:
            break
        case .end:
            reading = false
        }
        since = .now()
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            awaiting = max(0, awaiting - 1)
            since = .now()
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let e = error as? HTTPParserError, e == .headerOverflow, !refused else {
            context.fireErrorCaught(error)
            return
        }
        refused = true
        let failure: ServerError =
            lines.longestTarget > maxHeaderBytes
            ? .targetTooLong(limit: maxHeaderBytes) : .headersTooLarge(limit: maxHeaderBytes)
        let body = Array((failure.description + "\n").utf8)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "Content-Length", value: String(body.count))
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Server", value: serverName)
        context.write(
            wrapOutboundOut(
                .head(
                    HTTPResponseHead(
                        version: .http1_1, status: HTTPResponseStatus(statusCode: failure.status?.code ?? 400),
                        headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        // Lingering close, as nginx does: the client may still be sending the rest of its head,
        // and closing with unread bytes makes the kernel send a reset that can destroy the answer
        // before the client reads it. So only our side is shut, the rest is read and dropped
        // (the decoder is failed), and the connection is closed in full a little later.
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            channel.close(mode: .output).whenFailure { _ in channel.close(promise: nil) }
            channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
        }
    }
}
