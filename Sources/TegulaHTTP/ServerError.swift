import HTTPTypes
import TegulaSupport

/// What the HTTP core under every Tegula server (tiles, IIIF images, the editor) refuses, in
/// Tegula's one error shape: a reason callers switch on, where (a path; nil when the message names
/// the target already) and one line saying what was wrong and what would be right. The tile
/// server's and the IIIF image server's own refusals are theirs (`TileServerError`,
/// `IIIFServerError`); each reason carries the HTTP status it is answered with (``HTTPErrorReason``)
/// and the description is the plain-text body of that answer.
public typealias ServerError = LocatedError<ServerErrorReason>

/// The kinds of ServerError, for callers and tests that branch on them: a request's head, method
/// or target, whatever the service behind.
public enum ServerErrorReason: String, HTTPErrorReason {
    /// The request's header fields are longer than the decoder's limit (431).
    case headersTooLarge
    /// The request target is longer than the configured limit (414).
    case targetTooLong
    /// A request body longer than the service accepts (413).
    case bodyTooLarge
    /// A method the route does not take (405, with `Allow` naming those it takes).
    case methodNotAllowed
    /// A target that cannot name anything: bad percent-encoding, a forbidden segment, a tile
    /// number out of range (400).
    case malformedTarget
    /// A well-formed target naming no route (404).
    case noRoute

    /// The HTTP status a request is refused with (every core reason is a request's).
    public var status: HTTPResponse.Status? {
        switch self {
        case .targetTooLong: return 414
        case .bodyTooLarge: return 413
        case .headersTooLarge: return 431
        case .methodNotAllowed: return 405
        case .malformedTarget: return 400
        case .noRoute: return 404
        }
    }
}

/// The HTTP core's errors, one constructor per reason, so each message is written once.
extension LocatedError where Reason == ServerErrorReason {
    /// A request target longer than `limit` bytes.
    public static func targetTooLong(limit: Int) -> ServerError {
        ServerError(.targetTooLong, "request target longer than \(limit) bytes")
    }

    /// Request header fields longer than `limit` bytes (one field or all together).
    public static func headersTooLarge(limit: Int) -> ServerError {
        ServerError(.headersTooLarge, "request header fields longer than \(limit) bytes")
    }

    /// A request body longer than `limit` bytes.
    public static func bodyTooLarge(limit: Int) -> ServerError {
        ServerError(.bodyTooLarge, "the body is over \(limit) bytes")
    }

    /// A method no route of the server takes; `allowed` are those its routes take
    /// (``RouteTable/methods``): `method POST not allowed; use GET or HEAD`.
    public static func methodNotAllowed(method: HTTPRequest.Method, allowed: [HTTPRequest.Method]) -> ServerError {
        ServerError(.methodNotAllowed, "method \(method.rawValue) not allowed; use \(allowed.map(\.rawValue).joined(separator: " or "))")
    }

    /// A method the route of `path` does not take; `allowed` are those it takes, named without
    /// HEAD, which follows GET: `PUT is not allowed on /api/fit: use POST`.
    public static func methodNotAllowed(method: HTTPRequest.Method, path: String, allowed: [HTTPRequest.Method]) -> ServerError {
        ServerError(
            .methodNotAllowed,
            "\(method.rawValue) is not allowed on \(path): use "
                + allowed.filter { $0 != .head }.map(\.rawValue).joined(separator: " or "))
    }

    /// A target that cannot name anything; `reason` comes from the parser that refused it
    /// (``RequestTarget``, a service's routes).
    public static func malformedTarget(reason: String) -> ServerError { ServerError(.malformedTarget, reason) }

    /// A well-formed target naming nothing we have.
    public static var noRoute: ServerError { ServerError(.noRoute, "nothing here; try / or /{id}.json") }
}
