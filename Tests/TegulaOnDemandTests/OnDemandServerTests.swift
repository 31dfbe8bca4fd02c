import Foundation
import Hummingbird
import TegulaGDAL
import TegulaGeometry
import TegulaHTTP
import TegulaPyramid
import TegulaServer
import TegulaSupport
import TegulaTestSupport
import TegulaTileset
import Testing

@testable import TegulaOnDemand

/// A scan and its GCP file served on demand by the real server on loopback: the same bytes as
/// `tegula tile`, versioned ETags that follow edits, shared renders, cancellation, 404 outside.
/// The watcher's timing, a client that leaves while its render waits and the queue's order, whose
/// outcome depends on timing, are in ``TimingTests/RenderTimingTests``.
@Suite(.serialized)
struct OnDemandServerTests {
    /// Runs `body` against a live server for `service`; returns what it returns.
    static func live<T: Sendable>(_ service: TileService, _ body: @escaping @Sendable (Int) async throws -> T) async throws -> T {
        let port = Locked(0)
        let ready = AsyncStream<Void>.makeStream()
        let app = HTTPServer.application(service: service, host: "127.0.0.1", port: 0) { channel in
            port.withLock { $0 = channel.localAddress?.port ?? 0 }
            ready.continuation.yield()
        }
        let task = Task { try await app.run() }
        defer { task.cancel() }
        for await _ in ready.stream { break }
        return try await body(port.withLock { $0 })
    }

    /// Every zoom: the max zoom's tiles warped with their pyramid block's grid, the lower zooms
    /// encoded from the pyramid's own lower zooms, held (``HeldLevels``; a tile asked for before
    /// they are built waits for them).
    @Test func tilesAtEveryZoomOverHTTPAreTheBytesTegulaTileWrites() async throws {
        let f = try OnDemandFixtures()
        let (source, service) = try f.service(f.inputs())
        let renderer = source.renderer
        // The pyramid `tegula tile scan.tif --gcps scan.csv` cuts, for the same job.
        let folder = f.dir + "/tiles"
        var job = renderer.job
        job.output = folder
        _ = try job.run()
        let cut = try Tileset.openReader(at: folder)
        let plan = renderer.plan
        #expect(renderer.levels != nil)
        let tiles = plan.zooms.levels.flatMap { z in plan.range(z).x.flatMap { x in plan.range(z).y.map { Tile(x: x, y: $0, z: z) } } }
        let result = try await Self.live(service) { port in
            var same = 0, empty = 0
            for t in tiles {
                let r = try await RawHTTP.fetch(port: port, "/scan/\(t.z)/\(t.x)/\(t.y).png")
                if let bytes = try cut.tile(t) {
                    #expect(r.status == 200 && r.body == bytes, "tile \(t): \(r.status)")
                    if r.body == bytes { same += 1 }
                } else {
                    #expect(r.status == 404, "tile \(t) is empty in the pyramid but answered \(r.status)")
                    empty += 1
                }
            }
            let tj = try await RawHTTP.fetch(port: port, "/scan.json")
            return (same, empty, tj)
        }
        print(
            "on demand over HTTP: \(result.0) tiles of zooms \(plan.zooms.min)–\(plan.zooms.max) byte-identical to tegula tile, \(result.1) empty positions 404"
        )
        let written = try tiles.filter { try cut.tile($0) != nil }.count
        #expect(result.0 == written && result.0 > 10)
        // TileJSON: the zooms, bounds and centre tegula tile stores, and versioned tile URLs.
        let tj = try JSONValue.parse(result.2.body)
        #expect(tj["minzoom"]?.intValue == cut.metadata.zooms.min && tj["maxzoom"]?.intValue == cut.metadata.zooms.max)
        #expect(tj["bounds"] == JSONValue.object(cut.metadata.jsonObject)["bounds"])
        #expect(tj["center"] == JSONValue.object(cut.metadata.jsonObject)["center"])
        let url = try require(tj["tiles"]?.arrayValue?.first?.stringValue)
        #expect(url.hasSuffix("/scan/{z}/{x}/{y}.png?v=\(source.version)"), "\(url)")
    }

