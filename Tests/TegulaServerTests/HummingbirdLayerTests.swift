import Foundation
import NIOCore
import TegulaGeometry
import TegulaTestSupport
import TegulaTileset
import Testing

@testable import TegulaHTTP
@testable import TegulaServer

/// The Hummingbird layer passes the pure function's answers through unchanged, end to end on
/// loopback (`LiveServer`: Tegula's Hummingbird application, raw sockets) over a folder, an
/// MBTiles and a PMTiles.
struct HummingbirdLayerTests {
    let f = ServerFixtures.shared

    /// Status, headers and bodies of tiles, a conditional GET, a refused method, a gap, a bad
    /// tile and a traversal, all through Hummingbird's responder (each request carries a
    /// `Connection` header, which the fast path passes on). (Once HummingbirdTesting's in-process
    /// `.router` mode, without sockets; now over loopback.)
    @Test func passThroughOfTilesConditionalsAndRefusals() async throws {
        let service = f.service(tiles: TileServerConfiguration(missingTile: .noContent))
        try await LiveServer.run(service) { server in
            let r = try await server.fetch("/blue/1/1/1.png")
            #expect(r.status == 200)
            #expect(r.headers["content-type"] == "image/png" && r.headers["etag"] != nil)
            #expect(r.body == ServerFixtures.bytes("blue", Tile(x: 1, y: 1, z: 1)))
            let tag = try #require(r.headers["etag"])
            let nm = try await server.fetch("/blue/1/1/1.png", headers: ["If-None-Match": tag])
            #expect(nm.status == 304)
            let post = try await server.fetch("/blue/1/1/1.png", method: "POST")
            #expect(post.status == 405 && post.headers["allow"] == "GET, HEAD")
            let t = ServerFixtures.missing
            let gap = try await server.fetch("/schagen/\(t.z)/\(t.x)/\(t.y).png")
            #expect(gap.status == 204 && gap.body.isEmpty)
            let bad = try await server.fetch("/blue/1/2/0.png")
            #expect(bad.status == 400)
            let trav = try await server.fetch("/%2e%2e/%2e%2e/etc/passwd")
            #expect(trav.status == 400)
            #expect(service.fastPathAnswers.count == 0)
        }
    }

    @Test func liveLoopbackServesFolderMBTilesAndPMTiles() async throws {
        try await LiveServer.run(f.service()) { server in
            for (path, name, tile) in [
                ("/blue/2/2/1.png", "blue", Tile(x: 2, y: 1, z: 2)),
                ("/schagen/3/4/2.png", "schagen", Tile(x: 4, y: 2, z: 3)),
                ("/retina/1/0/1@2x.png", "retina", Tile(x: 0, y: 1, z: 1)),
            ] {
                let r = try await server.fetch(path)
                #expect(r.status == 200, "\(path)")
                #expect(r.body == ServerFixtures.bytes(name, tile), "\(path)")
                #expect(r.headers["access-control-allow-origin"] == "*")
            }
            let head = try await server.fetch("/blue/0/0/0.png", method: "HEAD")
            #expect(head.status == 200 && head.body.isEmpty)
            #expect(head.headers["content-length"] == String(ServerFixtures.bytes("blue", Tile(x: 0, y: 0, z: 0)).count))
            let j = try await server.fetch("/schagen.json")
            let json = try JSONValue.parse(j.body)
            // Absolute URLs from the Host header (HTTP/1.1 hands it over as :authority).
            let template = json["tiles"]?.arrayValue?.first?.stringValue ?? ""
            #expect(template.hasPrefix("http://") && template.hasSuffix("/schagen/{z}/{x}/{y}.png"), "\(template)")
            let health = try await server.fetch("/health")
            #expect(health.status == 200)
        }
    }
    /// A client that sends half a request and stalls must not hold up anyone else.
    @Test func stalledClientsDoNotBlockOthers() async throws {
        try await LiveServer.run(f.service()) { server in
            let port = server.port
            var stalled: [Int32] = []
            defer { for fd in stalled { close(fd) } }
            for _ in 0..<8 {
                let fd = try RawHTTP.connect(port: port)
                let partial = "GET /blue/0/0/0.png HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
                _ = partial.withCString { send(fd, $0, strlen($0), 0) }
                stalled.append(fd)
            }
            for path in ["/blue/1/0/0.png", "/health", "/schagen.json"] {
                let r = try await server.fetch(path)
                #expect(r.status == 200, "\(path)")
            }
        }
    }
}

/// The listening socket accepts many connections per wake-up (`HTTPServer.acceptsPerWakeup`):
/// with NIO's default of 4, 2,000 clients connecting at once were taken in a few per
/// event-loop turn and most first requests waited seconds in the kernel's queue
/// (RELIABILITY.md, fairness). The live figure is `scripts/serve-fairness`'s; this checks the
/// option reaches the socket Hummingbird binds, and that a caller's own hook still runs.
struct AcceptRateTests {
    final class Seen: @unchecked Sendable {
        let lock = NSLock()
        var value: UInt?
    }

    @Test func theListeningSocketAcceptsManyPerWakeup() async throws {
        let seen = Seen()
        try await LiveServer.run(
            ServerFixtures.shared.service(),
            onServerRunning: { channel in
                let v = try? await channel.getOption(ChannelOptions.maxMessagesPerRead)
                seen.lock.withLock { seen.value = v }
            }
        ) { server in
            let r = try await server.fetch("/health")
            #expect(r.status == 200)
        }
        #expect(seen.lock.withLock { seen.value } == HTTPServer.acceptsPerWakeup)
        #expect(HTTPServer.acceptsPerWakeup >= 1024)
    }
}
