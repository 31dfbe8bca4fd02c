/// The seed talk's request queue: a fixed-size stack of tile requests, newest first.
///
/// The most recent request is the most important (the user is looking there now); old requests
/// may no longer be visible. Pushing onto a full stack drops the oldest request off the back and
/// returns it, so the caller can ask to be redrawn for that area later (MapKit
/// `setNeedsDisplay(_:zoomScale:)`). Size it at about twice the tiles that cover the viewport
/// (`init(visibleTileCount:)`). A value type with no clock and no tasks: fully deterministic.
public struct TileRequestStack: Hashable, Sendable {
    /// Most requests held at once (at least 1).
    public let capacity: Int
    /// Requests waiting, newest first.
    public private(set) var pending: [TileOverlayPath] = []

    /// An empty stack holding at most `capacity` requests.
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// An empty stack sized at twice the number of tiles that cover the viewport.
    public init(visibleTileCount: Int) {
        self.init(capacity: 2 * visibleTileCount)
    }

    /// Number of requests waiting.
    public var count: Int { pending.count }
    /// True when nothing waits.
    public var isEmpty: Bool { pending.isEmpty }

    /// Puts a request on top. A request already waiting moves to the top instead of appearing
    /// twice. Returns the request that fell off the back, if the stack was full.
    @discardableResult
    public mutating func push(_ path: TileOverlayPath) -> TileOverlayPath? {
        if let i = pending.firstIndex(of: path) {
            pending.remove(at: i)
            pending.insert(path, at: 0)
            return nil
        }
        pending.insert(path, at: 0)
        return pending.count > capacity ? pending.removeLast() : nil
    }

    /// Pushes requests in order (the last ends on top) and returns those dropped, in the order
    /// they fell off. A request pushed and dropped within the same call is returned too.
    @discardableResult
    public mutating func push(_ paths: [TileOverlayPath]) -> [TileOverlayPath] {
        paths.compactMap { push($0) }
    }

    /// Takes the newest request, or nil when empty.
    public mutating func popNewest() -> TileOverlayPath? {
        pending.isEmpty ? nil : pending.removeFirst()
    }

    /// Removes a waiting request (e.g. it was satisfied from a cache); true when it was there.
    @discardableResult
    public mutating func remove(_ path: TileOverlayPath) -> Bool {
        guard let i = pending.firstIndex(of: path) else { return false }
        pending.remove(at: i)
        return true
    }

    /// Drops everything waiting and returns it, newest first.
    public mutating func removeAll() -> [TileOverlayPath] {
        defer { pending.removeAll() }
        return pending
    }
}