    /// `/metrics` counts a tile rendered on demand as a miss with its render time
    /// (`source="render"`), and the same tile again, from memory, as a hit.
    @Test func renderedTilesAreCountedWithTheirRenderTime() async throws {
        let f = try OnDemandFixtures()
        let metrics = ServerMetrics()
        let (source, service) = try f.service(f.inputs(), metrics: metrics)
        let plan = source.renderer.plan
        let z = plan.zooms.max
        // The first max-zoom tile with pixels, through the server's render path (the render
        // queue, which keeps what it made); tiles before it are empty (rendered: misses) or
        // outside the footprint (refused unrendered).
        var inside: Tile?
        search: for x in plan.range(z).x {
            for y in plan.range(z).y {
                let r = await service.respond(ServerRequest(method: .head, target: "/scan/\(z)/\(x)/\(y).png"), isCancelled: { false })
                if r.status == 200 { inside = Tile(x: x, y: y, z: z); break search }
            }
        }
        let t = try require(inside)
        let again = await service.respond(ServerRequest(target: "/scan/\(t.z)/\(t.x)/\(t.y).png"), isCancelled: { false })
        #expect(again.status == 200 && again.header("Server-Timing")?.contains("in memory") == true)
        var samples: [String: Double] = [:]
        for line in String(decoding: metrics.exposition(), as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let v = Double(parts[1]) { samples[String(parts[0])] = v }
        }
        #expect(samples["tegula_tile_render_seconds_count{source=\"render\"}"] == 1)
        #expect((samples["tegula_tile_render_seconds_sum{source=\"render\"}"] ?? 0) > 0)
        #expect(samples["tegula_tile_render_seconds_count{source=\"tileset\"}"] == 0)
        #expect(samples["tegula_tile_cache_hits_total"] == 1)
        #expect((samples["tegula_tile_cache_misses_total"] ?? 0) >= 1)
        #expect(samples["tegula_http_requests_total{route=\"tile\",status=\"200\"}"] == 2)
    }

    @Test func anEditedGCPFileChangesTheETagAndTheTileAndABrokenOneKeepsTheLastFit() async throws {
        let f = try OnDemandFixtures()
        let (source, service) = try f.service(f.inputs())
        let z = source.renderer.plan.zooms.max
        let t = TileGrid.tile(containing: Coordinate(longitude: 6, latitude: 52.5), zoom: z)
        let path = "/scan/\(t.z)/\(t.x)/\(t.y).png"
        try await Self.live(service) { port in
            let before = try await RawHTTP.fetch(port: port, path)
            #expect(before.status == 200)
            let tag = try require(before.headers["etag"])
            #expect(try await RawHTTP.fetch(port: port, path, headers: ["If-None-Match": tag]).status == 304)
            // Move a GCP by 0.3°: a new fit, a new version, a new tile.
            try Poll.untilTheFileClockPasses(f.gcps)
            try OnDemandFixtures.writeGCPs(f.gcps, shift: 0.3)
            #expect(source.refresh())
            let after = try await RawHTTP.fetch(port: port, path)
            #expect(after.status == 200)
            #expect(after.headers["etag"] != tag)
            #expect(after.body != before.body)
            #expect(try await RawHTTP.fetch(port: port, path, headers: ["If-None-Match": tag]).status == 200)
            let json = try await RawHTTP.fetch(port: port, "/scan.json")
            #expect(String(decoding: json.body, as: UTF8.self).contains("?v=\(source.version)"))
            // A broken edit: the last good fit stays, one line names the file and the problem.
            let good = source.version
            try "x,y,lon,lat\n1,2,oops,4\n".write(toFile: f.gcps, atomically: false, encoding: .utf8)
            #expect(!source.refresh())
            #expect(!source.refresh())
            #expect(source.version == good)
            let still = try await RawHTTP.fetch(port: port, path)
            #expect(still.status == 200 && still.headers["etag"] == after.headers["etag"] && still.body == after.body)
            let complaints = f.log.all.filter { $0.contains("cannot be used") }
            #expect(complaints.count == 1, "\(f.log.all)")
            #expect(complaints.first?.contains(f.gcps) == true)
        }
    }

    /// A live server with one render thread, held by a blocking render while `body` runs:
    /// `body` gets the port, a max-zoom tile of the scan, the inputs, and `release`, which lets
    /// the blocker finish and waits for it.
    static func withHeldRenderThread(
        _ body:
            @escaping @Sendable (
                _ port: Int, _ t: Tile, _ inputs: OnDemandInputs,
                _ release: @escaping @Sendable () async -> Void
            ) async throws -> Void
    ) async throws {
        let f = try OnDemandFixtures()
        let inputs = f.inputs(workers: 1)
        let (source, service) = try f.service(inputs)
        let t = TileGrid.tile(containing: Coordinate(longitude: 14, latitude: 47), zoom: source.renderer.plan.zooms.max)
        try await live(service) { port in
            let gate = Gate()
            let blocker = Task {
                await inputs.queue.submit(TileMemo.Key(source: "blocker", version: "", tile: t), isCancelled: { false }) {
                    gate.wait()
                    return .outside
                }
            }
            try await Poll.until("the blocker to hold the render thread") { inputs.queue.done.rendered >= 1 }
            try await body(port, t, inputs) {
                gate.open()
                _ = await blocker.value
            }
        }
    }

