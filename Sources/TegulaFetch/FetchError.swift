import TegulaSupport

/// Why a fetch ended without an answer to use, after the retries its policy allowed.
public enum FetchFailure: Hashable, Sendable {
    /// No answer, or one cut short: the transport's failure on the last attempt.
    case transport(TransportFailure, attempts: Int)
    /// The server kept answering a status the policy retries (429, 503) until the attempts ran out.
    case gaveUp(status: Int, attempts: Int)
    /// The server asked to be retried later (`Retry-After`) than the policy waits.
    case waitTooLong(status: Int, asked: Duration, attempts: Int)

    /// Requests sent before the fetch ended.
    public var attempts: Int {
        switch self {
        case let .transport(_, n), let .gaveUp(_, n), let .waitTooLong(_, _, n): n
        }
    }
}

/// A fetch that failed in one line: `URL: what, and what would be right`.
public typealias FetchError = LocatedError<FetchFailure>
