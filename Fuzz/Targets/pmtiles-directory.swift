// libFuzzer target: one uncompressed PMTiles directory (varints, deltas, runs, offsets), then
// `find` for every id it names and its neighbours. Joined to TegulaBundle by scripts/fuzz.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPMTilesDirectory(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    guard let entries = PMTilesDirectory.deserialize(bytes) else { return 0 }
    for e in entries.prefix(64) {
        for id in [e.tileId, e.tileId &+ 1, e.tileId &- 1, e.tileId &+ UInt64(e.runLength)] {
            _ = PMTilesDirectory.find(entries, id)
        }
    }
    // What the writer makes of them must read back the same.
    let again = PMTilesDirectory.serialize(entries)
    precondition(PMTilesDirectory.deserialize(again) == entries || !entries.isSortedByID)
    return 0
}

extension Array where Element == PMTilesEntry {
    var isSortedByID: Bool { zip(self, dropFirst()).allSatisfy { $0.tileId <= $1.tileId } }
}
