// libFuzzer target `gzip` (scripts/fuzz): gzip members decompressed under a 1 MiB budget. Its body,
// Tests/TegulaCodecTests/FuzzBodies/GzipFuzz.swift, is compiled in beside this entry and run by
// FuzzReplayTests on every committed input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGzip(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzCase.libFuzzer(data, count, GzipFuzz.run)
}
