import Foundation
import TegulaGeometry

/// Tiles made on request, kept in memory up to a byte budget (`tegula serve --cache-size`); the
/// least recently used go first. Keys name the source's version, so a re-fitted source never
/// gets a tile of its previous fit.
public final class TileMemo: @unchecked Sendable {
    /// A tile of one version of one source.
    public struct Key: Hashable, Sendable {
        public var source: String
        public var version: String
        public var tile: Tile

        /// A key from its parts.
        public init(source: String, version: String, tile: Tile) {
            self.source = source
            self.version = version
            self.tile = tile
        }
    }

    /// What is kept: the encoded tile, or the fact that it is empty.
    public enum Entry: Sendable, Equatable {
        case image([UInt8])
        case empty
    }

    /// Bookkeeping bytes charged per entry on top of the tile's own.
    static let overhead = 96

    /// Bytes the entries may hold together (0: nothing is kept).
    public let byteBudget: Int
    private let lock = NSLock()
    private var nodes: [Key: Node] = [:]
    /// Most recently used first.
    private var head: Node?
    private var tail: Node?
    private var bytes = 0

    final class Node {
        let key: Key
        let entry: Entry
        let cost: Int
        var newer: Node?
        var older: Node?
        init(key: Key, entry: Entry, cost: Int) {
            self.key = key
            self.entry = entry
            self.cost = cost
        }
    }

    /// A memo holding at most `byteBudget` bytes.
    public init(byteBudget: Int) {
        self.byteBudget = max(0, byteBudget)
    }

    /// Neighbours hold each other (`newer`, `older`): unlinked here, or a dropped memo's tiles
    /// would stay in memory as cycles (LeakSanitizer found them, RELIABILITY.md).
    deinit {
        var n = head
        while let node = n {
            n = node.older
            node.older = nil
            node.newer = nil
        }
    }

    /// The entry, now the most recently used; nil when not kept.
    public func get(_ key: Key) -> Entry? {
        lock.lock(); defer { lock.unlock() }
        guard let n = nodes[key] else { return nil }
        unlink(n)
        pushFront(n)
        return n.entry
    }

    /// Keep an entry, dropping the least recently used ones beyond the budget.
    public func put(_ key: Key, _ entry: Entry) {
        let cost = Self.overhead + { if case .image(let b) = entry { return b.count } else { return 0 } }()
        guard cost <= byteBudget else { return }
        lock.lock(); defer { lock.unlock() }
        if let old = nodes[key] {
            unlink(old)
            bytes -= old.cost
        }
        let n = Node(key: key, entry: entry, cost: cost)
        nodes[key] = n
        pushFront(n)
        bytes += cost
        while bytes > byteBudget, let last = tail {
            unlink(last)
            nodes[last.key] = nil
            bytes -= last.cost
        }
    }

    /// Drop every entry of a source whose version is not `keep` (after a re-fit).
    public func removeVersions(of source: String, except keep: String) {
        lock.lock(); defer { lock.unlock() }
        for (key, n) in nodes where key.source == source && key.version != keep {
            unlink(n)
            nodes[key] = nil
            bytes -= n.cost
        }
    }

    /// Bytes held, bookkeeping included.
    public var byteCount: Int { lock.lock(); defer { lock.unlock() }; return bytes }
    /// Entries held.
    public var count: Int { lock.lock(); defer { lock.unlock() }; return nodes.count }

    private func unlink(_ n: Node) {
        if let newer = n.newer { newer.older = n.older } else { head = n.older }
        if let older = n.older { older.newer = n.newer } else { tail = n.newer }
        n.newer = nil
        n.older = nil
    }

    private func pushFront(_ n: Node) {
        n.older = head
        head?.newer = n
        head = n
        if tail == nil { tail = n }
    }
}
