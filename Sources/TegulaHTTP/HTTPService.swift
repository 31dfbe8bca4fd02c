import Logging

/// What a Tegula server's logic is to the HTTP layer: one function from ``ServerRequest`` to
/// ``ServerResponse`` (as go-pmtiles' `server.go` answers `Get(ctx, path)`), so every status and
/// header is tested without sockets; ``HTTPServer`` only moves bytes. `tegula serve`'s tile
/// service, the IIIF image service and `tegula edit` are such services, and so is whatever comes next.
public protocol HTTPService: Sendable {
    /// Connection limits and timeouts the HTTP layer applies.
    var configuration: ServerConfiguration { get }
    /// Where the HTTP layer logs.
    var logger: Logger { get }
    /// Counts connections opened and closed; nil: not counted.
    var connections: (any ConnectionCounter)? { get }
    /// The largest request body collected; a larger one is refused with 413 (0: bodies are not
    /// read at all).
    var maxBodyBytes: Int { get }

    /// Answers one request. Work that takes long runs off the event loop; `isCancelled` tells
    /// whether the client has gone away meanwhile.
    func respond(_ request: ServerRequest, isCancelled: @escaping @Sendable () -> Bool) async -> ServerResponse

    /// The answer when it needs no file read and no waiting (a tile in memory, a refusal), for the
    /// event-loop fast path (``FastPath``); nil passes the request on to ``respond(_:isCancelled:)``.
    func respondFromMemory(_ request: ServerRequest) -> ServerResponse?

    /// The answer to a request the HTTP layer refuses before the service sees it (a body over
    /// ``maxBodyBytes``), in the service's own error form.
    func refuse(_ error: ServerError) -> ServerResponse

    /// Counts a request answered by the fast path.
    func countFastPathAnswer()
}

extension HTTPService {
    public var connections: (any ConnectionCounter)? { nil }
    public var maxBodyBytes: Int { 0 }
    public func respondFromMemory(_ request: ServerRequest) -> ServerResponse? { nil }
    public func countFastPathAnswer() {}
}
