// libFuzzer target `allmaps` (scripts/fuzz): an Allmaps Georeference Annotation. Its body,
// Tests/TegulaGeoreferenceTests/FuzzBodies/AllmapsFuzz.swift, is compiled in beside this entry and
// run by FuzzReplayTests on every committed input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAllmaps(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzCase.libFuzzer(data, count, AllmapsFuzz.run)
}
