import Foundation
import TegulaTestSupport
import Testing

@testable import TegulaHTTP
@testable import TegulaServer

extension TimingTests {
    /// A tile server's connections over time, on a real loopback server: a slowloris closed at
    /// the idle deadline while a client asking now and then is served, and the open connections
    /// gauge following connects and closes. Their outcome depends on timing, so they run in
    /// ``TimingTests``, one at a time.
    @Suite struct ConnectionTimingTests {
        let f = ServerFixtures.shared

        /// Seconds from connecting until the server closes a client that sends a request head one
        /// header line every `every` seconds and never ends it (nil: still open after `limit` s).
        static func trickle(port: Int, every: Double, limit: Double) throws -> Double? {
            let fd = try RawHTTP.connect(port: port)
            defer { close(fd) }
            RawHTTP.setReadTimeout(fd, seconds: every)
            let start = Date()
            guard RawHTTP.send(fd, "GET /blue/0/0/0.png HTTP/1.1\r\nHost: 127.0.0.1\r\n") else { return 0 }
            var buf = [UInt8](repeating: 0, count: 4096)
            var i = 0
            while Date().timeIntervalSince(start) < limit {
                let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { return Date().timeIntervalSince(start) }
                i += 1
                if !RawHTTP.send(fd, "X-Slow-\(i): a\r\n") { return Date().timeIntervalSince(start) }
            }
            return nil
        }

        /// One keep-alive connection asking for `target` `count` times, `every` seconds apart: the
        /// statuses in order, then whether the server closed it within `idleWait` s of the last answer.
        static func keepAlive(port: Int, target: String, count: Int, every: Double, idleWait: Double) throws -> ([Int], Bool) {
            let fd = try RawHTTP.connect(port: port)
            defer { close(fd) }
            RawHTTP.setReadTimeout(fd, seconds: 5)
            var statuses: [Int] = []
            var pending: [UInt8] = []
            var buf = [UInt8](repeating: 0, count: 65536)
            for i in 0..<count {
                // The pause is the point: a client that asks now and then, not one that waits for something.
                if i > 0 { Thread.sleep(forTimeInterval: every) }
                guard RawHTTP.send(fd, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") else { break }
                // Read until one whole response (head + Content-Length body) is in.
                while true {
                    if let r = try? RawHTTP.responses(pending, heads: [false]), let first = r.first {
                        statuses.append(first.status)
                        pending = []
                        break
                    }
                    let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    guard n > 0 else { return (statuses, true) }
                    pending += buf[0..<n]
                }
            }
            RawHTTP.setReadTimeout(fd, seconds: idleWait)
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            return (statuses, n == 0)
        }

        /// A slowloris client (a header line every 200 ms, never ending its head) is closed after the
        /// idle timeout, while a keep-alive client asking every 300 ms on one connection (its tiles
        /// answered by the fast path, which Hummingbird's own idle timer never sees) stays open and
        /// is served throughout, and is closed once it goes quiet.
        @Test func slowlorisIsClosedWhileOthersAreServed() async throws {
            let service = f.service(ServerConfiguration(idleTimeout: .milliseconds(1500)))
            try await LiveServer.run(service) { server in
                let port = server.port
                // The keep-alive client's tile made hot first, so every one of its answers comes from
                // the event loop: cold, it waits for Swift's cooperative pool, which parallel CLI
                // tests on a loaded machine held past the client's 5 s read limit (CI, 2026-11-25).
                #expect(try await RawHTTP.fetch(port: port, "/blue/1/0/1.png").status == 200)
                async let slow = RawHTTP.offPool { try Self.trickle(port: port, every: 0.2, limit: 8) }
                async let busy = RawHTTP.offPool { try Self.keepAlive(port: port, target: "/blue/1/0/1.png", count: 10, every: 0.3, idleWait: 3) }
                // Others, each on a new connection (one kept-alive connection would itself be closed as
                // idle whenever this loaded machine leaves it alone for the timeout).
                var others = 0
                for _ in 0..<5 {
                    // The pause is the point: the others' requests spread over the slowloris's life.
                    try await Task.sleep(for: .milliseconds(200))
                    if try await RawHTTP.fetch(port: port, "/blue/0/0/0.png").status == 200 { others += 1 }
                }
                let (closedAfter, (statuses, closedWhenIdle)) = try await (slow, busy)
                print("slowloris closed after \(closedAfter.map { String(format: "%.2f", $0) } ?? "never") s (idle timeout 1.5 s)")
                #expect(closedAfter.map { $0 >= 1.4 && $0 < 5 } == true, "slowloris closed after \(String(describing: closedAfter)) s")
                #expect(statuses == Array(repeating: 200, count: 10), "\(statuses)")
                #expect(closedWhenIdle)
                #expect(others == 5)
            }
        }

        /// Open connections rise with idle sockets and fall when they close. The gauge is read from
        /// the registry in-process: a scrape over HTTP is a connection itself, which the server may not
        /// have closed yet when the next scrape reads the gauge (under a whole suite on two cores this
        /// test failed in a fresh-clone CI, 2026-11-27, with both expectations off).
        @Test func openConnectionsGauge() async throws {
            let metrics = ServerMetrics()
            try await LiveServer.run(f.service(metrics: metrics)) { server in
                let port = server.port
                func open() -> Double {
                    MetricsTests.samples(String(decoding: metrics.exposition(), as: UTF8.self))["tegula_http_open_connections"] ?? -1
                }
                /// Waits until the gauge reads `value`: a connection is counted on its own event loop,
                /// and a closed one once its close has gone through.
                func settle(at value: Double, _ what: String) async throws {
                    try await Poll.until("the open connections gauge to read \(value) once \(what) (it reads \(open()))") { open() == value }
                }
                // One kept-alive connection, open through the whole test, answered once first, so it is
                // counted before the base is read (as HummingbirdTesting's client's was; read before its
                // first answer, the base was one short; that, or a scrape's, made this test fail under load).
                let kept = try RawHTTP.connect(port: port)
                defer { close(kept) }
                let health = try await MetricsTests.keptAliveGet(kept, "/health")
                #expect(health.status == 200)
                let base = open()
                #expect(base >= 1)
                let idle = try (0..<3).map { _ in try RawHTTP.connect(port: port) }
                try await settle(at: base + 3, "3 idle sockets connected")
                for fd in idle { close(fd) }
                try await settle(at: base, "they closed")
                // And a scrape over HTTP shows the same gauge (its own connection counted).
                let scraped = MetricsTests.samples(String(decoding: try await RawHTTP.fetch(port: port, "/metrics").body, as: UTF8.self))
                #expect(scraped["tegula_http_open_connections"].map { $0 >= base + 1 } == true)
            }
        }
    }
}
