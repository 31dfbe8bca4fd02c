/// A request as the server logic sees it: method, raw target, headers (names lower-cased).
public struct ServerRequest: Sendable {
    /// The method as sent (`GET`, `HEAD`, …).
    public var method: String
    /// The raw request target: path and query, still percent-encoded.
    public var target: String
    /// Header values by lower-cased name (the first of repeated ones).
    public var headers: [String: String]

    /// A request; header names are matched case-insensitively.
    public init(method: String = "GET", target: String, headers: [String: String] = [:]) {
        self.method = method
        self.target = target
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    /// A request whose header names are lower-case already (from the HTTP layer).
    init(method: String, target: String, lowercasedHeaders: [String: String]) {
        self.method = method
        self.target = target
        headers = lowercasedHeaders
    }
}
