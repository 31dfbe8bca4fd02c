import HTTPTypes
import TegulaHTTP
import TegulaSupport
import TegulaTileset

/// What the IIIF image server refuses or fails at, per request, in Tegula's one error shape; the
/// HTTP core's own refusals (a long target, a method, a malformed target) stay ``ServerError``s.
public typealias IIIFServerError = LocatedError<IIIFServerErrorReason>

/// The kinds of IIIFServerError, each with the HTTP status it is answered with.
public enum IIIFServerErrorReason: String, HTTPErrorReason {
    /// An IIIF image id that is not served (404).
    case unknownImage
    /// An IIIF image request outside the grammar, or one this service does not answer: a region
    /// outside the image, a size above the region without `^` or above `maxArea`, a rotation,
    /// quality or format not offered (400).
    case badImageRequest
    /// The client went away before its window was made (503; nobody reads it).
    case clientGone
    /// Making a window failed, or gave no image (500).
    case renderFailed

    /// The HTTP status a request is refused with.
    public var status: HTTPResponse.Status? {
        switch self {
        case .unknownImage: return 404
        case .badImageRequest: return 400
        case .clientGone: return 503
        case .renderFailed: return 500
        }
    }
}

/// The IIIF image server's errors, one constructor per reason, so each message is written once.
extension LocatedError where Reason == IIIFServerErrorReason {
    /// An IIIF image id that is not served.
    public static func unknownImage(id: String) -> IIIFServerError { IIIFServerError(.unknownImage, "no IIIF image '\(id)'") }

    /// An IIIF image request refused: `what` says what was wrong and what would be right.
    public static func badImageRequest(_ what: String) -> IIIFServerError { IIIFServerError(.badImageRequest, what) }

    /// The client went away before `window` of image `id` was made.
    static func clientGone(_ window: ImageWindow, id: String) -> IIIFServerError {
        IIIFServerError(.clientGone, "the client went away before \(window) of '\(id)' was made")
    }

    /// Making `window` of image `id` failed (the reason is in the server log) or gave no image.
    static func renderFailed(_ window: ImageWindow, id: String, gaveNoImage: Bool) -> IIIFServerError {
        IIIFServerError(.renderFailed, "making \(window) of '\(id)' " + (gaveNoImage ? "gave no image" : "failed; see the server log"))
    }
}
