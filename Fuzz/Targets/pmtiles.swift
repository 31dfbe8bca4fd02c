// libFuzzer target `pmtiles` (scripts/fuzz): a whole PMTiles file opened and walked. Its body,
// Tests/TegulaTilesetTests/FuzzBodies/PMTilesFuzz.swift, is compiled in beside this entry and run by
// FuzzReplayTests on every committed input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPMTiles(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzCase.libFuzzer(data, count, PMTilesFuzz.run)
}
