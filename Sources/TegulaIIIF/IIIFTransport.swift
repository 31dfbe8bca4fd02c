import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import TegulaSupport

/// How politely a client asks: connections per host, retries and their waits, its name.
public struct IIIFPoliteness: Sendable, Hashable {
    /// Requests in flight to one host at once.
    public var connectionsPerHost: Int = 4
    /// Attempts of one request answered 429, 503 or not at all, before the run ends. Within an
    /// attempt a refused connection is tried again until the 10 s connect timeout (AsyncHTTPClient's
    /// connection retries), except with 1: one try, so a server that is not there ends the run at once.
    public var maxAttempts: Int = 6
    /// The first backoff; doubled each attempt, with jitter (a random 50–100 % of it).
    public var initialBackoff: Duration = .milliseconds(500)
    /// The longest backoff between two attempts.
    public var maxBackoff: Duration = .seconds(30)
    /// The longest `Retry-After` honoured; a server asking for more ends the run at once.
    public var maxRetryAfter: Duration = .seconds(120)
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
    /// Answers 429 or 503 that were waited out.
    public var retries = 0
    /// Body bytes received.
    public var bytes = 0
    /// Answers taken from the disk cache without a request.
    public var cacheHits = 0
    /// Answers 304: a cached body revalidated.
    public var revalidated = 0
}

/// One answer the transport read whole.
struct IIIFAnswer: Sendable {
    var status: Int
    var body: [UInt8]
    var etag: String?
    var lastModified: String?
    var contentType: String?
    /// The raw `Retry-After` header.
    var retryAfterHeader: String? = nil
}

/// The HTTP side of the IIIF client: AsyncHTTPClient with capped redirects, a per-host cap on
/// requests in flight, and 429/503 waited out (`Retry-After`, else capped exponential backoff
/// with jitter) before a request fails in one line naming the URL and the status.
final class IIIFTransport: Sendable {
    let politeness: IIIFPoliteness
    let limits: IIIFLimits
    let client: HTTPClient
    let gate: HostGate
    let counts = Locked(IIIFFetchCounts())

    /// One HTTP client per redirect cap and connection retrying, on an event loop of its own,
    /// kept for the life of the process (never shut down), as TegulaRemote keeps its range client.
    static let clients = Locked([ClientKey: HTTPClient]())

    struct ClientKey: Hashable {
        var maxRedirects: Int
        /// Whether a failed connection is tried again within one attempt (``IIIFPoliteness/maxAttempts`` above 1).
        var retriesConnections: Bool
    }

