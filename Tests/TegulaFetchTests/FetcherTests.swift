import Foundation
import TegulaSupport
import TegulaTestSupport
import Testing

@testable import TegulaFetch

/// The fetcher and its URLSession transport against nginx on loopback: answers retried as the
/// policy says (503 and 429 with `Retry-After`, a trickle that times out), failures that end at
/// once (a refused port, a name that does not resolve: ``TimingTests/FetchTimingTests``), the headers a range reader and a cache
/// send (206, 412, 304), redirects, the body cap, the connection cap, and nothing cached.
@Suite(.timeLimit(.minutes(20)), .serialized)
struct FetcherTests {
    /// nginx with the answers the tests need, its access log written as `connection request status
    /// user-agent accept-encoding` to `log`.
    static func nginx() throws -> (server: LocalHTTPServer, log: URL) {
        let log = try TemporaryFolder.make("fetch-log").appendingPathComponent("requests.log")
        let server = try LocalHTTPServer.nginx(
            http: "log_format fetch '$connection $request $status \"$http_user_agent\" \"$http_accept_encoding\"';",
            server: """
                access_log \(log.path) fetch;
                location /busy/ { add_header Retry-After 1 always; return 503; }
                location /later/ { add_header Retry-After 300 always; return 429; }
                location /loop/ { return 302 /loop/again; }
                location = /r1 { return 302 /r2; }
                location = /r2 { return 302 /r3; }
                location = /r3 { return 302 /small.txt; }
                location /slow/ { limit_rate 1; }
                """)
        try Data("hello\n".utf8).write(to: server.www.appendingPathComponent("small.txt"))
        try FileManager.default.createDirectory(at: server.www.appendingPathComponent("slow"), withIntermediateDirectories: true)
        try Data("hello\n".utf8).write(to: server.www.appendingPathComponent("slow/small.txt"))
        var big = [UInt8](repeating: 0, count: 100_000)
        for i in big.indices { big[i] = UInt8(truncatingIfNeeded: i &* 2_654_435_761 >> 13) }
        try Data(big).write(to: server.www.appendingPathComponent("big.bin"))
        return (server, log)
    }

