import TegulaSupport

/// The leaf directories a PMTiles reader keeps, per file generation (a re-read file's leaves
/// never answer for the new one), in an ``LRUCache`` whose budget holds at most ``leafLimit``
/// leaves and ``entryLimit`` entries in all: the least recently used leaves go first.
/// Thread-safe.
final class PMTilesLeafCache: Sendable {
    /// Leaf directories kept: 256 covers 256 × 4,096 tiles or more (a leaf of go-pmtiles or
    /// Tegula holds at least 4,096 entries), a whole region of a large pyramid.
    static let leafLimit = 256
    /// Entries kept in all cached leaves: 2^20 entries of 24 bytes, 24 MiB, however large the
    /// leaves of a file are. A single leaf larger than that is read again each time.
    static let entryLimit = 1 << 20
    /// Bytes an entry is charged: `PMTilesEntry`'s tile id, offset, length and run length.
    static let entryBytes = 24

    private struct Key: Hashable, Sendable {
        var generation: Int
        var offset: UInt64
    }

    private let cache = LRUCache<Key, [PMTilesEntry]>(byteBudget: entryLimit * entryBytes)

    /// What a leaf is charged: its entries' bytes, and at least a ``leafLimit``-th of the budget,
    /// so that the budget holds no more than ``leafLimit`` leaves however small they are.
    static func cost(of entries: [PMTilesEntry]) -> Int {
        max(entries.count, entryLimit / leafLimit) * entryBytes
    }

    /// The leaf at `offset` of the leaf section of generation `generation`, when kept; now the most
    /// recently used.
    func leaf(at offset: UInt64, generation: Int) -> [PMTilesEntry]? {
        cache.value(for: Key(generation: generation, offset: offset))
    }

    /// Keeps a leaf as the most recently used, dropping the least recently used past the budget.
    func keep(_ entries: [PMTilesEntry], at offset: UInt64, generation: Int) {
        cache.insert(entries, cost: Self.cost(of: entries), for: Key(generation: generation, offset: offset))
    }

    /// Drops every leaf of a generation other than `generation`.
    func dropAll(but generation: Int) {
        cache.removeAll { $0.generation != generation }
    }

    /// Leaves kept now.
    var count: Int { cache.count }
}
