import Foundation
import TegulaGeometry
import TegulaTestSupport
import Testing

@testable import TegulaHTTP
@testable import TegulaServer

/// `/metrics` scraped over loopback after real requests, answered by both paths (Hummingbird's
/// responder for cold tiles and other routes, the event-loop fast path for hot tiles). The open
/// connections gauge, which follows closes as they go through, is in
/// ``TimingTests/ConnectionTimingTests``.
struct MetricsTests {
    let f = ServerFixtures.shared

    /// Sample values by series (`name{labels}`) from a Prometheus text exposition.
    static func samples(_ text: String) -> [String: Double] {
        var out: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let v = Double(line[line.index(after: space)...]) else { continue }
            out[String(line[..<space])] = v
        }
        return out
    }

    /// Requests by route and status, cache hits and misses, body bytes and render times, as
    /// counted while the requests were answered by both paths.
    @Test func countersFollowTheRequestsMade() async throws {
        let metrics = ServerMetrics()
        try await LiveServer.run(f.service(metrics: metrics)) { server in
            let port = server.port
            let missing = ServerFixtures.missing
            let cold = try await RawHTTP.fetch(port: port, "/blue/0/0/0.png")  // Hummingbird: read, a miss
            let tag = try #require(cold.headers["etag"])
            var bodies = cold.body.count
            for (target, method, headers, status, http10): (String, String, [String: String], Int, Bool) in [
                ("/blue/0/0/0.png", "GET", [:], 200, true),  // fast path: hits
                ("/blue/0/0/0.png", "HEAD", [:], 200, true),
                ("/blue/0/0/0.png", "GET", ["If-None-Match": tag], 304, true),
                ("/schagen/\(missing.z)/\(missing.x)/\(missing.y).png", "GET", [:], 404, false),  // read: a miss
                ("/blue/9/0/0.png", "GET", [:], 404, true),  // outside the zooms: no read, fast path
                ("/blue.json", "GET", [:], 200, false), ("/health", "GET", [:], 200, false),
                ("/blue/0/0/0.png", "POST", [:], 405, false), ("/blue/1/2/0.png", "GET", [:], 400, false),
            ] {
                let r = try await RawHTTP.fetch(port: port, target, method: method, headers: headers, http10: http10)
                #expect(r.status == status, "\(method) \(target)")
                bodies += r.body.count
            }
            let scrape = try await RawHTTP.fetch(port: port, "/metrics")
            #expect(scrape.status == 200 && scrape.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
            let s = Self.samples(String(decoding: scrape.body, as: UTF8.self))
            func requests(_ route: String, _ status: Int) -> Double? { s["tegula_http_requests_total{route=\"\(route)\",status=\"\(status)\"}"] }
            #expect(requests("tile", 200) == 3)
            #expect(requests("tile", 304) == 1)
            #expect(requests("tile", 404) == 2)
            #expect(requests("tile", 405) == 1)
            #expect(requests("tilejson", 200) == 1)
            #expect(requests("health", 200) == 1)
            #expect(requests("other", 400) == 1)
            #expect(requests("metrics", 200) == 0)  // counted once answered: after this scrape
            #expect(s["tegula_tile_cache_hits_total"] == 3)  // GET, HEAD and the conditional GET
            #expect(s["tegula_tile_cache_misses_total"] == 2)  // the first GET and the missing tile
            #expect(s["tegula_http_response_body_bytes_total"] == Double(bodies))
            #expect(s["tegula_tile_render_seconds_count{source=\"tileset\"}"] == 2)
            #expect(s["tegula_tile_render_seconds_bucket{source=\"tileset\",le=\"+Inf\"}"] == 2)
            let again = Self.samples(String(decoding: try await RawHTTP.fetch(port: port, "/metrics").body, as: UTF8.self))
            #expect(again["tegula_http_requests_total{route=\"metrics\",status=\"200\"}"] == 1)
        }
    }

    /// One GET on the kept-alive connection `fd` (no `Connection` header), read until its whole
    /// answer is in; the connection stays open.
    static func keptAliveGet(_ fd: Int32, _ target: String) async throws -> RawHTTP.Response {
        try await RawHTTP.offPool {
            RawHTTP.setReadTimeout(fd, seconds: Double(RawHTTP.readTimeout))
            guard RawHTTP.send(fd, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") else { throw RawHTTP.Failure("short send") }
            var pending: [UInt8] = []
            var buf = [UInt8](repeating: 0, count: 65536)
            while true {
                if let whole = try? RawHTTP.responses(pending, heads: [false]), whole.count == 1 { return whole[0] }
                let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { throw RawHTTP.Failure("GET \(target): closed or timed out after \(pending.count) bytes") }
                pending += buf[0..<n]
            }
        }
    }

    /// The fast path counts what it answers: a hot tile answered from memory is one request and
    /// one cache hit, and a request it passes on is counted only once answered.
    @Test func fastPathAnswersAreCounted() {
        let metrics = ServerMetrics()
        let s = f.service(metrics: metrics)
        let tile = ServerRequest(target: "/blue/1/1/1.png")
        #expect(s.respondFromMemory(tile) == nil)  // not in memory: passed on, not counted
        #expect(s.respond(tile).status == 200)
        #expect(s.respondFromMemory(tile)?.status == 200)
        let samples = Self.samples(String(decoding: metrics.exposition(), as: UTF8.self))
        #expect(samples["tegula_http_requests_total{route=\"tile\",status=\"200\"}"] == 2)
        #expect(samples["tegula_tile_cache_hits_total"] == 1 && samples["tegula_tile_cache_misses_total"] == 1)
        #expect(samples["tegula_http_response_body_bytes_total"] == Double(2 * ServerFixtures.bytes("blue", Tile(x: 1, y: 1, z: 1)).count))
    }

    /// Without `--metrics` (no `ServerMetrics`), `/metrics` is an unknown route, as before.
    @Test func metricsRouteIs404WhenOff() {
        let r = f.service().get("/metrics")
        #expect(r.status == 404 && r.header("Content-Type") == "text/plain; charset=utf-8")
        let on = f.service(metrics: ServerMetrics()).get("/metrics")
        #expect(on.status == 200 && String(decoding: on.body, as: UTF8.self).contains("# TYPE tegula_http_requests_total counter"))
        #expect(f.service().get("/metrics", method: "HEAD").status == 404)
    }
}