    static func lines(_ log: URL) -> [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The failure of `body` and how long it took to fail.
    static func failure(_ body: () async throws -> HTTPResponse) async -> (FetchError?, Duration) {
        let start = ContinuousClock.now
        do {
            let r = try await body()
            Issue.record("answered \(r.status)")
            return (nil, ContinuousClock.now - start)
        } catch {
            #expect(!"\(error)".contains("\n"))
            #expect(error is FetchError, "\(error)")
            return (error as? FetchError, ContinuousClock.now - start)
        }
    }

    /// 503 with `Retry-After: 1`: asked again after at least a second each time, until the
    /// attempts run out, then one line naming the URL, the status and the attempts.
    @Test func retryAfterIsWaitedOutUntilTheAttemptsRunOut() async throws {
        let (server, log) = try Self.nginx()
        defer { server.stop() }
        let fetcher = HTTPFetcher(
            transport: URLSessionTransport(),
            retry: RetryPolicy(maxAttempts: 3, initialBackoff: .milliseconds(10), retriedStatuses: [429, 503]))
        let (error, took) = await Self.failure { try await fetcher.get(URL(string: server.base + "/busy/x")!, maxBodyBytes: 1 << 20) }
        #expect(error?.reason == .gaveUp(status: 503, attempts: 3))
        #expect("\(error!)".hasPrefix(server.base + "/busy/x: HTTP 503 Service Unavailable after 3 attempts"))
        #expect(took >= .seconds(2), "two waits of Retry-After 1 s: \(took)")
        #expect(Self.lines(log).filter { $0.contains("/busy/x") }.count == 3)
    }

    /// A `Retry-After` longer than the policy waits ends the fetch at once.
    @Test func aRetryAfterOverTheCapEndsAtOnce() async throws {
        let (server, _) = try Self.nginx()
        defer { server.stop() }
        let fetcher = HTTPFetcher(transport: URLSessionTransport(), retry: .polite)
        let (error, took) = await Self.failure { try await fetcher.get(URL(string: server.base + "/later/x")!, maxBodyBytes: 1 << 20) }
        #expect(error?.reason == .waitTooLong(status: 429, asked: .seconds(300), attempts: 1))
        #expect("\(error!)".contains("HTTP 429 Too Many Requests asking to retry after 300.0 s"))
        #expect(took < .seconds(30), "not the 300 s asked: \(took)")
    }

    /// A body trickling at 1 byte/s times out each attempt, and timeouts are retried.
    @Test func timeoutsAreRetried() async throws {
        let (server, log) = try Self.nginx()
        defer { server.stop() }
        let fetcher = HTTPFetcher(
            transport: URLSessionTransport(),
            retry: RetryPolicy(maxAttempts: 3, initialBackoff: .milliseconds(10), retriesTimeouts: true),
            timeout: .milliseconds(700))
        let (error, took) = await Self.failure { try await fetcher.get(URL(string: server.base + "/slow/small.txt")!, maxBodyBytes: 1 << 20) }
        #expect(error?.reason == .transport(.timedOut(after: .milliseconds(700)), attempts: 3))
        #expect("\(error!)".contains("no whole answer within 0.7 s; the server is too slow"))
        #expect(took >= .milliseconds(2100), "three attempts of 0.7 s: \(took)")
        #expect(Self.lines(log).filter { $0.contains("/slow/small.txt") }.count <= 3)
    }

    /// What a range reader and a cache send reaches the server and its answers come back:
    /// `Range` 206 with the bytes, `If-Match` 412 on another version, `If-None-Match` and
    /// `If-Modified-Since` 304; the User-Agent is sent, nothing is compressed or cached.
    @Test func conditionalAndRangeRequests() async throws {
        let (server, log) = try Self.nginx()
        defer { server.stop() }
        let fetcher = HTTPFetcher(transport: URLSessionTransport(), userAgent: "tegula/test")
        let url = URL(string: server.base + "/big.bin")!
        let whole = [UInt8](try Data(contentsOf: server.www.appendingPathComponent("big.bin")))
        let range = try await fetcher.get(url, headers: ["Range": "bytes=100-199"], maxBodyBytes: 100)
        #expect(range.status == 206 && range.body == Array(whole[100..<200]) && !range.isTruncated)
        #expect(range.header("content-range") == "bytes 100-199/100000")
        let etag = try #require(range.header("ETag")), modified = try #require(range.header("Last-Modified"))
        let same = try await fetcher.get(url, headers: ["Range": "bytes=0-9", "If-Match": etag], maxBodyBytes: 10)
        #expect(same.status == 206 && same.body == Array(whole[0..<10]))
        let changed = try await fetcher.get(url, headers: ["Range": "bytes=0-9", "If-Match": "\"another\""], maxBodyBytes: 10)
        #expect(changed.status == 412)
        #expect(try await fetcher.get(url, headers: ["If-None-Match": etag], maxBodyBytes: 1 << 20).status == 304)
        #expect(try await fetcher.get(url, headers: ["If-Modified-Since": modified], maxBodyBytes: 1 << 20).status == 304)
        let again = try await fetcher.get(url, maxBodyBytes: 1 << 20), twice = try await fetcher.get(url, maxBodyBytes: 1 << 20)
        #expect(again.status == 200 && again.body == whole && twice.body == whole)
        let logged = Self.lines(log).filter { $0.contains("/big.bin") }
        #expect(logged.count == 7, "every request reached the server (no URL cache): \(logged)")
        #expect(logged.allSatisfy { $0.hasSuffix("\"tegula/test\" \"identity\"") }, "\(logged)")
    }

    /// Redirects: followed up to the cap, over it or in a loop refused; with a cap of 0 the
    /// redirect is the answer.
    @Test func redirectsAreFollowedUpToTheCap() async throws {
        let (server, _) = try Self.nginx()
        defer { server.stop() }
        let transport = URLSessionTransport()
        let r1 = URL(string: server.base + "/r1")!
        let followed = try await HTTPFetcher(transport: transport).get(r1, maxBodyBytes: 100)
        #expect(followed.status == 200 && followed.body == Array("hello\n".utf8))
        let (over, _) = await Self.failure { try await HTTPFetcher(transport: transport, maxRedirects: 2).get(r1, maxBodyBytes: 100) }
        #expect(over?.reason == .transport(.tooManyRedirects(max: 2), attempts: 1))
        let kept = try await HTTPFetcher(transport: transport, maxRedirects: 0).get(r1, maxBodyBytes: 100)
        #expect(kept.status == 302 && kept.header("Location")?.hasSuffix("/r2") == true)
        let (loop, _) = await Self.failure {
            try await HTTPFetcher(transport: transport).get(URL(string: server.base + "/loop/x")!, maxBodyBytes: 100)
        }
        #expect(loop?.reason == .transport(.redirectLoop, attempts: 1))
        #expect("\(loop!)".hasSuffix("redirects in a loop; the server is misconfigured"))
    }

    /// A body over the cap is cut, and asking for it whole names the declared length.
    @Test func aBodyOverTheCapIsCut() async throws {
        let (server, _) = try Self.nginx()
        defer { server.stop() }
        let answer = try await HTTPFetcher(transport: URLSessionTransport()).get(URL(string: server.base + "/big.bin")!, maxBodyBytes: 1000)
        #expect(answer.status == 200 && answer.isTruncated && answer.body.count <= 1000)
        #expect(
            throws: FetchError(
                .transport(.tooLarge(declared: 100_000, limit: 1000), attempts: 1), at: server.base + "/big.bin",
                "answer of 100000 bytes; tegula reads at most 1000 for one request")
        ) { try answer.wholeBody() }
    }

