// The pmtiles-directory fuzz body (FuzzCase): one uncompressed PMTiles directory (varints, deltas,
// runs, offsets), then `find` for every id it names and its neighbours. Run by
// Fuzz/Targets/pmtiles-directory.swift (joined to TegulaTileset by scripts/fuzz) and by
// FuzzReplayTests. A bad directory is refused as nil, not as an error.
#if !TEGULA_FUZZ_TARGET
    @testable import TegulaTileset
    import TegulaTestSupport
#endif

enum PMTilesDirectoryFuzz {
    static func run(_ bytes: [UInt8], _ c: inout FuzzCase) {
        guard let entries = PMTilesDirectory.deserialize(bytes) else { return }
        for e in entries.prefix(64) {
            for id in [e.tileId, e.tileId &+ 1, e.tileId &- 1, e.tileId &+ UInt64(e.runLength)] {
                _ = PMTilesDirectory.find(entries, id)
            }
        }
        // Ids are deltas that may not wrap, so they come back sorted, and the writer's form of them
        // reads back the same.
        c.check(zip(entries, entries.dropFirst()).allSatisfy { $0.tileId <= $1.tileId }, "ids come back sorted")
        c.check(PMTilesDirectory.deserialize(PMTilesDirectory.serialize(entries)) == entries, "serialize → deserialize is the identity")
    }
}
