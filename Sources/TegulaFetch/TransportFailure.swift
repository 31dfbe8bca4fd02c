import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why an HTTP exchange got no usable answer, the one description every client of Tegula's gives
/// (IIIF images, PMTiles by range, overlay tiles): a case to switch on and a few plain words for
/// a one-line error (`connection refused`, `the host name did not resolve`).
public enum TransportFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nobody listens at the host and port.
    case refused
    /// The host name did not resolve.
    case unresolvable
    /// No whole answer within the request's time.
    case timedOut(after: Duration)
    /// The connection closed before a whole answer (a keep-alive connection the server had
    /// dropped, a reset, an empty reply).
    case connectionLost
    /// More redirects than the request allows.
    case tooManyRedirects(max: Int)
    /// A redirect to a URL already visited.
    case redirectLoop
    /// A body longer than the request allows: its declared length when one was given.
    case tooLarge(declared: Int?, limit: Int)
    /// The TLS handshake or the certificate failed.
    case tls(String)
    /// The task that waited for the answer was cancelled.
    case cancelled
    /// Anything else, in the transport's own words.
    case other(String)

    /// A few plain words: `connection refused`, `timed out after 30.0 s`.
    public var description: String {
        switch self {
        case .refused: "connection refused"
        case .unresolvable: "the host name did not resolve"
        case let .timedOut(after): "timed out after \(Self.seconds(after))"
        case .connectionLost: "the connection was closed"
        case let .tooManyRedirects(max): "more than \(max) redirects"
        case .redirectLoop: "redirects in a loop"
        case let .tooLarge(declared?, limit): "an answer of \(declared) bytes, over the \(limit)-byte limit"
        case let .tooLarge(nil, limit): "an answer over \(limit) bytes"
        case let .tls(words): "TLS failed: \(words)"
        case .cancelled: "cancelled"
        case let .other(words): words
        }
    }

    /// The failure as the rest of an error line after `URL: `: what happened, and what would be right.
    public var sentence: String {
        switch self {
        case let .timedOut(after): "no whole answer within \(Self.seconds(after)); the server is too slow"
        case let .tooManyRedirects(max): "more than \(max) redirects; the server is misconfigured"
        case .redirectLoop: "redirects in a loop; the server is misconfigured"
        case let .tooLarge(declared?, limit): "answer of \(declared) bytes; tegula reads at most \(limit) for one request"
        case let .tooLarge(nil, limit): "answer over \(limit) bytes; tegula reads at most that for one request"
        case .cancelled: "cancelled before an answer came"
        default: "no answer (\(self)); check the host, port and network"
        }
    }

    /// What a URLSession error means, `timeout` being the request's (Linux's URLSession reports
    /// libcurl's failures as these codes: a refused connection as `cannotConnectToHost`, an empty
    /// reply as `badServerResponse`).
    init(_ error: any Error, timeout: Duration, maxRedirects: Int) {
        guard let e = error as? URLError else {
            self = .other(Self.oneLine("\(error)"))
            return
        }
        switch e.code {
        case .cannotConnectToHost: self = .refused
        case .cannotFindHost, .dnsLookupFailed: self = .unresolvable
        case .timedOut: self = .timedOut(after: timeout)
        case .networkConnectionLost, .badServerResponse: self = .connectionLost
        case .httpTooManyRedirects: self = .tooManyRedirects(max: maxRedirects)
        case .cancelled: self = .cancelled
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted, .serverCertificateHasUnknownRoot,
            .serverCertificateNotYetValid, .clientCertificateRejected, .clientCertificateRequired:
            self = .tls(Self.oneLine(e.localizedDescription))
        default: self = .other(Self.oneLine(e.localizedDescription))
        }
    }

    /// `d` as `12.5 s`.
    public static func seconds(_ d: Duration) -> String {
        let c = d.components
        return String(format: "%.1f s", Double(c.seconds) + Double(c.attoseconds) / 1e18)
    }

    static func oneLine(_ s: String) -> String {
        s.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
    }
}
