import Foundation
import Testing
import TegulaEditor
import TegulaTestSupport

/// Every seed and every input that ever crashed, hung or blew a cap in the editor-session fuzz
/// target (scripts/fuzz), replayed as Fuzz/Targets/editor-session.swift runs it: the body is
/// decoded, re-encoded and fitted for a 4000 × 3000 scan, or refused, never a crash.
struct FuzzReplayTests {
    @Test(arguments: FuzzInputs.names("editor-session"))
    func session(_ name: String) throws {
        guard let session = try? EditorSession.decode(Data(try FuzzInputs.bytes(name))) else { return }
        #expect(try EditorSession.decode(session.json()) == session)
        _ = try? SessionFit(session, scanPath: "/scan.tif", width: 4000, height: 3000)
    }
}
