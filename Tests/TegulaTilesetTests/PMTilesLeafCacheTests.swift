import Testing

@testable import TegulaTileset

/// The PMTiles reader's leaf directories live in the one `LRUCache`: at most 256 leaves and 2^20
/// entries, the least recently used dropped first, a re-read file's leaves dropped together.
struct PMTilesLeafCacheTests {
    static func leaf(_ entries: Int) -> [PMTilesEntry] {
        (0..<entries).map { PMTilesEntry(tileId: UInt64($0), offset: UInt64($0) * 100, length: 100, runLength: 1) }
    }

    @Test func atMost256SmallLeavesAreKeptAndALeafReadAgainOutlivesTheOthers() {
        let cache = PMTilesLeafCache(), small = Self.leaf(10)
        for i in 0..<256 { cache.keep(small, at: UInt64(i), generation: 0) }
        #expect(cache.count == 256)
        #expect(cache.leaf(at: 0, generation: 0) == small)  // read: now the most recently used
        cache.keep(small, at: 1000, generation: 0)
        #expect(cache.count == 256)
        #expect(cache.leaf(at: 0, generation: 0) != nil, "read last, so not the one dropped")
        #expect(cache.leaf(at: 1, generation: 0) == nil, "the least recently used goes")
    }

    @Test func largeLeavesAreKeptUpTo2To20EntriesInAll() {
        let cache = PMTilesLeafCache(), quarter = Self.leaf(PMTilesLeafCache.entryLimit / 4)
        for i in 0..<5 { cache.keep(quarter, at: UInt64(i), generation: 0) }
        #expect(cache.count == 4)
        #expect(cache.leaf(at: 0, generation: 0) == nil && cache.leaf(at: 4, generation: 0) != nil)
    }

    @Test func aNewGenerationDropsTheLeavesOfEveryOther() {
        let cache = PMTilesLeafCache(), small = Self.leaf(3)
        cache.keep(small, at: 7, generation: 0)
        cache.keep(small, at: 7, generation: 1)
        #expect(cache.leaf(at: 7, generation: 0) == small, "generations do not answer for each other")
        cache.dropAll(but: 1)
        #expect(cache.count == 1 && cache.leaf(at: 7, generation: 0) == nil && cache.leaf(at: 7, generation: 1) == small)
    }
}
