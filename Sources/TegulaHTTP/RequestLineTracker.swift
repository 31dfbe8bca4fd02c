import NIOCore

/// Watches the raw bytes ahead of NIO's HTTP/1 decoder for one fact: the longest request target
/// (the bytes between a request line's first and second space) received on the connection. The
/// decoder reports an over-long target and an over-long header alike as `headerOverflow`;
/// `ConnectionGuard` asks this which it was, to answer 414 or 431. A request line is the line
/// after an empty line (or the first of the connection); body bytes may blur this, but only
/// between heads, and the overflow it is asked about happens inside one.
final class RequestLineTracker: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    init() {}

    /// The longest request target seen so far, in bytes (the current one included).
    private(set) var longestTarget = 0
    private var lineLength = 0
    private var lastByte: UInt8 = 0
    private var inRequestLine = true
    /// Within a request line: 0 in the method, 1 in the target, 2 after it.
    private var part = 0
    private var target = 0

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        unwrapInboundIn(data).withUnsafeReadableBytes { bytes in
            for b in bytes {
                if b == 10 {  // LF: an empty line ("" or "\r") makes the next one a request line
                    inRequestLine = lineLength == 0 || (lineLength == 1 && lastByte == 13)
                    lineLength = 0
                    part = 0
                    target = 0
                } else {
                    lineLength += 1
                    if inRequestLine && part < 2 {
                        if b == 32 {
                            part += 1
                        } else if part == 1 {
                            target += 1
                            if target > longestTarget { longestTarget = target }
                        }
                    }
                }
                lastByte = b
            }
        }
        context.fireChannelRead(data)
    }
}
