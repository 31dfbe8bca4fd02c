// libFuzzer target `url-template` (scripts/fuzz): a tile URL template parsed and filled. Its body,
// Tests/TegulaOverlayTests/FuzzBodies/URLTemplateFuzz.swift, is compiled in beside this entry and
// run by FuzzReplayTests on every committed input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzURLTemplate(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzCase.libFuzzer(data, count, URLTemplateFuzz.run)
}
