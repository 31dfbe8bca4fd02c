import Foundation
import TegulaGeometry
import TegulaSupport
import TegulaTestSupport
import TegulaTileset
import Testing

@testable import TegulaOnDemand

extension TimingTests {
    /// Renders on request whose outcome depends on timing: the source watcher noticing an edit,
    /// a client that hangs up while its render waits behind a held render thread, and the newest
    /// queued render going first. They run in ``TimingTests``, one at a time.
    @Suite struct RenderTimingTests {
        @Test func theWatcherNoticesAnEditWithinASecond() async throws {
            let f = try OnDemandFixtures()
            let (source, _) = try f.service(f.inputs())
            let watcher = SourceWatcher(sources: [source], interval: 0.1)
            let before = source.version
            try Poll.untilTheFileClockPasses(f.gcps)
            try OnDemandFixtures.writeGCPs(f.gcps, shift: 0.2)
            try await Poll.until("the watcher (every 0.1 s) to see the edited GCP file", within: 5) { source.version != before }
            withExtendedLifetime(watcher) {}
        }

        @Test func aRequestWhoseClientLeftIsDroppedUnrendered() async throws {
            try await OnDemandServerTests.withHeldRenderThread { port, t, inputs, release in
                // Ask for a tile, then hang up before it can be rendered.
                let fd = try RawHTTP.connect(port: port)
                RawHTTP.send(fd, "GET /scan/\(t.z)/\(t.x)/\(t.y).png HTTP/1.1\r\nHost: x\r\n\r\n")
                // Fixed pauses: the queue shows neither a request waiting nor a hang-up seen, so the
                // test gives the server time to queue the request, then to see the close.
                try await pause(0.2)
                close(fd)
                try await pause(0.2)
                await release()
                try await Poll.until("the request whose client left to be dropped (\(inputs.queue.done))", within: 5) {
                    inputs.queue.done.dropped >= 1
                }
                #expect(inputs.queue.done.dropped == 1)
                #expect(inputs.queue.done.rendered == 1, "only the blocker ran")
                // The same tile asked again by a client that waits is rendered.
                #expect(try await RawHTTP.fetch(port: port, "/scan/\(t.z)/\(t.x)/\(t.y).png").status == 200)
                #expect(inputs.queue.done.rendered == 2)
            }
        }

        @Test func theNewestQueuedRenderGoesFirst() async throws {
            let queue = RenderQueue(workers: 1)
            let gate = Gate()
            let order = Locked([Int]())
            @Sendable func key(_ i: Int) -> TileMemo.Key { TileMemo.Key(source: "s", version: "v", tile: Tile(x: i, y: 0, z: 5)) }
            let blocker = Task {
                await queue.submit(key(99), isCancelled: { false }) {
                    gate.wait(); return .outside
                }
            }
            try await Poll.until("the blocker to hold the render thread") { queue.done.rendered >= 1 }
            var tasks: [Task<DynamicTile, Never>] = []
            for i in 0..<4 {
                tasks.append(
                    Task {
                        await queue.submit(key(i), isCancelled: { false }) {
                            order.withLock { $0.append(i) }; return .outside
                        }
                    })
                // A fixed pause orders the submissions: the queue does not show how many wait.
                try await pause(0.05)
            }
            gate.open()
            _ = await blocker.value
            for t in tasks { _ = await t.value }
            #expect(order.withLock { $0 } == [3, 2, 1, 0])
        }
    }
}
