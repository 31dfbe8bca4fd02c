import TegulaHTTP
import TegulaSupport

/// The IIIF image server's errors (``ServerErrorReason`` is the HTTP core's), one constructor per
/// reason, so each message is written once.
extension LocatedError where Reason == ServerErrorReason {
    /// An IIIF image id that is not served.
    public static func unknownImage(id: String) -> ServerError { ServerError(.unknownImage, "no IIIF image '\(id)'") }

    /// An IIIF image request refused: `what` says what was wrong and what would be right.
    public static func badImageRequest(_ what: String) -> ServerError { ServerError(.badImageRequest, what) }
}
