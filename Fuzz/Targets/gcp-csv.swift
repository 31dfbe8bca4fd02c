// libFuzzer target `gcp-csv` (scripts/fuzz): a GCP CSV. Its body,
// Tests/TegulaGeoreferenceTests/FuzzBodies/GCPCSVFuzz.swift, is compiled in beside this entry and
// run by FuzzReplayTests on every committed input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGCPCSV(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzCase.libFuzzer(data, count, GCPCSVFuzz.run)
}
