import TegulaSupport

/// The leaf directories a PMTiles reader keeps, per file generation (a re-read file's leaves
/// never answer for the new one): at most ``leafLimit`` leaves and ``entryLimit`` entries in
/// all, the oldest dropped first. Thread-safe.
final class PMTilesLeafCache: Sendable {
    /// Leaf directories kept: 256 covers 256 × 4,096 tiles or more (a leaf of go-pmtiles or
    /// Tegula holds at least 4,096 entries), a whole region of a large pyramid.
    static let leafLimit = 256
    /// Entries kept in all cached leaves: 2^20 entries of 24 bytes, 24 MiB, however large the
    /// leaves of a file are (the oldest leaves are dropped first).
    static let entryLimit = 1 << 20

    private struct Key: Hashable {
        var generation: Int
        var offset: UInt64
    }

    private let state = Locked((entries: [Key: [PMTilesEntry]](), order: [Key](), held: 0))

    /// The leaf at `offset` of the leaf section of generation `generation`, when kept.
    func leaf(at offset: UInt64, generation: Int) -> [PMTilesEntry]? {
        state.withLock { $0.entries[Key(generation: generation, offset: offset)] }
    }

    /// Keeps a leaf, dropping the oldest past the limits (never the one just kept).
    func keep(_ entries: [PMTilesEntry], at offset: UInt64, generation: Int) {
        let key = Key(generation: generation, offset: offset)
        state.withLock { c in
            guard c.entries.updateValue(entries, forKey: key) == nil else { return }
            c.order.append(key)
            c.held += entries.count
            while c.entries.count > Self.leafLimit || (c.held > Self.entryLimit && c.order.count > 1) {
                c.held -= c.entries.removeValue(forKey: c.order.removeFirst())?.count ?? 0
            }
        }
    }

    /// Drops every leaf of a generation other than `generation`.
    func dropAll(but generation: Int) {
        state.withLock { c in
            c.entries = c.entries.filter { $0.key.generation == generation }
            c.order = c.order.filter { $0.generation == generation }
            c.held = c.entries.values.reduce(0) { $0 + $1.count }
        }
    }

    /// Leaves kept now.
    var count: Int { state.withLock { $0.entries.count } }
}
