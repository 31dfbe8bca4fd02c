import HTTPTypes
import NIOCore
import NIOHTTP1

/// Shared empty fields: a request without `If-None-Match` allocates none.
private let noRequestFields = HTTPFields()

/// Answers requests the service can answer from memory (tiles already made) on the connection's
/// event loop, before they reach Hummingbird's async request loop; everything else (cold tiles,
/// TileJSON, the viewer, errors of other routes, every request of a service without such answers)
/// passes on to Hummingbird's responder unchanged. ``ServerChannel`` puts one per connection right
/// after NIO's HTTP/1 decoder, ahead of the conversion to swift-http-types.
///
/// The answers are ``HTTPService/respondFromMemory(_:)``'s, so they equal what the responder would give
/// (the router-level tests hold for both); this handler only saves the per-request hop into Swift
/// concurrency and back and the conversions between HTTP types, the largest costs left in the
/// serving profile (BENCHMARKS.md). Responses still go through NIO's HTTP/1 encoder.
///
/// Order and back-pressure: a request is answered here only when no request passed on is still
/// waiting for its response (pipelined responses stay in order) and the socket is writable (a
/// client that stops reading gets its later requests through Hummingbird, which waits for it).
/// Requests with a `Connection` header pass on, so Hummingbird closes connections as usual; a
/// request that does not keep the connection alive (HTTP/1.0 without keep-alive, which
/// Hummingbird leaves open) has the connection closed once its response is written, whichever
/// path answered it.
///
/// Not generic: NIO calls a handler through its protocol, so a generic handler class runs its
/// unspecialised code (generic metadata looked up per request). The service is reached through
/// two closures made where its type is known.
final class FastPath: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let respondFromMemory: @Sendable (ServerRequest) -> ServerResponse?
    private let countAnswer: @Sendable () -> Void
    private let serverName: String
    /// Requests passed on whose response has not ended yet, oldest first: whether the
    /// connection closes after each.
    private var passedOn: [Bool] = []
    private var passedOnHead = 0
    /// A response that ends the connection has been written: later requests are ignored.
    private var closing = false
    /// Dropping the body and end of a request answered here.
    private var discarding = false
    private var needsFlush = false
    private var date = HTTPDate()

    /// A fast path over a service's answers from memory and its counter of them: the closures are
    /// made where the service's type is known (``ServerChannel``, specialized in its caller).
    init(
        respondFromMemory: @escaping @Sendable (ServerRequest) -> ServerResponse?, countAnswer: @escaping @Sendable () -> Void,
        serverName: String
    ) {
        self.respondFromMemory = respondFromMemory
        self.countAnswer = countAnswer
        self.serverName = serverName
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if closing { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            if passedOnHead == passedOn.count, context.channel.isWritable, let r = answer(head) {
                countAnswer()
                context.write(
                    wrapOutboundOut(
                        .head(
                            HTTPResponseHead(
                                version: .http1_1, status: HTTPResponseStatus(statusCode: r.status.code),
                                headers: responseHeaders(r)))), promise: nil)
                if r.bodyCount > 0 {
                    context.write(wrapOutboundOut(.body(.byteBuffer(r.bodyBuffer))), promise: nil)
                }
                if head.isKeepAlive {
                    context.write(wrapOutboundOut(.end(nil)), promise: nil)
                } else {
                    closing = true
                    context.write(wrapOutboundOut(.end(nil)), promise: closeWhenWritten(context))
                }
                needsFlush = true
                discarding = true
                return
            }
            discarding = false
            passedOn.append(!head.isKeepAlive)
            context.fireChannelRead(data)
        case .body:
            if !discarding { context.fireChannelRead(data) }
        case .end:
            if discarding { discarding = false } else { context.fireChannelRead(data) }
        }
    }

    /// `r`'s fields, `Date` and `Server`, as NIO's encoder takes them: made from one array, not by
    /// `HTTPHeaders.add`, whose check that a name is ASCII walked every name of every hot answer
    /// (its cost in BENCHMARKS-archive.md, "The end of issue 41"). The names are
    /// `HTTPField.Name`s, tokens by construction, and ours.
    private func responseHeaders(_ r: ServerResponse) -> HTTPHeaders {
        var fields: [(String, String)] = []
        fields.reserveCapacity(r.headers.count + 2)
        for field in r.headers { fields.append((field.name.rawName, field.value)) }
        fields.append(("Date", date.now()))
        fields.append(("Server", serverName))
        return HTTPHeaders(fields)
    }

    /// The service's answer from memory, for GET and HEAD requests without a `Connection` header.
    private func answer(_ head: HTTPRequestHead) -> ServerResponse? {
        guard head.method == .GET || head.method == .HEAD, !head.headers.contains(name: "connection") else { return nil }
        var headers = noRequestFields
        if let inm = head.headers.first(name: "if-none-match") { headers[.ifNoneMatch] = inm }
        return respondFromMemory(ServerRequest(method: head.method == .GET ? .get : .head, target: head.uri, headers: headers))
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data), passedOnHead < passedOn.count else {
            context.write(data, promise: promise)
            return
        }
        let close = passedOn[passedOnHead]
        passedOnHead += 1
        if passedOnHead == passedOn.count { passedOn.removeAll(keepingCapacity: true); passedOnHead = 0 }
        guard close else {
            context.write(data, promise: promise)
            return
        }
        let written = closeWhenWritten(context)
        if let promise { written.futureResult.cascade(to: promise) }
        context.write(data, promise: written)
    }

    /// A promise that closes the connection once the write it is given to has completed.
    private func closeWhenWritten(_ context: ChannelHandlerContext) -> EventLoopPromise<Void> {
        let written = context.eventLoop.makePromise(of: Void.self)
        let channel = context.channel
        written.futureResult.whenComplete { _ in channel.close(promise: nil) }
        return written
    }
}