    @Test func concurrentRequestsForOneTileShareOneRender() async throws {
        // The only render thread is held so the requests queue up behind it.
        try await Self.withHeldRenderThread { port, t, inputs, release in
            let before = inputs.queue.done
            let answers = Locked([RawHTTP.Response]())
            let threads = (0..<8).map { _ in
                Thread { if let r = try? RawHTTP.get(port: port, "/scan/\(t.z)/\(t.x)/\(t.y).png") { answers.withLock { $0.append(r) } } }
            }
            threads.forEach { $0.start() }
            try await Poll.until("7 requests to wait for the first one's render (\(inputs.queue.done))", within: 10) {
                inputs.queue.done.shared - before.shared >= 7
            }
            await release()
            try await Poll.until("8 answers (\(answers.withLock { $0.count }) came)", within: 10) { answers.withLock { $0.count } >= 8 }
            let after = inputs.queue.done
            let got = answers.withLock { $0 }
            #expect(got.count == 8 && got.allSatisfy { $0.status == 200 && $0.body == got[0].body })
            #expect(after.rendered - before.rendered == 1, "\(before) → \(after)")
            #expect(after.shared - before.shared == 7, "\(before) → \(after)")
            // A Server-Timing header gives the render time.
            #expect(got.allSatisfy { $0.headers["server-timing"]?.hasPrefix("render;dur=") == true })
        }
    }

    @Test func tilesOutsideTheFootprintAre404WithoutARender() async throws {
        let f = try OnDemandFixtures()
        let inputs = f.inputs()
        let (source, service) = try f.service(inputs)
        let z = source.renderer.plan.zooms.max
        let far = TileGrid.tile(containing: Coordinate(longitude: -150, latitude: 0), zoom: z)
        try await Self.live(service) { port in
            let r = try await RawHTTP.fetch(port: port, "/scan/\(far.z)/\(far.x)/\(far.y).png")
            #expect(r.status == 404)
            #expect(String(decoding: r.body, as: UTF8.self).contains("outside the footprint"))
            #expect(try await RawHTTP.fetch(port: port, "/scan/\(z + 1)/0/0.png").status == 404)
            #expect(try await RawHTTP.fetch(port: port, "/scan/3/1/1.jpg").status == 404)
            #expect(try await RawHTTP.fetch(port: port, "/scan/99/0/0.png").status == 400)
            #expect(inputs.queue.done.rendered == 0)
        }
    }

    @Test func aScanThatBreaksAfterStartUpGives500NotACrash() async throws {
        let f = try OnDemandFixtures()
        let (source, service) = try f.service(f.inputs())
        let z = source.renderer.plan.zooms.max
        let t = TileGrid.tile(containing: Coordinate(longitude: 14, latitude: 47), zoom: z)
        // Overwrite the scan with garbage before any tile is rendered (no worker has opened it).
        try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: f.scan))
        try await Self.live(service) { port in
            let r = try await RawHTTP.fetch(port: port, "/scan/\(t.z)/\(t.x)/\(t.y).png")
            #expect(r.status == 500)
            #expect(try await RawHTTP.fetch(port: port, "/health").status == 200)
        }
        #expect(f.log.all.filter { $0.contains("tile \(t)") }.count == 1, "\(f.log.all)")
    }

    @Test func aSourceThatCannotBeGeoreferencedIsRefused() throws {
        let f = try OnDemandFixtures()
        let inputs = f.inputs()
        let plain = f.dir + "/plain.png"
        do { _ = try TegulaGDAL.Dataset.create(path: f.dir + "/plain.tif", driver: "GTiff", width: 8, height: 8, bands: 3) }
        for (path, says) in [
            (f.dir + "/plain.tif", "no georeference"), (plain, "no such file"),
            (f.scan + ":" + f.dir + "/none.points", "no such GCP file"),
        ] {
            do {
                _ = try inputs.sources(for: path)
                Issue.record("\(path) was accepted")
            } catch {
                #expect("\(error)".contains(says), "\(error)")
                #expect(!"\(error)".contains("\n"))
            }
        }
    }
}

/// Waits without holding a thread of Swift's cooperative pool.
func pause(_ seconds: Double) async throws {
    try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
}

/// A one-shot gate a worker thread waits at.
final class Gate: @unchecked Sendable {
    private let c = NSCondition()
    private var isOpen = false
    func wait() { c.lock(); while !isOpen { c.wait() }; c.unlock() }
    func open() { c.lock(); isOpen = true; c.broadcast(); c.unlock() }
}
