import HTTPTypes
import TegulaSupport

/// What every server's error reasons have, whichever module declares them: the HTTP status a
/// request refused for the reason is answered with (nil for a start-up reason, which stops the
/// server instead). The core's ``ServerErrorReason`` is one; the tile server and the IIIF image
/// server declare their own, so the core knows no tile and no image.
public protocol HTTPErrorReason: Hashable, Sendable {
    /// The HTTP status a request is refused with; nil for start-up reasons.
    var status: HTTPResponse.Status? { get }
}

/// Any server's error in Tegula's one error shape (`LocatedError` with an ``HTTPErrorReason``):
/// what a service catches to answer whatever refused the request, and what
/// ``ServerResponse/refusal(_:)`` answers.
public protocol HTTPRefusal: Error, CustomStringConvertible, Sendable {
    /// The HTTP status the request is refused with; nil for start-up errors.
    var status: HTTPResponse.Status? { get }
}

extension LocatedError: HTTPRefusal where Reason: HTTPErrorReason {
    /// The HTTP status the request is refused with (its reason's); nil for start-up errors.
    public var status: HTTPResponse.Status? { reason.status }
}
