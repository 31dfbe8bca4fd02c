import Foundation

/// GETs through an injected transport under a retry policy: the one HTTP client stack of Tegula
/// (the IIIF client, PMTiles by range, the overlay library's URL loader). A value made where a
/// program starts and passed down; copies share the transport and the per-host cap.
public struct HTTPFetcher: Sendable {
    /// What sends the requests.
    public let transport: any HTTPTransport
    /// When a request is sent again.
    public var retry: RetryPolicy
    /// The `User-Agent` sent; nil leaves the transport's own.
    public var userAgent: String?
    /// Time for one attempt, body included.
    public var timeout: Duration
    /// Redirects followed for one attempt.
    public var maxRedirects: Int
    private let gate: HostGate?

    /// A fetcher on `transport`; `requestsPerHost` caps this fetcher's requests in flight to one
    /// host (nil: the transport's connection limit alone).
    public init(
        transport: any HTTPTransport, retry: RetryPolicy = .none, userAgent: String? = nil,
        timeout: Duration = .seconds(30), maxRedirects: Int = 5, requestsPerHost: Int? = nil
    ) {
        self.transport = transport
        self.retry = retry
        self.userAgent = userAgent
        self.timeout = timeout
        self.maxRedirects = maxRedirects
        gate = requestsPerHost.map { HostGate(limit: max(1, $0)) }
    }

    /// True for http:// and https:// URLs with a host: the only ones fetched.
    public static func isFetchable(_ url: String) -> Bool {
        guard let c = URLComponents(string: url), let scheme = c.scheme?.lowercased(), scheme == "http" || scheme == "https",
            c.host?.isEmpty == false
        else { return false }
        return true
    }

    /// GETs `url` with `headers`, reading at most `maxBodyBytes` of a body, sending it again as
    /// ``retry`` says: the first answer the policy accepts, whatever its status (a retried status
    /// once the attempts are spent fails instead), with ``HTTPResponse/attempts`` set.
    public func get(_ url: URL, headers: [String: String] = [:], maxBodyBytes: Int) async throws(FetchError) -> HTTPResponse {
        var request = HTTPRequest(url: url, headers: headers, timeout: timeout, maxRedirects: maxRedirects, maxBodyBytes: maxBodyBytes)
        if let userAgent, !request.headers.keys.contains(where: { $0.lowercased() == "user-agent" }) {
            request.headers["User-Agent"] = userAgent
        }
        let location = url.absoluteString, host = url.host ?? ""
        let start = ContinuousClock.now
        var attempt = 0
        while true {
            attempt += 1
            if let gate { await gate.enter(host) }
            let outcome: Result<HTTPResponse, TransportFailure>
            do {
                outcome = .success(try await transport.send(request))
            } catch {
                outcome = .failure(error)
            }
            if let gate { await gate.leave(host) }
            let wait: Duration
            switch outcome {
            case var .success(answer):
                answer.attempts = attempt
                let asked = RetryPolicy.retryAfter(answer.header("Retry-After"))
                switch retry.verdict(status: answer.status, retryAfter: asked, attempt: attempt) {
                case .accept:
                    return answer
                case let .retry(after):
                    wait = after
                case .giveUp:
                    let waited = ContinuousClock.now - start
                    throw FetchError(
                        .gaveUp(status: answer.status, attempts: attempt), at: location,
                        "\(HTTPStatus.line(answer.status)) after \(attempt) attempts over \(TransportFailure.seconds(waited)); "
                            + "the server keeps refusing: try later, or with fewer connections")
                case let .waitTooLong(asked):
                    throw FetchError(
                        .waitTooLong(status: answer.status, asked: asked, attempts: attempt), at: location,
                        "\(HTTPStatus.line(answer.status)) asking to retry after \(TransportFailure.seconds(asked)); "
                            + "more than the \(TransportFailure.seconds(retry.maxRetryAfter)) tegula waits: try later")
                }
            case let .failure(failure):
                guard case let .retry(after) = retry.verdict(failure: failure, attempt: attempt) else {
                    throw FetchError(.transport(failure, attempts: attempt), at: location, failure.sentence)
                }
                wait = after
            }
            do {
                try await Task.sleep(for: wait)
            } catch {
                throw FetchError(.transport(.cancelled, attempts: attempt), at: location, TransportFailure.cancelled.sentence)
            }
        }
    }
}
