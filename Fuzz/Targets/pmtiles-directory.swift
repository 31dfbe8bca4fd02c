// libFuzzer target `pmtiles-directory` (scripts/fuzz): one uncompressed PMTiles directory read and
// searched. Its body, Tests/TegulaTilesetTests/FuzzBodies/PMTilesDirectoryFuzz.swift, is compiled in
// beside this entry and run by FuzzReplayTests on every committed input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPMTilesDirectory(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzCase.libFuzzer(data, count, PMTilesDirectoryFuzz.run)
}