    init(politeness: IIIFPoliteness, limits: IIIFLimits) {
        self.politeness = politeness
        self.limits = limits
        gate = HostGate(limit: max(1, politeness.connectionsPerHost))
        let key = ClientKey(maxRedirects: limits.maxRedirects, retriesConnections: politeness.maxAttempts > 1)
        client = Self.clients.withLock { all in
            if let c = all[key] { return c }
            var c = HTTPClient.Configuration()
            c.connectionPool.retryConnectionEstablishment = key.retriesConnections
            c.redirectConfiguration = limits.maxRedirects == 0 ? .disallow : .follow(max: limits.maxRedirects, allowCycles: false)
            c.timeout = .init(connect: .seconds(10), read: .seconds(30))
            c.decompression = .disabled
            c.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 8
            let made = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup(numberOfThreads: 1), configuration: c)
            all[key] = made
            return made
        }
    }

    /// True for http:// and https:// URLs with a host: the only ones fetched.
    static func isFetchable(_ url: String) -> Bool {
        guard let c = URLComponents(string: url), let scheme = c.scheme?.lowercased(), scheme == "http" || scheme == "https",
              c.host?.isEmpty == false else { return false }
        return true
    }

    /// GETs `url` with `headers`, reading at most `maxBytes`; 200 and 304 are answers, 429 and 503
    /// (and no answer) are retried, any other status throws.
    func get(_ url: String, headers: [(String, String)] = [], maxBytes: Int) async throws(IIIFError) -> IIIFAnswer {
        guard Self.isFetchable(url), let host = URLComponents(string: url)?.host else {
            throw IIIFError(.badURL, at: url, "not a URL tegula fetches; expected http://HOST/PATH or https://HOST/PATH")
        }
        let start = ContinuousClock.now
        var attempt = 0
        while true {
            attempt += 1
            var request = HTTPClientRequest(url: url)
            request.headers.add(name: "User-Agent", value: politeness.userAgent)
            for (k, v) in headers { request.headers.add(name: k, value: v) }
            await gate.enter(host)
            let outcome = await send(request, url: url, maxBytes: maxBytes)
            await gate.leave(host)
            let waited = ContinuousClock.now - start
            switch outcome {
            case let .success(answer) where answer.status == 200 || answer.status == 304:
                return answer
            case let .success(answer) where answer.status == 429 || answer.status == 503:
                let why = "HTTP \(answer.status) \(HTTPResponseStatus(statusCode: answer.status).reasonPhrase)"
                guard attempt < politeness.maxAttempts else {
                    throw IIIFError(.status(answer.status), at: url, "\(why) after \(attempt) attempts over \(Self.seconds(waited)); "
                                    + "the server keeps refusing: try later, or with fewer connections")
                }
                let asked = answer.retryAfter
                if let asked, asked > politeness.maxRetryAfter {
                    throw IIIFError(.status(answer.status), at: url, "\(why) asking to retry after \(Self.seconds(asked)); "
                                    + "more than the \(Self.seconds(politeness.maxRetryAfter)) tegula waits: try later")
                }
                counts.withLock { $0.retries += 1 }
                try? await Task.sleep(for: max(asked ?? .zero, backoff(attempt)))
            case let .success(answer):
                throw IIIFError(.status(answer.status), at: url, "HTTP \(answer.status) \(HTTPResponseStatus(statusCode: answer.status).reasonPhrase)"
                                + (answer.status == 404 ? "; check the URL (an image service's id, or its info.json)" : ""))
            case let .failure(e) where e.reason == .unreachable && attempt < politeness.maxAttempts:
                counts.withLock { $0.retries += 1 }
                try? await Task.sleep(for: backoff(attempt))
            case let .failure(e):
                throw e
            }
        }
    }

    /// One attempt: the answer's status, headers and body (200 only), or why none came.
    private func send(_ request: HTTPClientRequest, url: String, maxBytes: Int) async -> Result<IIIFAnswer, IIIFError> {
        counts.withLock { $0.requests += 1 }
        let t = politeness.timeout.components
        let deadline = NIODeadline.now() + .nanoseconds(t.seconds * 1_000_000_000 + t.attoseconds / 1_000_000_000)
        do {
            let response = try await client.execute(request, deadline: deadline)
            var answer = IIIFAnswer(status: Int(response.status.code), body: [],
                                    etag: response.headers.first(name: "ETag"), lastModified: response.headers.first(name: "Last-Modified"),
                                    contentType: response.headers.first(name: "Content-Type"))
            answer.retryAfterHeader = response.headers.first(name: "Retry-After")
            guard answer.status == 200 else {
                _ = try? await response.body.collect(upTo: 64 << 10)  // drained so the connection is reused
                return .success(answer)
            }
            if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > maxBytes {
                return .failure(IIIFError(.overLimit, at: url, "answer of \(length) bytes; tegula reads at most \(maxBytes) for one request"))
            }
            do {
                answer.body = Array(try await response.body.collect(upTo: maxBytes).readableBytesView)
            } catch is NIOTooManyBytesError {
                return .failure(IIIFError(.overLimit, at: url, "answer over \(maxBytes) bytes; tegula reads at most that for one request"))
            }
            counts.withLock { $0.bytes += answer.body.count }
            return .success(answer)
        } catch let e as HTTPClientError where e == .redirectLimitReached || e == .redirectCycleDetected {
            return .failure(IIIFError(.overLimit, at: url, e == .redirectCycleDetected ? "redirects in a loop; the server is misconfigured"
                                      : "more than \(limits.maxRedirects) redirects; the server is misconfigured"))
        } catch let e as HTTPClientError where e == .deadlineExceeded || e == .readTimeout {
            return .failure(IIIFError(.unreachable, at: url, "no whole answer within \(Self.seconds(politeness.timeout)) (\(TransportFailure.describe(e))); the server is too slow"))
        } catch {
            return .failure(IIIFError(.unreachable, at: url, "no answer (\(TransportFailure.describe(error))); check the host, port and network"))
        }
    }

    /// The wait before attempt `attempt + 1`: initial × 2^(attempt − 1), capped, times a random 50–100 %.
    func backoff(_ attempt: Int) -> Duration {
        let full = min(politeness.maxBackoff, politeness.initialBackoff * (1 << min(attempt - 1, 20)))
        return full * Double.random(in: 0.5...1.0)
    }

    static func seconds(_ d: Duration) -> String {
        let c = d.components
        return String(format: "%.1f s", Double(c.seconds) + Double(c.attoseconds) / 1e18)
    }
}

extension IIIFAnswer {
    /// `Retry-After` as a wait: delta-seconds, or an HTTP date from now (RFC 9110 §10.2.3).
    var retryAfter: Duration? {
        guard let h = retryAfterHeader?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let s = Int(h), s >= 0 { return .seconds(s) }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = f.date(from: h) else { return nil }
        return .milliseconds(max(0, Int(date.timeIntervalSinceNow * 1000)))
    }
}

/// A cap on requests in flight per host: a request waits for a slot, first come first served.
actor HostGate {
    let limit: Int
    private var active: [String: Int] = [:]
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    init(limit: Int) { self.limit = limit }

    /// Waits until `host` has a free slot and takes it.
    func enter(_ host: String) async {
        if active[host, default: 0] < limit {
            active[host, default: 0] += 1
            return
        }
        await withCheckedContinuation { waiting[host, default: []].append($0) }
    }

    /// Gives the slot to the next waiter for `host`, or frees it.
    func leave(_ host: String) {
        if var queue = waiting[host], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[host] = queue
            next.resume()
        } else {
            active[host, default: 1] -= 1
        }
    }

    /// Requests in flight to `host` now.
    func inFlight(_ host: String) -> Int { active[host, default: 0] }
}
