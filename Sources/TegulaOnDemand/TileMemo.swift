import TegulaGeometry
import TegulaSupport

/// Tiles made on request, kept in memory up to a byte budget (`tegula serve --cache-size`); the
/// least recently used go first (``LRUCache``). Keys name the source's version, so a re-fitted
/// source never gets a tile of its previous fit.
public final class TileMemo: Sendable {
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

    private let cache: LRUCache<Key, Entry>

    /// Bytes the entries may hold together (0: nothing is kept).
    public var byteBudget: Int { cache.byteBudget }

    /// A memo holding at most `byteBudget` bytes.
    public init(byteBudget: Int) {
        cache = LRUCache(byteBudget: byteBudget)
    }

    /// The entry, now the most recently used; nil when not kept.
    public func get(_ key: Key) -> Entry? { cache.value(for: key) }

    /// Keep an entry, dropping the least recently used ones beyond the budget.
    public func put(_ key: Key, _ entry: Entry) {
        cache.insert(entry, cost: Self.overhead + { if case .image(let b) = entry { return b.count } else { return 0 } }(), for: key)
    }

    /// Drop every entry of a source whose version is not `keep` (after a re-fit).
    public func removeVersions(of source: String, except keep: String) {
        cache.removeAll { $0.source == source && $0.version != keep }
    }

    /// Bytes held, bookkeeping included.
    public var byteCount: Int { cache.byteCount }
    /// Entries held.
    public var count: Int { cache.count }
}
