import TegulaSupport

/// Why an IIIF image could not be described, asked for or fetched.
public enum IIIFFailure: Hashable, Sendable {
    /// An info.json that is not JSON, or not an Image API 2.x or 3.0 description.
    case badInfo
    /// A request path outside the Image API's grammar (`{region}/{size}/{rotation}/{quality}.{format}`).
    case badRequest
    /// A request the image cannot answer: a region outside it, a size above the server's limits.
    case outOfBounds
    /// Not an http:// or https:// URL with a host.
    case badURL
    /// The server answered with a status other than success, after every retry.
    case status(Int)
    /// No answer: connection refused, DNS, TLS, timeout.
    case unreachable
    /// Over a cap set before allocating: dimensions, tile count, response bytes, redirects.
    case overLimit
    /// An answer that is not the image asked for: HTML, a wrong size, an undecodable body.
    case badImage
    /// The disk cache could not be read or written.
    case cache
}

/// An IIIF failure in one line: `URL or key path: what, and what would be right`.
public typealias IIIFError = LocatedError<IIIFFailure>
