// libFuzzer target: the editor's JSON body (`POST /api/fit`, `PUT /api/session`), decoded,
// checked and fitted as the API does for a 4000 × 3000 scan. Joined to TegulaEditor (its
// session files, without the HTTP service; scripts/fuzz).
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEditorSession(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let session = try? EditorSession.decode(Data(bytes: data, count: count)) else { return 0 }
    // What the API answers and autosaves reads back as the same session.
    precondition((try? EditorSession.decode(session.json())) == session, "session does not survive its own JSON")
    _ = try? SessionFit(session, scanPath: "/scan.tif", width: 4000, height: 3000)
    return 0
}
