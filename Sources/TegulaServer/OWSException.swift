import HTTPTypes
import TegulaHTTP
import TegulaSupport

/// A WMTS request refused as OWS Common 1.1 reports it (OGC 06-121r3 §8, WMTS 07-057r7 §8.3 and
/// Table 28): the exception code is the reason, the locator the parameter at fault (the
/// location), the message the `ows:ExceptionText`. Answered as an `ows:ExceptionReport`
/// (``report``) with the code's HTTP status.
public typealias OWSException = LocatedError<OWSExceptionCode>

/// The exception codes `tegula serve`'s WMTS answers with, and their HTTP statuses (OWS Common
/// 1.1 Table 28, WMTS 1.0.0 Table 28).
public enum OWSExceptionCode: String, HTTPErrorReason {
    /// A required parameter is absent (400).
    case missingParameterValue = "MissingParameterValue"
    /// A parameter's value names nothing served (400).
    case invalidParameterValue = "InvalidParameterValue"
    /// None of the versions the client accepts is served (400).
    case versionNegotiationFailed = "VersionNegotiationFailed"
    /// An operation the server does not implement (501).
    case operationNotSupported = "OperationNotSupported"
    /// A row or column outside the layer's tile matrix set limits (400).
    case tileOutOfRange = "TileOutOfRange"
    /// Anything else: the tile could not be read (500).
    case noApplicableCode = "NoApplicableCode"

    /// The HTTP status the report is sent with.
    public var status: HTTPResponse.Status? {
        switch self {
        case .missingParameterValue, .invalidParameterValue, .versionNegotiationFailed, .tileOutOfRange: return 400
        case .operationNotSupported: return 501
        case .noApplicableCode: return 500
        }
    }
}

/// The WMTS errors, one constructor per shape of message.
extension LocatedError where Reason == OWSExceptionCode {
    /// The required parameter `name` is absent.
    static func missing(_ name: String) -> OWSException {
        OWSException(.missingParameterValue, at: name, "the parameter \(name.uppercased()) is required")
    }

    /// The parameter `name`'s value is wrong: `message` says how.
    static func invalid(_ name: String, _ message: String) -> OWSException { OWSException(.invalidParameterValue, at: name, message) }

    /// The `ows:ExceptionReport` document (OWS Common 1.1 `owsExceptionReport.xsd`).
    public var report: [UInt8] {
        let locator = location.map { " locator=\"\(XMLText.escape($0))\"" } ?? ""
        return Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <ows:ExceptionReport xmlns:ows="http://www.opengis.net/ows/1.1" version="1.0.0" xml:lang="en">
              <ows:Exception exceptionCode="\(reason.rawValue)"\(locator)>
                <ows:ExceptionText>\(XMLText.escape(message))</ows:ExceptionText>
              </ows:Exception>
            </ows:ExceptionReport>

            """.utf8)
    }

    /// The report as an answer: its status, `application/xml`, never cached.
    public var response: ServerResponse {
        ServerResponse(
            status: status ?? .internalServerError,
            headers: [.contentType: "application/xml; charset=utf-8", .cacheControl: "no-store", .xContentTypeOptions: "nosniff"],
            body: report)
    }
}
