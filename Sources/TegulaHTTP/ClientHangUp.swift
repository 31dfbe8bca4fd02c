import Foundation
import NIOCore

/// Notices a client going away: its connection closing, or its half of it (EOF on input, which
/// an HTTP/1.1 client sends only when it will ask nothing more). Hummingbird keeps such a
/// connection open while a response is pending; a request waiting for a tile to be made asks
/// ``isGone(_:)`` so the work can be dropped unstarted. One per connection, first in the pipeline.
final class ClientHangUp: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    init() {}

    /// Connections whose client has gone, by channel, while they are open.
    private static let gone = GoneTable()

    func handlerAdded(context: ChannelHandlerContext) {
        Self.gone.open(context.channel)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { Self.gone.mark(context.channel) }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        Self.gone.close(context.channel)
        context.fireChannelInactive()
    }

    /// True once the client of `channel` has closed its side or the connection is closed.
    static func isGone(_ channel: any Channel) -> Bool {
        !channel.isActive || gone.isMarked(channel)
    }

    final class GoneTable: @unchecked Sendable {
        private let lock = NSLock()
        private var marked: [ObjectIdentifier: Bool] = [:]
        func open(_ c: any Channel) { lock.lock(); marked[ObjectIdentifier(c)] = false; lock.unlock() }
        func mark(_ c: any Channel) { lock.lock(); if marked[ObjectIdentifier(c)] != nil { marked[ObjectIdentifier(c)] = true }; lock.unlock() }
        func close(_ c: any Channel) { lock.lock(); marked[ObjectIdentifier(c)] = nil; lock.unlock() }
        func isMarked(_ c: any Channel) -> Bool { lock.lock(); defer { lock.unlock() }; return marked[ObjectIdentifier(c)] ?? false }
    }
}

/// ``ClientHangUp/isGone(_:)``, for the `@inlinable` responder.
@usableFromInline
func clientIsGone(_ channel: any Channel) -> Bool { ClientHangUp.isGone(channel) }
