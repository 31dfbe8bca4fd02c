import HTTPTypes
import TegulaSupport

/// Everything Tegula's servers (tiles, IIIF images, the editor) refuse or fail at, at start-up and
/// per request, in Tegula's one error shape: a reason callers switch on, where (a path; nil when the message names the tileset
/// or the target already) and one line saying what was wrong and what would be right.
///
/// Request reasons carry the HTTP status they are answered with (`status`), and the description
/// is the plain-text body of that answer; start-up reasons have none: they stop `tegula serve`.
public typealias ServerError = LocatedError<ServerErrorReason>

/// The kinds of ServerError, for callers and tests that branch on them.
public enum ServerErrorReason: String, Sendable, Hashable {
    // Start-up: building the catalogue.

    /// A PATH argument is neither a tileset nor a folder holding tilesets.
    case noTileset
    /// Two tilesets would get the same id.
    case duplicateID
    /// Nothing to serve.
    case emptyCatalogue

    // Requests.

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
    /// A viewer asset name that is not in the table (404).
    case unknownAsset
    /// A tileset id that is not in the catalogue (404).
    case unknownTileset
    /// A sheet index asked for of a tileset that has none beside it (404).
    case noSheetIndex
    /// A tile asked for with another extension than the tileset's format (404).
    case wrongTileFormat
    /// A tile asked for with (or without) `@2x` against the tileset's scale (404).
    case wrongTileScale
    /// A zoom outside the tileset's zoom range (404).
    case zoomOutsideTileset
    /// An in-range tile the tileset does not hold (404, or 204 with `--missing 204`).
    case missingTile
    /// Reading a tile from its tileset failed (500).
    case readFailed
    /// A tile of a source made on request lies outside its footprint or mask (404, no render).
    case outsideFootprint
    /// Making a tile of a source made on request failed (500).
    case renderFailed
    /// The client went away before its tile was made (503; nobody reads it).
    case clientGone
    /// The server a source's pixels come from (an IIIF image's) failed after its retries (503
    /// with `Retry-After`: never a blank 200 that a cache would keep).
    case upstreamUnavailable
    /// An IIIF image id that is not served (404).
    case unknownImage
    /// An IIIF image request outside the grammar, or one this service does not answer: a region
    /// outside the image, a size above the region without `^` or above `maxArea`, a rotation,
    /// quality or format not offered (400).
    case badImageRequest

    /// The HTTP status a request is refused with; nil for start-up reasons.
    public var status: HTTPResponse.Status? {
        switch self {
        case .noTileset, .duplicateID, .emptyCatalogue: return nil
        case .targetTooLong: return 414
        case .bodyTooLarge: return 413
        case .headersTooLarge: return 431
        case .methodNotAllowed: return 405
        case .malformedTarget, .badImageRequest: return 400
        case .noRoute, .unknownAsset, .unknownTileset, .noSheetIndex, .wrongTileFormat, .wrongTileScale, .zoomOutsideTileset, .missingTile,
             .outsideFootprint, .unknownImage:
            return 404
        case .readFailed, .renderFailed: return 500
        case .clientGone, .upstreamUnavailable: return 503
        }
    }
}

/// The HTTP core's errors, one constructor per reason, so each message is written once; the tile
/// server's constructors are in TegulaServer (`ServerError+Tiles.swift`), the IIIF image server's in
/// TegulaIIIFServer.
extension LocatedError where Reason == ServerErrorReason {
    /// The HTTP status the request is refused with; nil for start-up errors.
    public var status: HTTPResponse.Status? { reason.status }

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
        ServerError(.methodNotAllowed, "\(method.rawValue) is not allowed on \(path): use "
            + allowed.filter { $0 != .head }.map(\.rawValue).joined(separator: " or "))
    }

    /// A target that cannot name anything; `reason` comes from the parser that refused it
    /// (``RequestTarget``, a service's routes).
    public static func malformedTarget(reason: String) -> ServerError { ServerError(.malformedTarget, reason) }

    /// A well-formed target naming nothing we have.
    public static var noRoute: ServerError { ServerError(.noRoute, "nothing here; try / or /{id}.json") }
}
