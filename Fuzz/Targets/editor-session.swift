// libFuzzer target `editor-session` (scripts/fuzz): the editor's JSON session body, decoded and
// fitted. Its body, Tests/TegulaEditorTests/FuzzBodies/EditorSessionFuzz.swift, is compiled in
// beside this entry and run by FuzzReplayTests on every committed input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEditorSession(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzCase.libFuzzer(data, count, EditorSessionFuzz.run)
}
