import Foundation
import Logging
import TegulaGeometry
import TegulaTestSupport
import Testing

@testable import TegulaHTTP
@testable import TegulaServer
@testable import TegulaTileset

/// The request log: one line per request at debug level from both paths, nothing per request
/// above it, and errors at any level.
struct LoggingTests {
    let f = ServerFixtures.shared

    @Test func debugLogsOneLinePerRequestOnBothPaths() async throws {
        let capture = ServerFixtures.CapturedLog(level: .debug)
        try await LiveServer.run(f.service(logger: capture.logger)) { server in
            let port = server.port
            var expected: [String] = []
            for (i, target) in ["/blue/1/0/0.png", "/blue/1/0/0.png", "/blue.json", "/blue/1/5/0.png", "/nope/0/0/0.png"].enumerated() {
                // The second is answered from memory by the fast path (HTTP/1.0, no Connection header).
                let r = try await RawHTTP.fetch(port: port, target, http10: i == 1)
                expected.append("GET \(target) \(r.status) \(r.body.count)")
            }
            let requests = capture.lines.filter { $0.message.hasPrefix("GET ") }
            #expect(requests.map(\.message) == expected)
            #expect(requests.allSatisfy { $0.level == .debug })
            #expect(expected.map { $0.split(separator: " ")[2] } == ["200", "200", "200", "400", "404"])
        }
    }

    /// At info level no request is logged, but a tile that cannot be read is, at error level,
    /// naming the tileset and the tile.
    @Test func infoLogsErrorsButNoRequests() throws {
        let dir = NSTemporaryDirectory() + "tegula-log-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/broken.mbtiles"
        let w = try Tileset.openWriter(at: path)
        for t in ServerFixtures.pyramid(0...1) { try w.write(t, data: ServerFixtures.bytes("broken", t)) }
        try w.finish(metadata: TilesetMetadata(name: "Broken", zooms: ZoomRange(min: 0, max: 1)!))
        let capture = ServerFixtures.CapturedLog(level: .info)
        let service = TileService(catalogue: try Catalogue.load(paths: [path]), logger: capture.logger)
        #expect(service.get("/broken/1/0/0.png").status == 200)
        // The tiles table goes away under the open reader: the next read fails.
        try SQLiteDatabase(path: path).exec("ALTER TABLE tiles RENAME TO gone")
        let failed = service.get("/broken/1/1/1.png")
        #expect(failed.status == 500)
        #expect(!capture.lines.contains { $0.message.hasPrefix("GET ") })
        let errors = capture.lines.filter { $0.level == .error }
        #expect(
            errors.count == 1 && errors.first.map { $0.message.contains("'broken'") && $0.message.contains("1 1 1") } == true,
            "\(errors.map(\.message))")
    }
}
