import Foundation

/// When a request is sent again, and how long is waited first: the answers and failures retried,
/// the attempts, capped exponential backoff with jitter, and `Retry-After` up to a cap. IIIF's
/// politeness is one configuration (``polite``), a range read's one retry of a dropped
/// connection another, an overlay tile's ``none`` a third.
///
/// A refused connection and a host name that does not resolve are never retried: nobody is
/// there to ask again, so the request fails at once.
public struct RetryPolicy: Sendable, Hashable {
    /// Requests sent at most for one fetch, the first included (1: never retried).
    public var maxAttempts: Int
    /// The first backoff; doubled each attempt, then a random 50–100 % of it is waited.
    public var initialBackoff: Duration
    /// The longest backoff between two attempts.
    public var maxBackoff: Duration
    /// The longest `Retry-After` honoured; a server asking for more ends the fetch at once.
    public var maxRetryAfter: Duration
    /// Statuses waited out and asked again (429 Too Many Requests, 503 Service Unavailable); when
    /// the attempts run out on one, the fetch fails (``FetchFailure/gaveUp(status:attempts:)``).
    public var retriedStatuses: Set<Int>
    /// Whether a request that timed out is sent again.
    public var retriesTimeouts: Bool
    /// Whether a request whose connection closed before a whole answer is sent again.
    public var retriesLostConnections: Bool

    /// A policy; by default one attempt that retries nothing.
    public init(
        maxAttempts: Int = 1, initialBackoff: Duration = .milliseconds(500), maxBackoff: Duration = .seconds(30),
        maxRetryAfter: Duration = .seconds(120), retriedStatuses: Set<Int> = [], retriesTimeouts: Bool = false,
        retriesLostConnections: Bool = false
    ) {
        self.maxAttempts = maxAttempts
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
        self.maxRetryAfter = maxRetryAfter
        self.retriedStatuses = retriedStatuses
        self.retriesTimeouts = retriesTimeouts
        self.retriesLostConnections = retriesLostConnections
    }

    /// One attempt; every answer is the caller's, every failure final.
    public static let none = RetryPolicy()

    /// A polite client of someone else's server (IIIF's default): 6 attempts; 429 and 503, timeouts
    /// and dropped connections retried after 0.5 s doubled up to 30 s, or the server's
    /// `Retry-After` up to 120 s.
    public static let polite = RetryPolicy(
        maxAttempts: 6, retriedStatuses: [429, 503], retriesTimeouts: true,
        retriesLostConnections: true)

    /// What to do after an attempt.
    public enum Verdict: Sendable, Hashable {
        /// The answer is the caller's.
        case accept
        /// Send again after this wait.
        case retry(after: Duration)
        /// Retried status or failure, but no attempts are left.
        case giveUp
        /// The server asked for a longer wait than ``maxRetryAfter``.
        case waitTooLong(Duration)
    }

    /// After attempt `attempt` (from 1) was answered `status`, with `retryAfter` when the answer
    /// had one: accepted unless the status is retried; then given up when the attempts are spent,
    /// refused when the asked wait is over the cap, else retried after the longer of the asked
    /// wait and the backoff.
    public func verdict(status: Int, retryAfter: Duration?, attempt: Int) -> Verdict {
        guard retriedStatuses.contains(status) else { return .accept }
        guard attempt < maxAttempts else { return .giveUp }
        if let retryAfter, retryAfter > maxRetryAfter { return .waitTooLong(retryAfter) }
        return .retry(after: max(retryAfter ?? .zero, backoff(after: attempt)))
    }

    /// After attempt `attempt` failed with `failure`: retried after the backoff when the policy
    /// retries that kind of failure and attempts are left; given up otherwise (a refused
    /// connection and an unresolvable host at once).
    public func verdict(failure: TransportFailure, attempt: Int) -> Verdict {
        let retried =
            switch failure {
            case .timedOut: retriesTimeouts
            case .connectionLost: retriesLostConnections
            default: false
            }
        return retried && attempt < maxAttempts ? .retry(after: backoff(after: attempt)) : .giveUp
    }

    /// The wait after attempt `attempt` (from 1): initial × 2^(attempt − 1), capped, times a
    /// random 50–100 %.
    public func backoff(after attempt: Int) -> Duration {
        let full = min(maxBackoff, initialBackoff * (1 << min(max(attempt, 1) - 1, 20)))
        return full * Double.random(in: 0.5...1.0)
    }

    /// A `Retry-After` field as a wait: delta-seconds, or an HTTP date from now (RFC 9110 §10.2.3);
    /// nil for anything else.
    public static func retryAfter(_ field: String?) -> Duration? {
        guard let h = field?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let s = Int(h), s >= 0 { return .seconds(s) }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = f.date(from: h) else { return nil }
        return .milliseconds(max(0, Int(date.timeIntervalSinceNow * 1000)))
    }
}
