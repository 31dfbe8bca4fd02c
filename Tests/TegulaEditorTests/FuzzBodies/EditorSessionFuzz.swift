import Foundation

// The editor-session fuzz body (FuzzCase): the editor's JSON body (`POST /api/fit`,
// `PUT /api/session`), decoded, checked and fitted as the API does for a 4000 × 3000 scan; what
// the API answers and autosaves must read back as the same session. Run by
// Fuzz/Targets/editor-session.swift (joined to TegulaEditor, its session files, by scripts/fuzz)
// and by FuzzReplayTests.
#if !TEGULA_FUZZ_TARGET
    import TegulaEditor
    import TegulaTestSupport
#endif

enum EditorSessionFuzz {
    static func run(_ bytes: [UInt8], _ c: inout FuzzCase) {
        guard let session = c.attempt({ try EditorSession.decode(Data(bytes)) }) else { return }
        c.check((try? EditorSession.decode(session.json())) == session, "the session survives its own JSON")
        _ = c.attempt { try SessionFit(session, scanPath: "/scan.tif", width: 4000, height: 3000) }
    }
}
