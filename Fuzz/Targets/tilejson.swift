// libFuzzer target `tilejson` (scripts/fuzz): TileJSON / metadata JSON read and written back. Its
// body, Tests/TegulaTilesetTests/FuzzBodies/TileJSONFuzz.swift, is compiled in beside this entry and
// run by FuzzReplayTests on every committed input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTileJSON(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzCase.libFuzzer(data, count, TileJSONFuzz.run)
}
