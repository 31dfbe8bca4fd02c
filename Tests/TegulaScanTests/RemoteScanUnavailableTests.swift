import TegulaScan
import TegulaSupport
import Testing

/// A remote scan's unavailability keeps the server's failure whole and prints its line.
struct RemoteScanUnavailableTests {
    @Test func theServersFailureIsKeptAndPrintedAsItWas() {
        let failure = LocatedError("status", at: "https://iiif.example/img/0,0,512,512/512,/0/default.jpg", "HTTP 503 after 6 attempts")
        let error = RemoteScanUnavailable(failure)
        #expect((error.underlying as? LocatedError<String>) == failure)
        #expect(error.retryAfter == 30)
        #expect("\(error)" == "https://iiif.example/img/0,0,512,512/512,/0/default.jpg: HTTP 503 after 6 attempts")
    }
}
