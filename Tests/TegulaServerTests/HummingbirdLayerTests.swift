import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TegulaBundle
import TegulaGeometry
@testable import TegulaHTTP
@testable import TegulaServer
import TegulaTestSupport
import Testing

/// The Hummingbird layer passes the pure function's answers through unchanged: once without
/// sockets (`.router`) and once end to end on loopback (`.live`) over a folder, an MBTiles and
/// a PMTiles.
struct HummingbirdLayerTests {
    let f = ServerFixtures.shared

    func app(_ config: ServerConfiguration = ServerFixtures.configuration) -> some ApplicationProtocol {
        HTTPServer.application(service: f.service(config), host: "127.0.0.1", port: 0)
    }

    @Test func routerLevelPassThrough() async throws {
        try await app(ServerConfiguration(missingTile: .noContent)).test(.router) { client in
            let r = try await client.execute(uri: "/blue/1/1/1.png", method: .get)
            #expect(r.status == .ok)
            #expect(r.headers[.contentType] == "image/png" && r.headers[.eTag] != nil)
            #expect(Array(buffer: r.body) == ServerFixtures.bytes("blue", Tile(x: 1, y: 1, z: 1)))
            let tag = r.headers[.eTag]!
            let nm = try await client.execute(uri: "/blue/1/1/1.png", method: .get, headers: [.ifNoneMatch: tag])
            #expect(nm.status == .notModified)
            let post = try await client.execute(uri: "/blue/1/1/1.png", method: .post)
            #expect(post.status == .methodNotAllowed && post.headers[.allow] == "GET, HEAD")
            let t = ServerFixtures.missing
            let gap = try await client.execute(uri: "/schagen/\(t.z)/\(t.x)/\(t.y).png", method: .get)
            #expect(gap.status == .noContent && gap.body.readableBytes == 0)
            let bad = try await client.execute(uri: "/blue/1/2/0.png", method: .get)
            #expect(bad.status == .badRequest)
            let trav = try await client.execute(uri: "/%2e%2e/%2e%2e/etc/passwd", method: .get)
            #expect(trav.status == .badRequest)
        }
    }

    @Test func liveLoopbackServesFolderMBTilesAndPMTiles() async throws {
        try await app().testLive { client in
            for (path, name, tile) in [("/blue/2/2/1.png", "blue", Tile(x: 2, y: 1, z: 2)),
                                       ("/schagen/3/4/2.png", "schagen", Tile(x: 4, y: 2, z: 3)),
                                       ("/retina/1/0/1@2x.png", "retina", Tile(x: 0, y: 1, z: 1))] {
                let r = try await client.execute(uri: path, method: .get)
                #expect(r.status == .ok, "\(path)")
                #expect(Array(buffer: r.body) == ServerFixtures.bytes(name, tile), "\(path)")
                #expect(r.headers[.accessControlAllowOrigin] == "*")
            }
            let head = try await client.execute(uri: "/blue/0/0/0.png", method: .head)
            #expect(head.status == .ok && head.body.readableBytes == 0)
            #expect(head.headers[.contentLength] == String(ServerFixtures.bytes("blue", Tile(x: 0, y: 0, z: 0)).count))
            let j = try await client.execute(uri: "/schagen.json", method: .get)
            let json = try JSONValue.parse(Array(buffer: j.body))
            // Absolute URLs from the Host header (HTTP/1.1 hands it over as :authority).
            let template = json["tiles"]?.arrayValue?.first?.stringValue ?? ""
            #expect(template.hasPrefix("http://") && template.hasSuffix("/schagen/{z}/{x}/{y}.png"), "\(template)")
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.status == .ok)
        }
    }
    /// A client that sends half a request and stalls must not hold up anyone else.
    @Test func stalledClientsDoNotBlockOthers() async throws {
        try await app().testLive { client in
            let port = try #require(client.port)
            var stalled: [Int32] = []
            defer { for fd in stalled { close(fd) } }
            for _ in 0..<8 {
                let fd = try RawHTTP.connect(port: port)
                let partial = "GET /blue/0/0/0.png HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
                _ = partial.withCString { send(fd, $0, strlen($0), 0) }
                stalled.append(fd)
            }
            for path in ["/blue/1/0/0.png", "/health", "/schagen.json"] {
                let r = try await client.execute(uri: path, method: .get)
                #expect(r.status == .ok, "\(path)")
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
        let app = HTTPServer.application(service: ServerFixtures.shared.service(), host: "127.0.0.1", port: 0) { channel in
            let v = try? await channel.getOption(ChannelOptions.maxMessagesPerRead)
            seen.lock.withLock { seen.value = v }
        }
        try await app.testLive { client in
            let r = try await client.execute(uri: "/health", method: .get)
            #expect(r.status == .ok)
        }
        #expect(seen.lock.withLock { seen.value } == HTTPServer.acceptsPerWakeup)
        #expect(HTTPServer.acceptsPerWakeup >= 1024)
    }
}
