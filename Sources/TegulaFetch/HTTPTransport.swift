import Foundation

/// One GET as a transport sends it: the URL, its header fields, and the caps on the exchange.
public struct HTTPRequest: Sendable, Hashable {
    /// What to fetch (http:// or https://).
    public var url: URL
    /// Header fields to send, by name (`Range`, `If-Match`, `User-Agent`, …).
    public var headers: [String: String]
    /// Time for the whole exchange, redirects and body included; over it the request fails
    /// with ``TransportFailure/timedOut(after:)``.
    public var timeout: Duration
    /// Redirects followed; 0 answers a redirect with itself.
    public var maxRedirects: Int
    /// Body bytes read; a longer body is cut here (``HTTPResponse/isTruncated``).
    public var maxBodyBytes: Int

    /// A GET of `url`.
    public init(
        url: URL, headers: [String: String] = [:], timeout: Duration = .seconds(30), maxRedirects: Int = 5,
        maxBodyBytes: Int = 16 << 20
    ) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
        self.maxRedirects = maxRedirects
        self.maxBodyBytes = maxBodyBytes
    }
}

/// An answer read whole (or up to ``HTTPRequest/maxBodyBytes``).
public struct HTTPResponse: Sendable, Hashable {
    /// The URL asked for (before any redirect): what error lines name.
    public var url: String
    /// The status code of the final answer.
    public var status: Int
    /// Header fields by lowercased name (repeated fields joined with `, `).
    public var headers: [String: String]
    /// The body, at most the request's ``HTTPRequest/maxBodyBytes``.
    public var body: [UInt8]
    /// The body was longer than the request allowed (declared so, or sent so) and was cut.
    public var isTruncated: Bool
    /// The cap the body was read under.
    public var maxBodyBytes: Int
    /// Requests sent for this answer: 1 from a transport, more when a fetcher retried.
    public var attempts = 1

    /// An answer of `status` for `url`.
    public init(
        url: String, status: Int, headers: [String: String], body: [UInt8], isTruncated: Bool = false,
        maxBodyBytes: Int = .max
    ) {
        self.url = url
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { "\($0), \($1)" })
        self.body = body
        self.isTruncated = isTruncated
        self.maxBodyBytes = maxBodyBytes
    }

    /// The header field `name`, whatever its case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The body, or a failure naming the cap when it was cut (`answer of N bytes; tegula reads at
    /// most M for one request`).
    public func wholeBody() throws(FetchError) -> [UInt8] {
        guard isTruncated else { return body }
        let declared = header("Content-Length").flatMap(Int.init).flatMap { $0 > maxBodyBytes ? $0 : nil }
        let failure = TransportFailure.tooLarge(declared: declared, limit: maxBodyBytes)
        throw FetchError(.transport(failure, attempts: attempts), at: url, failure.sentence)
    }
}

/// What sends one request and reads its answer: ``URLSessionTransport`` (Foundation's URLSession;
/// libcurl underneath on Linux), or a test's stand-in. Made once at the edge of a program and
/// shared by every ``HTTPFetcher`` on it, as go-pmtiles' buckets share an injected `HTTPClient`.
public protocol HTTPTransport: Sendable {
    /// The answer to `request`, whatever its status, or why none came.
    func send(_ request: HTTPRequest) async throws(TransportFailure) -> HTTPResponse
}
