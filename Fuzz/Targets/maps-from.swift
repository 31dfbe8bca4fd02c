// libFuzzer target `maps-from` (scripts/fuzz): a collection's CSV sheet list. Its body,
// Tests/TegulaPipelineTests/FuzzBodies/MapsFromFuzz.swift, is compiled in beside this entry and run
// by FuzzReplayTests on every committed input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMapsFrom(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzCase.libFuzzer(data, count, MapsFromFuzz.run)
}
