import Foundation
import Hummingbird
import TegulaGeometry
import TegulaTestSupport
import Testing

@testable import TegulaHTTP
@testable import TegulaServer

/// Hot tiles are answered by `TileFastPath` on the event loop, everything else by Hummingbird:
/// the two must give the same answers, keep pipelined responses in order and close on request.
struct FastPathTests {
    let f = ServerFixtures.shared

    @Test func fromMemoryOnlyWhatNeedsNoRead() {
        let s = f.service()
        func req(_ t: String, _ m: String = "GET", _ h: [String: String] = [:]) -> ServerRequest {
            ServerRequest(m, t, h)
        }
        #expect(s.respondFromMemory(req("/blue/2/1/3.png")) == nil)  // not read yet
        let first = s.respond(req("/blue/2/1/3.png"))
        #expect(first.status == 200)
        let tag = first.header("ETag")!
        for r in [
            req("/blue/2/1/3.png"), req("/blue/2/1/3.png", "HEAD"), req("/blue/2/1/3.png", "GET", ["If-None-Match": tag]),
            req("/blue/tms/2/1/0.png"), req("/nope/0/0/0.png"), req("/blue/9/0/0.png"), req("/blue/0/0/0.jpg"),
        ] {
            let hot = s.respondFromMemory(r)
            #expect(hot == s.respond(r), "\(r.method) \(r.target)")
        }
        // Never for other routes, other methods or a tile not in memory.
        for r in [
            req("/"), req("/blue.json"), req("/health"), req("/blue/2/1/3.png", "POST"), req("/blue/0/0/0.png"),
            req("/%2e%2e/etc/passwd"),
        ] {
            #expect(s.respondFromMemory(r) == nil, "\(r.method) \(r.target)")
        }
    }

    /// The second request of each is answered from memory on the event loop; status, headers
    /// (but Date) and body equal the first, answered through Hummingbird's responder. Sent raw
    /// (HTTP/1.0, no Connection header): `LiveServer.fetch` sends `Connection: close`, which
    /// the fast path always passes on, so through it the fast path would never answer at all.
    @Test func hotAnswersEqualColdOnesOverTheWire() async throws {
        let service = f.service()
        try await LiveServer.run(service) { server in
            let port = server.port
            let missing = ServerFixtures.missing
            let cases: [(String, String)] = [
                ("/blue/2/2/1.png", "GET"), ("/blue/1/1/0.png", "HEAD"), ("/schagen/3/4/2.png", "GET"),
                ("/retina/1/0/1@2x.png", "GET"), ("/blue/tms/1/0/0.png", "GET"),
                ("/schagen/\(missing.z)/\(missing.x)/\(missing.y).png", "GET"),
            ]
            for (uri, method) in cases {
                let before = service.fastPathAnswers.count
                let cold = try await RawHTTP.fetch(port: port, uri, method: method, http10: true)
                let between = service.fastPathAnswers.count
                let hot = try await RawHTTP.fetch(port: port, uri, method: method, http10: true)
                // Proof of which path answered: the cold one through Hummingbird, the hot one on
                // the event loop (a missing tile is never in memory: both through Hummingbird).
                let isMissing = uri.hasPrefix("/schagen/\(missing.z)/")
                #expect(between == before, "\(uri): the cold request was answered by the fast path")
                #expect(service.fastPathAnswers.count == between + (isMissing ? 0 : 1), "\(uri): the hot request was not")
                #expect(cold.status == hot.status, "\(uri)")
                #expect(cold.headers.filter { $0.key != "date" } == hot.headers.filter { $0.key != "date" }, "\(uri)")
                #expect(cold.body == hot.body, "\(uri)")
                #expect(hot.headers["date"] != nil && hot.headers["server"] == "tegula", "\(uri)")
            }
            let tag = try #require(try await server.fetch("/blue/2/2/1.png").headers["etag"])
            let before = service.fastPathAnswers.count
            let nm = try await RawHTTP.fetch(port: port, "/blue/2/2/1.png", headers: ["If-None-Match": tag], http10: true)
            #expect(service.fastPathAnswers.count == before + 1)
            #expect(nm.status == 304 && nm.body.isEmpty && nm.headers["content-length"] == nil)
        }
    }

