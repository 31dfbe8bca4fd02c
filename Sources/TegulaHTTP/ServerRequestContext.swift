import Hummingbird
import NIOCore

/// Hummingbird's request context plus the connection's channel, so a request waiting for a tile
/// to be made can tell whether its client has gone away.
public struct ServerRequestContext: RequestContext {
    /// Hummingbird's own context.
    public var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    public let channel: any Channel

    /// The context for a request on `source.channel`.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
