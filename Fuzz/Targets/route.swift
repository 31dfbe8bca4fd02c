// libFuzzer target `route` (scripts/fuzz): an HTTP request target as the server parses it. Its
// body, Tests/TegulaServerTests/FuzzBodies/RouteFuzz.swift, is compiled in beside this entry and
// run by FuzzReplayTests on every committed input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRoute(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzCase.libFuzzer(data, count, RouteFuzz.run)
}
