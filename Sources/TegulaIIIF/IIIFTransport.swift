import Foundation
import TegulaFetch
import TegulaSupport

/// How politely a client asks: requests in flight per host, retries and their waits, its name.
public struct IIIFPoliteness: Sendable, Hashable {
    /// Requests in flight to one host at once.
    public var connectionsPerHost: Int = 4
    /// When a request is sent again: by default 6 attempts of one request answered 429 or 503,
    /// timed out or cut off, waiting 0.5 s doubled up to 30 s with jitter, or the server's
    /// `Retry-After` up to 120 s (more ends the run at once). A refused connection or a host name
    /// that does not resolve is never retried: the run ends at once.
    public var retry: RetryPolicy = .polite
    /// Time for one whole request, body included (a slow trickle ends here).
    public var timeout: Duration = .seconds(60)
    /// The `User-Agent`: tegula and its version (the CLI passes `tegula/VERSION`).
    public var userAgent: String = "tegula"

    public init() {}
}

/// Counts of what a client fetched, for tests and figures.
public struct IIIFFetchCounts: Sendable, Hashable {
    /// HTTP requests sent, retries included.
    public var requests = 0
    /// Requests sent again: answers 429 or 503 waited out, timeouts, cut-off connections.
    public var retries = 0
    /// Body bytes received.
    public var bytes = 0
    /// Answers taken from the disk cache without a request.
    public var cacheHits = 0
    /// Answers 304: a cached body revalidated.
    public var revalidated = 0
}

/// The HTTP side of the IIIF client: a fetcher on the program's transport, configured by the
/// politeness (per-host cap, retries) and the limits (redirects, body sizes), whose failures
/// become one line naming the URL; and the counts of what it sent.
struct IIIFTransport: Sendable {
    let fetcher: HTTPFetcher
    let counts = Locked(IIIFFetchCounts())

    init(on transport: any HTTPTransport, politeness: IIIFPoliteness, limits: IIIFLimits) {
        fetcher = HTTPFetcher(
            transport: transport, retry: politeness.retry, userAgent: politeness.userAgent,
            timeout: politeness.timeout, maxRedirects: limits.maxRedirects,
            requestsPerHost: politeness.connectionsPerHost)
    }

    /// GETs `url` with `headers`, reading at most `maxBytes`; 200 and 304 are answers (a 200
    /// whole), 429 and 503 (and timeouts) are retried, any other status throws.
    func get(_ url: String, headers: [String: String] = [:], maxBytes: Int) async throws(IIIFError) -> HTTPResponse {
        guard HTTPFetcher.isFetchable(url), let u = URL(string: url) else {
            throw IIIFError(.badURL, at: url, "not a URL tegula fetches; expected http://HOST/PATH or https://HOST/PATH")
        }
        let answer: HTTPResponse
        do {
            answer = try await fetcher.get(u, headers: headers, maxBodyBytes: maxBytes)
        } catch {
            count(attempts: error.reason.attempts, bytes: 0)
            throw IIIFError(Self.reason(error.reason), at: url, error.message)
        }
        count(attempts: answer.attempts, bytes: 0)
        switch answer.status {
        case 200:
            do {
                count(attempts: 0, bytes: try answer.wholeBody().count)
            } catch {
                throw IIIFError(Self.reason(error.reason), at: url, error.message)
            }
            return answer
        case 304:
            return answer
        default:
            throw IIIFError(
                .status(answer.status), at: url,
                HTTPStatus.line(answer.status)
                    + (answer.status == 404 ? "; check the URL (an image service's id, or its info.json)" : ""))
        }
    }

    private func count(attempts: Int, bytes: Int) {
        counts.withLock {
            $0.requests += attempts
            $0.retries += max(0, attempts - 1)
            $0.bytes += bytes
        }
    }

    /// A fetch's failure as an IIIF one: a status the server kept answering, a cap exceeded
    /// (body, redirects), or no answer.
    static func reason(_ failure: FetchFailure) -> IIIFFailure {
        switch failure {
        case let .gaveUp(status, _), let .waitTooLong(status, _, _): .status(status)
        case .transport(.tooLarge, _), .transport(.tooManyRedirects, _), .transport(.redirectLoop, _): .overLimit
        case .transport: .unreachable
        }
    }
}
