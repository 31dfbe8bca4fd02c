import Foundation
import TegulaEditor
import TegulaGeometry
import TegulaGeoreference
import TegulaTestSupport
import Testing

/// Every input of the editor-session fuzz target (FuzzInputs: seeds, campaign corpus, crashes),
/// run through the target's own body (FuzzBodies/editor-session.swift): decoded, re-encoded and
/// fitted for a 4000 × 3000 scan, or refused with an ``EditorError`` (a bad body) or a
/// ``GeoreferenceError`` (points that fit no transform), within the CPU cap; never a crash.
struct FuzzReplayTests {
    @Test(.timeLimit(.minutes(20)), arguments: try FuzzInputs.names("editor-session"))
    func session(_ name: String) throws {
        let replay = try FuzzReplay(name, EditorSessionFuzz.run)
        #expect(replay.problems(refusing: (any Error).self) { $0 is EditorError || $0 is GeoreferenceError } == [])
    }

    /// A mask vertex at x = 10^12 scan pixels made the fit's footprint extrapolate to 10^16 m,
    /// which GDAL took seconds to convert to degrees: such a vertex is refused, naming it and the
    /// range; one drawn a little past the scan's edge still fits.
    @Test func aMaskVertexFarOutsideTheScanIsRefused() throws {
        let far = try EditorSession.decode(Data(try FuzzInputs.bytes("Crashes/editor-session/four-points-fit-takes-seconds")))
        #expect(far.mask?.first == PixelPoint(x: 999_999_999_999, y: 0))
        #expect {
            try SessionCheck(far, width: 4000, height: 3000)
        } throws: { error in
            guard let e = error as? EditorError else { return false }
            return e.reason == .badMask && e.location == "mask[0]" && e.message.contains("x must be -4000…8000, y -3000…6000")
        }
        var edge = far
        edge.mask = [PixelPoint(x: -150, y: -20), PixelPoint(x: 4100, y: 0), PixelPoint(x: 4000, y: 3050), PixelPoint(x: 0, y: 2999)]
        let fit = try SessionFit(edge, scanPath: "/scan.tif", width: 4000, height: 3000)
        #expect(fit.check.mask?.count == 4)
        // The mask's 4 corners, refined where the fit bends its edges (at most 2^5 − 1 points more an edge).
        #expect(fit.georeference.report.footprint.count >= 5 && fit.georeference.report.footprint.count <= 4 * 32 + 1)
    }
}
