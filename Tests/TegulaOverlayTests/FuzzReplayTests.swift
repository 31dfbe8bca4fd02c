import TegulaOverlay
import TegulaTestSupport
import Testing

/// Every input of the URL-template fuzz target (FuzzInputs: seeds, campaign corpus, crashes), run
/// through the target's own body (FuzzBodies/url-template.swift): parsed and filled, or refused
/// with a ``TileOverlayError`` naming what is wrong with the template, within the CPU cap.
struct FuzzReplayTests {
    @Test(.timeLimit(.minutes(20)), arguments: try FuzzInputs.names("url-template"))
    func urlTemplate(_ name: String) throws {
        let replay = try FuzzReplay(name, URLTemplateFuzz.run)
        let templateFaults: Set<TileOverlayErrorReason> = [
            .unknownPlaceholder, .unclosedPlaceholder, .missingSubdomains, .missingPlaceholder, .invalidURL,
        ]
        #expect(replay.problems(refusing: TileOverlayError.self) { templateFaults.contains($0.reason) } == [])
    }
}
