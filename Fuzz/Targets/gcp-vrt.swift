// libFuzzer target `gcp-vrt` (scripts/fuzz): a GDAL VRT holding a GCPList. Its body,
// Tests/TegulaGeoreferenceTests/FuzzBodies/GCPVRTFuzz.swift, is compiled in beside this entry and
// run by FuzzReplayTests on every committed input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGCPVRT(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzCase.libFuzzer(data, count, GCPVRTFuzz.run)
}
