import HTTPTypes

/// A request as every Tegula server's logic sees it (tiles, the editor, what comes next): the
/// method and header fields as swift-http-types has them, the raw target, and the body (empty for
/// GET and HEAD). ``target`` is parsed once, by ``RequestTarget``, where a service needs it.
public struct ServerRequest: Sendable {
    /// The method.
    public var method: HTTPRequest.Method
    /// The raw request target: path and query, still percent-encoded.
    public var target: String
    /// The header fields; for HTTP/1.1 the `Host` header is here too (swift-http-types moves it to
    /// the `:authority` pseudo-header, ``init(head:body:)`` puts it back).
    public var headers: HTTPFields
    /// The body as received (the adapter caps it at the service's ``HTTPService/maxBodyBytes``).
    public var body: [UInt8]

    /// A request.
    public init(method: HTTPRequest.Method = .get, target: String, headers: HTTPFields = [:], body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }

    /// The request of an HTTP head and its collected body.
    public init(head: HTTPRequest, body: [UInt8] = []) {
        var fields = head.headerFields
        if fields[Self.host] == nil, let authority = head.authority { fields[Self.host] = authority }
        self.init(method: head.method, target: head.path ?? "/", headers: fields, body: body)
    }

    /// The `Host` field's name (swift-http-types names it only as the `:authority` pseudo-header).
    public static let host = HTTPField.Name("Host")!

    /// True for GET and HEAD, the methods that read.
    public var isRead: Bool { method == .get || method == .head }
}
