import Foundation
import Testing

@testable import TegulaSupport

/// `parentPath` against Python's `os.path.dirname` after the trailing slashes are stripped (the
/// oracle NSString's deletingLastPathComponent follows, except for a root's name).
struct PathParentTests {
    static let paths = ["t", "tiles", "out/t", "/t", "/", "a/b/c", "a//b", "a/b/", "./t", "../t", "/a/b//", "a"]

    @Test func theParentIsPythonsDirnameOfThePathWithoutItsTrailingSlashes() throws {
        let script =
            "import os, sys\nfor p in sys.argv[1:]:\n    q = p.rstrip('/') or '/'\n    d = os.path.dirname(q)\n    print(d.rstrip('/') or ('/' if d else ''))"
        let python = Process(), out = Pipe()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", script] + Self.paths
        python.standardOutput = out
        try python.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        let oracle = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(python.terminationStatus == 0 && oracle.count == Self.paths.count + 1, "\(text)")
        for (path, want) in zip(Self.paths, oracle) {
            #expect(path.parentPath == String(want), "\(path)")
        }
    }
}
