import Foundation
import TegulaSupport
import TegulaTestSupport
import Testing

@testable import TegulaFetch

/// The retry policy as a value: which answers and failures are retried, the backoff's doubling
/// and jitter, `Retry-After` in both its forms, and the per-host cap on requests in flight.
@Suite(.timeLimit(.minutes(20)))
struct RetryPolicyTests {
    @Test func retryAfterIsReadInSecondsOrAsADate() {
        #expect(RetryPolicy.retryAfter("7") == .seconds(7))
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let wait = try! #require(RetryPolicy.retryAfter(f.string(from: Date().addingTimeInterval(30))))
        #expect(wait > .seconds(28) && wait <= .seconds(30))
        #expect(RetryPolicy.retryAfter("soon") == nil)
        #expect(RetryPolicy.retryAfter(nil) == nil)
    }

    /// Backoff doubles from the initial wait, stays within 50–100 % of it, and is capped.
    @Test func backoffDoublesWithJitterUpToItsCap() {
        let p = RetryPolicy(maxAttempts: 6, initialBackoff: .milliseconds(100), maxBackoff: .seconds(1))
        for _ in 0..<50 {
            let one = p.backoff(after: 1), three = p.backoff(after: 3), ten = p.backoff(after: 10)
            #expect(one >= .milliseconds(50) && one <= .milliseconds(100))
            #expect(three >= .milliseconds(200) && three <= .milliseconds(400))
            #expect(ten >= .milliseconds(500) && ten <= .seconds(1))
        }
    }

    /// 429 and 503 are retried (after the longer of Retry-After and the backoff) until the attempts
    /// run out; a Retry-After over the cap ends at once; other statuses are the caller's.
    @Test func retriedStatusesWaitOutRetryAfterUntilTheAttemptsRunOut() {
        let p = RetryPolicy.polite
        #expect(p.verdict(status: 200, retryAfter: nil, attempt: 1) == .accept)
        #expect(p.verdict(status: 404, retryAfter: .seconds(5), attempt: 1) == .accept)
        guard case let .retry(wait) = p.verdict(status: 429, retryAfter: .seconds(7), attempt: 1) else {
            Issue.record("429 is retried")
            return
        }
        #expect(wait == .seconds(7), "Retry-After 7 s beats a 0.25-0.5 s backoff")
        guard case let .retry(backoff) = p.verdict(status: 503, retryAfter: nil, attempt: 2) else {
            Issue.record("503 is retried")
            return
        }
        #expect(backoff >= .milliseconds(500) && backoff <= .seconds(1))
        #expect(p.verdict(status: 503, retryAfter: nil, attempt: 6) == .giveUp)
        #expect(p.verdict(status: 429, retryAfter: .seconds(121), attempt: 1) == .waitTooLong(.seconds(121)))
        #expect(RetryPolicy.none.verdict(status: 503, retryAfter: nil, attempt: 1) == .accept, "no retries: 503 is an answer")
    }

    /// Timeouts and dropped connections are retried when the policy says so; a refused connection
    /// and an unresolvable host never are, attempts left or not.
    @Test func whichFailuresAreRetried() {
        let p = RetryPolicy.polite
        for failure in [TransportFailure.timedOut(after: .seconds(1)), .connectionLost] {
            guard case .retry = p.verdict(failure: failure, attempt: 1) else {
                Issue.record("\(failure) is retried by the polite policy")
                continue
            }
            #expect(p.verdict(failure: failure, attempt: 6) == .giveUp)
            #expect(RetryPolicy.none.verdict(failure: failure, attempt: 1) == .giveUp)
        }
        for failure in [TransportFailure.refused, .unresolvable, .redirectLoop, .tooManyRedirects(max: 5), .cancelled, .other("x")] {
            #expect(p.verdict(failure: failure, attempt: 1) == .giveUp, "\(failure)")
        }
    }

    /// Ten requests through a gate of four: never more than four in flight, all served. Each
    /// holds the gate until as many are in as the gate should let in (four while at least four
    /// are left), so the peak is reached however slowly the tasks are scheduled.
    @Test func theHostGateKeepsAtMostItsLimitInFlight() async throws {
        let gate = HostGate(limit: 4)
        let peak = Locked((now: 0, max: 0, left: 0))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    await gate.enter("h")
                    peak.withLock {
                        $0.now += 1; $0.max = max($0.max, $0.now)
                    }
                    try await Poll.until("min(4, requests not yet served) in flight at once (\(peak.current))") {
                        let p = peak.current
                        return p.now >= min(4, 10 - p.left)
                    }
                    peak.withLock {
                        $0.now -= 1; $0.left += 1
                    }
                    await gate.leave("h")
                }
            }
            try await group.waitForAll()
        }
        #expect(peak.current.max == 4)
        #expect(await gate.inFlight("h") == 0)
    }

    /// Status lines as SwiftNIO spelt them (the error lines tests and users read).
    @Test func statusLines() {
        #expect(HTTPStatus.line(503) == "HTTP 503 Service Unavailable")
        #expect(HTTPStatus.line(404) == "HTTP 404 Not Found")
        #expect(HTTPStatus.line(599) == "HTTP 599")
    }
}
