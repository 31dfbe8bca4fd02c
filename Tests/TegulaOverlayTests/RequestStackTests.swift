import Foundation
import TegulaGeometry
import TegulaSupport
import Testing

@testable import TegulaOverlay

/// The seed talk's fixed-size request stack and the scheduler that reports dropped requests.
struct RequestStackTests {
    static func p(_ x: Int) -> TileOverlayPath { TileOverlayPath(x: x, y: 0, z: 4) }

    @Test func newestFirstAndOldestFallsOff() {
        var stack = TileRequestStack(capacity: 3)
        #expect(stack.push([Self.p(1), Self.p(2), Self.p(3)]).isEmpty)
        #expect(stack.pending == [Self.p(3), Self.p(2), Self.p(1)])
        #expect(stack.push(Self.p(4)) == Self.p(1))
        #expect(stack.push([Self.p(5), Self.p(6)]) == [Self.p(2), Self.p(3)])
        #expect(stack.popNewest() == Self.p(6))
        #expect(stack.pending == [Self.p(5), Self.p(4)])
    }

    @Test func repeatedRequestMovesToTopWithoutDropping() {
        var stack = TileRequestStack(capacity: 3)
        stack.push([Self.p(1), Self.p(2), Self.p(3)])
        #expect(stack.push(Self.p(1)) == nil)
        #expect(stack.pending == [Self.p(1), Self.p(3), Self.p(2)])
        #expect(stack.push(Self.p(9)) == Self.p(2))
        #expect(stack.remove(Self.p(3)) && !stack.remove(Self.p(3)))
        #expect(stack.removeAll() == [Self.p(9), Self.p(1)] && stack.isEmpty)
    }

    @Test func capacityIsTwiceTheVisibleTiles() {
        #expect(TileRequestStack(visibleTileCount: 12).capacity == 24)
        #expect(TileRequestStack(capacity: 0).capacity == 1)
    }

    /// An overlay whose first load waits for a gate, recording the order loads start in.
    final class GatedOverlay: TileOverlay, @unchecked Sendable {
        let started = Locked<[TileOverlayPath]>([])
        let gate: AsyncStream<Void>
        let open: AsyncStream<Void>.Continuation
        init() {
            (gate, open) = AsyncStream<Void>.makeStream()
            super.init(template: nil)
        }
        override func loadTile(at path: TileOverlayPath) async throws -> Data {
            let first = started.withLock {
                $0.append(path); return $0.count == 1
            }
            if first { for await _ in gate { break } }
            return Data([UInt8(path.x)])
        }
    }

    @Test func schedulerLoadsNewestFirstAndReportsDrops() async throws {
        let overlay = GatedOverlay()
        let dropped = Locked<[TileRedrawRequest]>([])
        let delivered = Locked<[TileOverlayPath]>([])
        let scheduler = TileRequestScheduler(
            overlay: overlay, capacity: 3, maximumConcurrentLoads: 1,
            onTile: { path, result in if case .success = result { delivered.withLock { $0.append(path) } } },
            onDropped: { r in dropped.withLock { $0.append(r) } })
        scheduler.request([Self.p(0)])
        // Wait until the first load is running (and blocked on the gate).
        while overlay.started.current.isEmpty { await Task.yield() }
        scheduler.request([Self.p(1), Self.p(2), Self.p(3), Self.p(4), Self.p(5)])
        #expect(scheduler.pending == [Self.p(5), Self.p(4), Self.p(3)])
        #expect(dropped.current.map(\.path) == [Self.p(1), Self.p(2)])
        let first = dropped.current[0]
        #expect(first.mapRect == MapRect(tile: Tile(x: 1, y: 0, z: 4)))
        #expect(first.zoomScale == ZoomScale.scale(forZoomLevel: 4))
        overlay.open.yield()
        await scheduler.waitUntilIdle()
        #expect(overlay.started.current == [Self.p(0), Self.p(5), Self.p(4), Self.p(3)])
        #expect(delivered.current == [Self.p(0), Self.p(5), Self.p(4), Self.p(3)])
    }
}
