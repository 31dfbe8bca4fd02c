import Foundation
import Testing

@testable import TegulaOverlay

/// The LRU cache with a byte budget.
struct CacheTests {
    static func p(_ x: Int) -> TileOverlayPath { TileOverlayPath(x: x, y: 0, z: 5) }

    @Test func evictsLeastRecentlyUsedPastTheBudget() {
        let cache = TileCache(byteBudget: 300)
        cache.insert(.tile(Data(count: 100)), for: Self.p(1))
        cache.insert(.tile(Data(count: 100)), for: Self.p(2))
        cache.insert(.tile(Data(count: 100)), for: Self.p(3))
        #expect(cache.byteCount == 300)
        // Touch 1 so 2 becomes the oldest.
        #expect(cache.entry(for: Self.p(1)) == .tile(Data(count: 100)))
        cache.insert(.tile(Data(count: 150)), for: Self.p(4))
        #expect(cache.pathsOldestFirst == [Self.p(1), Self.p(4)])
        #expect(cache.entry(for: Self.p(2)) == nil && cache.entry(for: Self.p(3)) == nil)
        #expect(cache.byteCount == 250)
    }

    @Test func replacingAnEntryRechargesItsCost() {
        let cache = TileCache(byteBudget: 1000)
        cache.insert(.tile(Data(count: 400)), for: Self.p(1))
        cache.insert(.tile(Data(count: 10)), for: Self.p(1))
        #expect(cache.byteCount == 10 && cache.count == 1)
        cache.insert(.missing(source: "404"), for: Self.p(2))
        #expect(cache.byteCount == 10 + TileCache.missingEntryCost)
    }

    @Test func oversizedEntriesAndZeroBudgetStoreNothing() {
        let cache = TileCache(byteBudget: 50)
        cache.insert(.tile(Data(count: 51)), for: Self.p(1))
        #expect(cache.count == 0)
        let off = TileCache(byteBudget: 0)
        off.insert(.tile(Data(count: 1)), for: Self.p(1))
        #expect(off.count == 0)
        cache.insert(.tile(Data(count: 5)), for: Self.p(2))
        cache.removeAll()
        #expect(cache.count == 0 && cache.byteCount == 0)
    }
}
