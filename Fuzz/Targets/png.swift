// libFuzzer target `png` (scripts/fuzz): PNG bytes decoded to RGBA. Its body,
// Tests/TegulaCodecTests/FuzzBodies/PNGFuzz.swift, is compiled in beside this entry and run by
// FuzzReplayTests on every committed input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzCase.libFuzzer(data, count, PNGFuzz.run)
}