    /// Requests written in one go on one connection, mixing ones for the fast path (hot tiles,
    /// HEAD included) and for Hummingbird (TileJSON, health, `Connection: close`): the answers
    /// come back in request order with the right bodies, and the connection closes after the last.
    @Test func pipelinedMixOfHotAndOtherRequestsStaysInOrder() async throws {
        let service = f.service()
        try await LiveServer.run(service) { server in
            _ = try await server.fetch("/blue/0/0/0.png")  // now hot
            _ = try await server.fetch("/blue/1/0/1.png")
            let port = server.port
            let requests: [(String, String, String)] = [
                ("GET", "/blue/0/0/0.png", ""), ("HEAD", "/blue/0/0/0.png", ""), ("GET", "/schagen.json", ""),
                ("GET", "/blue/1/0/1.png", ""), ("GET", "/health", ""), ("HEAD", "/blue/1/0/1.png", ""),
                ("GET", "/blue/0/0/0.png", "Connection: close\r\n"),
            ]
            let text = requests.map { "\($0.0) \($0.1) HTTP/1.1\r\nHost: 127.0.0.1\r\n\($0.2)\r\n" }.joined()
            let before = service.fastPathAnswers.count
            let raw = try await RawHTTP.exchange(port: port, send: Array(text.utf8))
            // The first two (hot, before anything was passed on) are answered on the event loop;
            // the other two hot ones without a Connection header may be, depending on whether the
            // TileJSON and health answers ahead of them had ended; the rest never.
            #expect((2...4).contains(service.fastPathAnswers.count - before), "\(service.fastPathAnswers.count - before)")
            let responses = try RawHTTP.responses(raw, heads: requests.map { $0.0 == "HEAD" })
            #expect(responses.count == requests.count)
            let blue0 = ServerFixtures.bytes("blue", Tile(x: 0, y: 0, z: 0)), blue1 = ServerFixtures.bytes("blue", Tile(x: 0, y: 1, z: 1))
            let expected: [[UInt8]?] = [blue0, [], nil, blue1, nil, [], blue0]
            for (i, r) in responses.enumerated() where i < requests.count {
                #expect(r.status == 200, "\(requests[i])")
                if let body = expected[i] { #expect(r.body == body, "\(requests[i])") }
            }
            #expect(responses.count > 2 && String(decoding: responses[2].body, as: UTF8.self).contains("\"tilejson\""))
            #expect(responses.count > 4 && String(decoding: responses[4].body, as: UTF8.self).contains("\"ok\""))
        }
    }

    /// HTTP/1.0 without keep-alive: the connection closes after the answer (Hummingbird alone
    /// leaves it open), cold or hot, and both answers are the same.
    @Test func http10ClosesAfterTheAnswer() async throws {
        let service = f.service()
        try await LiveServer.run(service) { server in
            let port = server.port
            var answers: [RawHTTP.Response] = []
            for (target, fast) in [("/blue/2/3/2.png", 0), ("/blue/2/3/2.png", 1), ("/health", 0)] {  // cold, hot, not a tile
                let before = service.fastPathAnswers.count
                defer { #expect(service.fastPathAnswers.count - before == fast, "\(target): fast path answers") }
                let raw = try await RawHTTP.exchange(port: port, send: Array("GET \(target) HTTP/1.0\r\n\r\n".utf8))
                let responses = try RawHTTP.responses(raw, heads: [false])
                #expect(responses.count == 1 && responses.first?.status == 200, "\(target)")
                answers += responses
            }
            #expect(answers.count == 3 && answers[0].body == ServerFixtures.bytes("blue", Tile(x: 3, y: 2, z: 2)))
            #expect(answers.count == 3 && answers[0].body == answers[1].body)
            #expect(answers.count == 3 && answers[0].headers.filter { $0.key != "date" } == answers[1].headers.filter { $0.key != "date" })
        }
    }

    static func fields(_ h: HTTPFields) -> [String] {
        h.filter { $0.name != .date }.map { "\($0.name.canonicalName): \($0.value)" }
    }
}
