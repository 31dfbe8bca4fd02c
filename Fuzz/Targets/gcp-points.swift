// libFuzzer target `gcp-points` (scripts/fuzz): a QGIS .points file. Its body,
// Tests/TegulaGeoreferenceTests/FuzzBodies/GCPPointsFuzz.swift, is compiled in beside this entry
// and run by FuzzReplayTests on every committed input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGCPPoints(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzCase.libFuzzer(data, count, GCPPointsFuzz.run)
}
