import TegulaGeometry
import Testing

/// ZoomSpec's refusals carry a reason and the exact lines they printed as plain messages.
struct ZoomSpecFailureTests {
    @Test func eachRefusalHasItsReasonAndItsLine() {
        let cases: [(String, ZoomSpec.Failure.Reason, String)] = [
            ("8-2", .minAboveMax, "MIN is above MAX"),
            ("abc", .malformed, "expected MIN-MAX (e.g. 2-8), one zoom, or auto; zooms 0–30"),
            ("31", .malformed, "expected MIN-MAX (e.g. 2-8), one zoom, or auto; zooms 0–30"),
        ]
        for (text, reason, line) in cases {
            #expect(throws: ZoomSpec.Failure.self) { _ = try ZoomSpec.parse(text) }
            do {
                _ = try ZoomSpec.parse(text)
            } catch let failure as ZoomSpec.Failure {
                #expect(failure.reason == reason, "\(text)")
                #expect("\(failure)" == line, "\(text)")
            } catch {
                Issue.record("\(text): not a ZoomSpec.Failure: \(error)")
            }
        }
    }
}
