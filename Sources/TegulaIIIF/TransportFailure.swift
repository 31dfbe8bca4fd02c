import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

/// Why an HTTP exchange got no answer, in a few plain words for a one-line error. SwiftNIO's and
/// AsyncHTTPClient's own descriptions nest type names, addresses and parentheses, one of them
/// unbalanced (NIO's `IOError` writes `connect(descriptor:addr:size:): Connection refused)
/// (errno: 111)`): quoted inside a message they made a line no one could read. Used by every
/// HTTP client Tegula runs (IIIF images, PMTiles by range).
public enum TransportFailure {
    /// `error` as words: `connection refused`, `the host name did not resolve`, `read timeout`;
    /// an error of another kind by its type's name.
    public static func describe(_ error: any Error) -> String {
        switch error {
        case let e as NIOConnectionError:
            if e.dnsAError != nil || e.dnsAAAAError != nil { return "the host name did not resolve" }
            var causes: [String] = []
            for failure in e.connectionErrors {
                let cause = describe(failure.error)
                if !causes.contains(cause) { causes.append(cause) }
            }
            return causes.isEmpty ? "no connection could be made" : causes.joined(separator: "; ")
        case let e as IOError:
            return String(cString: strerror(e.errnoCode)).lowercased()
        case let e as HTTPClientError:
            return e.shortDescription.lowercased()
        case let e as ChannelError:
            switch e {
            case .connectTimeout: return "connect timeout"
            case .ioOnClosedChannel, .alreadyClosed, .eof: return "the connection was closed"
            default: return "channel error"
            }
        default:
            return "\(type(of: error))"
        }
    }
}
