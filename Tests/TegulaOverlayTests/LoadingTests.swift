import Foundation
import TegulaGeometry
import TegulaSupport
import TegulaTestSupport
import Testing

@testable import TegulaOverlay

/// Loading from a tiles folder and over HTTP on loopback; missing versus failed; the cache and
/// one shared load for duplicate in-flight requests.
@Suite(.timeLimit(.minutes(20)))
struct LoadingTests {
    static func folder() throws -> OverlayFixtures.ScratchFolder {
        let dir = try OverlayFixtures.ScratchFolder()
        try dir.write(Data("z0".utf8), to: "tiles/0/0/0.png")
        try dir.write(Data("z1-1-0".utf8), to: "tiles/1/1/0.png")
        return dir
    }

    @Test func loadsFromAFolderAndReportsMissingDistinctly() async throws {
        let dir = try Self.folder()
        let overlay = TileOverlay(urlTemplate: dir.url.path + "/tiles/{z}/{x}/{y}.png")
        try overlay.validate()
        #expect(try await overlay.fetchTile(at: TileOverlayPath(x: 1, y: 0, z: 1)) == Data("z1-1-0".utf8))
        let absent = TileOverlayPath(x: 0, y: 1, z: 1)
        do {
            _ = try await overlay.fetchTile(at: absent)
            Issue.record("an absent file must throw")
        } catch let error as TileOverlayError {
            #expect(error.isMissingTile)
        }
        // The missing answer is cached: asking again does not load again.
        #expect(overlay.loadsStarted == 2)
        await #expect(throws: TileOverlayError.self) { _ = try await overlay.fetchTile(at: absent) }
        #expect(overlay.loadsStarted == 2)
    }

    @Test func flippedFolderReadsTMSRows() async throws {
        let dir = try Self.folder()
        let overlay = TileOverlay(urlTemplate: "file://" + dir.url.path + "/tiles/{z}/{x}/{y}.png")
        try overlay.validate()
        overlay.isGeometryFlipped = true
        // XYZ tile 1/1/1 is TMS row 0, which is the file 1/1/0.png.
        let path = overlay.path(for: Tile(x: 1, y: 1, z: 1))
        #expect(try await overlay.fetchTile(at: path) == Data("z1-1-0".utf8))
    }

    @Test func outOfRangePathsAreRejectedWithoutLoading() async throws {
        let dir = try Self.folder()
        let overlay = TileOverlay(urlTemplate: dir.url.path + "/tiles/{z}/{x}/{y}.png")
        try overlay.validate()
        overlay.maximumZ = 0
        await #expect(throws: TileOverlayError.pathOutOfRange(path: TileOverlayPath(x: 1, y: 0, z: 1), minimumZ: 0, maximumZ: 0)) {
            _ = try await overlay.fetchTile(at: TileOverlayPath(x: 1, y: 0, z: 1))
        }
        await #expect(throws: TileOverlayError.self) { _ = try await overlay.fetchTile(at: TileOverlayPath(x: 1, y: 0, z: 0)) }
        #expect(overlay.loadsStarted == 0)
    }

    /// Counts loads and holds each one until `callers` tasks have asked for tiles, so they pile up
    /// behind it however slowly they are scheduled.
    final class SlowOverlay: TileOverlay, @unchecked Sendable {
        let loads = Locked(0)
        let asked = Locked(0)
        let callers: Int
        init(callers: Int) {
            self.callers = callers
            super.init(template: nil)
        }
        override func loadTile(at path: TileOverlayPath) async throws -> Data {
            loads.withLock { $0 += 1 }
            try await Poll.until("\(callers) tasks to ask for tiles (\(asked.current) asked)") { asked.current >= callers }
            return Data("\(path)".utf8)
        }
    }

    @Test func concurrentDuplicateLoadsShareOneFetch() async throws {
        let overlay = SlowOverlay(callers: 25)
        let path = TileOverlayPath(x: 3, y: 2, z: 2)
        let results = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<25 {
                group.addTask {
                    overlay.asked.withLock { $0 += 1 }
                    return try await overlay.fetchTile(at: path)
                }
            }
            return try await group.reduce(into: [Data]()) { $0.append($1) }
        }
        #expect(results.count == 25)
        #expect(Set(results) == [Data("\(path)".utf8)])
        #expect(overlay.loads.current == 1)
        #expect(overlay.loadsInFlight == 0)
        // A different path is a different load.
        _ = try await overlay.fetchTile(at: TileOverlayPath(x: 0, y: 0, z: 0))
        #expect(overlay.loads.current == 2)
    }

    @Test func loadsOverHTTPOnLoopback() async throws {
        let dir = try Self.folder()
        let server = try LocalHTTPServer.python(serving: dir.url)
        defer { server.stop() }
        let overlay = TileOverlay(urlTemplate: "http://127.0.0.1:\(server.port)/tiles/{z}/{x}/{y}.png")
        try overlay.validate()
        #expect(try await overlay.fetchTile(at: TileOverlayPath(x: 0, y: 0, z: 0)) == Data("z0".utf8))
        do {
            _ = try await overlay.fetchTile(at: TileOverlayPath(x: 0, y: 0, z: 1))
            Issue.record("a 404 must throw")
        } catch let error as TileOverlayError {
            #expect(error.isMissingTile, "404 is missing, not a failure: \(error)")
        }
    }

    @Test func refusedConnectionIsAFailureNotMissing() async throws {
        // A port nobody listens on: bind-and-release gives a free one.
        let port = try LocalHTTPServer.freePort()
        // A refused connection fails at once (never retried); the deadline only bounds a mistake.
        let overlay = TileOverlay(
            template: try TileURLTemplate("http://127.0.0.1:\(port)/{z}/{x}/{y}.png"),
            loader: TileURLLoader(timeout: .seconds(2)))
        do {
            _ = try await overlay.fetchTile(at: TileOverlayPath(x: 0, y: 0, z: 0))
            Issue.record("a refused connection must throw")
        } catch let error as TileOverlayError {
            #expect(error.reason == .loadFailed, "expected loadFailed, got \(error)")
        }
        #expect(overlay.cache.count == 0, "failures are not cached")
    }
}
