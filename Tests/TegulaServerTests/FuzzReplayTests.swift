import TegulaServer
import TegulaTestSupport
import Testing

/// Every input of the route fuzz target (FuzzInputs: seeds, campaign corpus, crashes), run
/// through the target's own body (FuzzBodies/route.swift): whatever a request target names is
/// safe to look up. The parser refuses by answering a route (unknown, bad request), never by an
/// error, and within the CPU cap.
struct FuzzReplayTests {
    @Test(.timeLimit(.minutes(20)), arguments: try FuzzInputs.names("route"))
    func route(_ name: String) throws {
        let replay = try FuzzReplay(name, RouteFuzz.run)
        #expect(replay.problems(refusing: Never.self) == [])
    }
}