    /// Forty requests at once on a transport of two connections per host: every answer whole,
    /// over at most two connections; a fetcher's own per-host cap holds too.
    @Test func concurrentRequestsShareAtMostTheConnectionCap() async throws {
        let (server, log) = try Self.nginx()
        defer { server.stop() }
        let fetcher = HTTPFetcher(transport: URLSessionTransport(connectionsPerHost: 2), requestsPerHost: 3)
        let url = URL(string: server.base + "/big.bin")!
        let whole = [UInt8](try Data(contentsOf: server.www.appendingPathComponent("big.bin")))
        let bodies = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<40 { group.addTask { try await fetcher.get(url, maxBodyBytes: 1 << 20).body } }
            return try await group.reduce(into: [[UInt8]]()) { $0.append($1) }
        }
        #expect(bodies.count == 40 && bodies.allSatisfy { $0 == whole })
        let connections = Set(Self.lines(log).filter { $0.contains("/big.bin") }.map { $0.split(separator: " ")[0] })
        #expect(connections.count <= 2, "connections used: \(connections.sorted())")
    }

    /// A fetch whose task is cancelled ends at once, its transfer stopped.
    @Test func aCancelledFetchEndsAtOnce() async throws {
        let (server, _) = try Self.nginx()
        defer { server.stop() }
        let fetcher = HTTPFetcher(transport: URLSessionTransport(), timeout: .seconds(60))
        let start = ContinuousClock.now
        let task = Task { () async throws(FetchError) -> HTTPResponse in
            try await fetcher.get(URL(string: server.base + "/slow/small.txt")!, maxBodyBytes: 100)
        }
        // The pause is the point: the cancel is meant to land while the slow answer trickles in.
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        let result = await task.result
        guard case let .failure(error) = result else {
            Issue.record("a cancelled trickle answered")
            return
        }
        #expect((error as? FetchError)?.reason == .transport(.cancelled, attempts: 1), "\(error)")
        #expect(ContinuousClock.now - start < .seconds(30), "not the 60-s timeout")
    }
}
