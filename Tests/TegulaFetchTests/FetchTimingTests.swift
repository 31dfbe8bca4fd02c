import Foundation
import TegulaTestSupport
import Testing

@testable import TegulaFetch

extension TimingTests {
    /// The fetcher's failures that must come at once, timed: run one at a time with the other
    /// timing-dependent suites, not beside the whole suite, whose load delays any await.
    @Suite struct FetchTimingTests {
        /// Nobody listening, and a name that does not resolve: one attempt, at once, whatever the
        /// policy allows (6 attempts after backoffs of at least 0.5 + 1 + 2 + 4 + 8 s). The bound on
        /// the time is loose, and the test runs in ``TimingTests``: beside the whole suite, with two
        /// benchmarks running too (2026-11-30), it took 5.5–5.9 s, waiting for a thread.
        @Test func aRefusedConnectionAndAnUnresolvableHostFailAtOnce() async throws {
            let fetcher = HTTPFetcher(
                transport: URLSessionTransport(),
                retry: RetryPolicy(
                    maxAttempts: 6, initialBackoff: .seconds(1), retriedStatuses: [429, 503],
                    retriesTimeouts: true, retriesLostConnections: true))
            let refused = "http://127.0.0.1:\(try LocalHTTPServer.freePort())/x"
            let (e1, t1) = await FetcherTests.failure { try await fetcher.get(URL(string: refused)!, maxBodyBytes: 100) }
            #expect(e1?.reason == .transport(.refused, attempts: 1))
            #expect("\(e1!)" == "\(refused): no answer (connection refused); check the host, port and network")
            #expect(t1 < .seconds(5), "\(t1)")
            let nowhere = "http://tegula-test.invalid/x"
            let (e2, t2) = await FetcherTests.failure { try await fetcher.get(URL(string: nowhere)!, maxBodyBytes: 100) }
            #expect(e2?.reason == .transport(.unresolvable, attempts: 1))
            #expect("\(e2!)" == "\(nowhere): no answer (the host name did not resolve); check the host, port and network")
            #expect(t2 < .seconds(5), "\(t2)")
        }
    }
}
