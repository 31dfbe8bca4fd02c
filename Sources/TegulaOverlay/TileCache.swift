import Foundation
import TegulaSupport

/// An in-memory least-recently-used cache of tiles with a byte budget, safe to share between
/// tasks.
///
/// Holds both tiles and "this tile is missing" answers, so a 404 is not asked for again. A
/// missing answer costs `missingEntryCost` bytes of the budget. Adding past the budget evicts the
/// least recently used entries; an entry larger than the whole budget is not stored.
public final class TileCache: Sendable {
    /// What the cache remembers about one path.
    public enum Entry: Hashable, Sendable {
        /// The tile's bytes.
        case tile(Data)
        /// The source said the tile does not exist.
        case missing(source: String)
    }

    /// Budget charged for a `.missing` entry.
    public static let missingEntryCost = 64

    private final class Node {
        let key: TileOverlayPath
        var entry: Entry
        var cost: Int
        var newer: Node?
        weak var older: Node?
        init(key: TileOverlayPath, entry: Entry, cost: Int) {
            self.key = key
            self.entry = entry
            self.cost = cost
        }
    }

    private struct State {
        var nodes: [TileOverlayPath: Node] = [:]
        /// Least recently used end.
        var oldest: Node?
        /// Most recently used end.
        var newest: Node?
        var bytes = 0
    }

    /// The most bytes the cache holds; 0 turns caching off.
    public let byteBudget: Int
    private let state = Locked(State())

    /// An empty cache holding at most `byteBudget` bytes of tiles.
    public init(byteBudget: Int) {
        self.byteBudget = max(0, byteBudget)
    }

    /// Bytes currently held.
    public var byteCount: Int { state.withLock { $0.bytes } }
    /// Entries currently held.
    public var count: Int { state.withLock { $0.nodes.count } }

    /// The entry for a path, marking it most recently used; nil when absent.
    public func entry(for key: TileOverlayPath) -> Entry? {
        state.withLock { s in
            guard let node = s.nodes[key] else { return nil }
            Self.unlink(node, in: &s)
            Self.pushNewest(node, in: &s)
            return node.entry
        }
    }

    /// Stores an entry as the most recently used and evicts the oldest ones past the budget.
    public func insert(_ entry: Entry, for key: TileOverlayPath) {
        let cost: Int
        switch entry {
        case let .tile(data): cost = data.count
        case .missing: cost = Self.missingEntryCost
        }
        state.withLock { s in
            if let old = s.nodes.removeValue(forKey: key) {
                Self.unlink(old, in: &s)
                s.bytes -= old.cost
            }
            guard cost <= byteBudget else { return }
            let node = Node(key: key, entry: entry, cost: cost)
            s.nodes[key] = node
            Self.pushNewest(node, in: &s)
            s.bytes += cost
            while s.bytes > byteBudget, let victim = s.oldest {
                Self.unlink(victim, in: &s)
                s.nodes[victim.key] = nil
                s.bytes -= victim.cost
            }
        }
    }

    /// Forgets every entry.
    public func removeAll() {
        state.withLock { s in
            // Break the strong `newer` chain explicitly so long lists free without deep recursion.
            var node = s.oldest
            while let n = node { node = n.newer; n.newer = nil }
            s = State()
        }
    }

    /// Paths from least to most recently used (for tests and diagnostics).
    public var pathsOldestFirst: [TileOverlayPath] {
        state.withLock { s in
            var out: [TileOverlayPath] = []
            var node = s.oldest
            while let n = node { out.append(n.key); node = n.newer }
            return out
        }
    }

    private static func unlink(_ node: Node, in s: inout State) {
        let older = node.older, newer = node.newer
        older?.newer = newer
        newer?.older = older
        if s.oldest === node { s.oldest = newer }
        if s.newest === node { s.newest = older }
        node.older = nil
        node.newer = nil
    }

    private static func pushNewest(_ node: Node, in s: inout State) {
        node.older = s.newest
        s.newest?.newer = node
        s.newest = node
        if s.oldest == nil { s.oldest = node }
    }
}
