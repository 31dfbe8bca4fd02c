import Foundation
import TegulaSupport

/// An in-memory least-recently-used cache of tiles with a byte budget (TegulaSupport's
/// `LRUCache`), safe to share between tasks.
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

    private let cache: LRUCache<TileOverlayPath, Entry>

    /// The most bytes the cache holds; 0 turns caching off.
    public var byteBudget: Int { cache.byteBudget }

    /// An empty cache holding at most `byteBudget` bytes of tiles.
    public init(byteBudget: Int) {
        cache = LRUCache(byteBudget: byteBudget)
    }

    /// Bytes currently held.
    public var byteCount: Int { cache.byteCount }
    /// Entries currently held.
    public var count: Int { cache.count }

    /// The entry for a path, marking it most recently used; nil when absent.
    public func entry(for key: TileOverlayPath) -> Entry? { cache.value(for: key) }

    /// Stores an entry as the most recently used and evicts the oldest ones past the budget.
    public func insert(_ entry: Entry, for key: TileOverlayPath) {
        let cost: Int
        switch entry {
        case let .tile(data): cost = data.count
        case .missing: cost = Self.missingEntryCost
        }
        cache.insert(entry, cost: cost, for: key)
    }

    /// Forgets every entry.
    public func removeAll() { cache.removeAll() }

    /// Paths from least to most recently used; for this package's tests (`@testable import`),
    /// not part of the API.
    var pathsOldestFirst: [TileOverlayPath] { cache.keysOldestFirst }
}
