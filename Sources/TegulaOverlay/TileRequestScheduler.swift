import Foundation
import TegulaGeometry
import TegulaSupport

/// An area to draw again because its request was dropped (MapKit's
/// `setNeedsDisplay(_ mapRect:zoomScale:)` arguments).
public struct TileRedrawRequest: Hashable, Sendable {
    /// The dropped request.
    public let path: TileOverlayPath
    /// The map rect it covered.
    public let mapRect: MapRect
    /// The zoom scale its level is drawn at.
    public let zoomScale: Double
}

/// Loads tiles on demand through a ``TileRequestStack``: newest requests first, a fixed number of
/// loads at a time, and every dropped request reported to `onDropped` so the map can ask again
/// when that area is visible.
///
/// Thread-safe (`@unchecked Sendable` over one lock); callbacks run outside the lock, on the
/// loading task.
public final class TileRequestScheduler: @unchecked Sendable {
    /// The overlay tiles are fetched from (through ``TileOverlay/fetchTile(at:)``).
    public let overlay: TileOverlay
    /// Loads allowed at the same time.
    public let maximumConcurrentLoads: Int
    private let onTile: @Sendable (TileOverlayPath, Result<Data, any Error>) -> Void
    private let onDropped: @Sendable (TileRedrawRequest) -> Void

    private struct State {
        var stack: TileRequestStack
        var loading: Set<TileOverlayPath> = []
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Locked<State>

    /// A scheduler with a stack of `capacity` requests (use twice the visible tile count).
    public init(
        overlay: TileOverlay, capacity: Int, maximumConcurrentLoads: Int = 4,
        onTile: @escaping @Sendable (TileOverlayPath, Result<Data, any Error>) -> Void,
        onDropped: @escaping @Sendable (TileRedrawRequest) -> Void
    ) {
        self.overlay = overlay
        self.maximumConcurrentLoads = max(1, maximumConcurrentLoads)
        self.onTile = onTile
        self.onDropped = onDropped
        state = Locked(State(stack: TileRequestStack(capacity: capacity)))
    }

    /// Requests waiting, newest first.
    public var pending: [TileOverlayPath] { state.withLock { $0.stack.pending } }

    /// Asks for tiles; the last path is the most important. Paths already loading are skipped.
    public func request(_ paths: [TileOverlayPath]) {
        let dropped = state.withLock { s in
            s.stack.push(paths.filter { !s.loading.contains($0) })
        }
        for path in dropped {
            let z = path.z
            onDropped(
                TileRedrawRequest(
                    path: path, mapRect: overlay.mapRect(for: path),
                    zoomScale: overlay.zoomScale(forZoomLevel: z)))
        }
        pump()
    }

    /// Returns when nothing waits and nothing loads.
    public func waitUntilIdle() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { s -> Bool in
                if s.stack.isEmpty && s.loading.isEmpty { return true }
                s.idleWaiters.append(c)
                return false
            }
            if ready { c.resume() }
        }
    }

    /// Starts loads for the newest requests while there is room.
    private func pump() {
        var started: [TileOverlayPath] = []
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            while s.loading.count < maximumConcurrentLoads, let path = s.stack.popNewest() {
                s.loading.insert(path)
                started.append(path)
            }
            guard s.stack.isEmpty, s.loading.isEmpty else { return [] }
            defer { s.idleWaiters.removeAll() }
            return s.idleWaiters
        }
        for waiter in waiters { waiter.resume() }
        for path in started {
            Task {
                let result: Result<Data, any Error>
                do { result = .success(try await overlay.fetchTile(at: path)) } catch { result = .failure(error) }
                onTile(path, result)
                state.withLock { _ = $0.loading.remove(path) }
                pump()
            }
        }
    }
}
