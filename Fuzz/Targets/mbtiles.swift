// libFuzzer target `mbtiles` (scripts/fuzz): a whole MBTiles (SQLite) file opened and read. Its
// body, Tests/TegulaTilesetTests/FuzzBodies/MBTilesFuzz.swift, is compiled in beside this entry and
// run by FuzzReplayTests on every committed input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMBTiles(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzCase.libFuzzer(data, count, MBTilesFuzz.run)
}
