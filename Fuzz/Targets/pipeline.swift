// libFuzzer target `pipeline` (scripts/fuzz): a pipeline file, loaded as `tegula run` loads it. Its
// body, Tests/TegulaPipelineTests/FuzzBodies/PipelineFuzz.swift, is compiled in beside this entry
// and run by FuzzReplayTests on every committed input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPipeline(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzCase.libFuzzer(data, count, PipelineFuzz.run)
}
