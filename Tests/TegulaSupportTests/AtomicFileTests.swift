import Foundation
import TegulaSupport
import Testing

/// The one atomic write: the old file stays until the new one is complete, and nothing is left
/// beside it either way.
struct AtomicFileTests {
    static func folder() throws -> String {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("tegula-support-\(UUID())").path
        try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }

    @Test func replacesTheFileAndLeavesNoTemporary() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/a.bin"
        try AtomicFile.write([1, 2, 3], to: path)
        try AtomicFile.write([4, 5], to: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data([4, 5]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["a.bin"])
    }

    @Test func aFailedWriteKeepsTheOldFile() throws {
        struct Stop: Error {}
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/keep.txt"
        try AtomicFile.write(Array("old".utf8), to: path)
        var seen = ""
        #expect(throws: Stop.self) {
            try AtomicFile.write(to: path) { file in
                try file.write(Array("half of the new".utf8))
                seen = file.temporaryPath
                // While the new file is being written, the old one is still whole at `path`.
                #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
                throw Stop()
            }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(!seen.isEmpty && !FileManager.default.fileExists(atPath: seen))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["keep.txt"])
    }

    @Test func temporaryNamesAreUniqueAndBesideTheTarget() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let a = try AtomicFile(replacing: dir + "/t.tif"), b = try AtomicFile(replacing: dir + "/t.tif")
        #expect(a.temporaryPath != b.temporaryPath)
        #expect((a.temporaryPath as NSString).deletingLastPathComponent == dir)
        a.discard()
        b.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func aMissingFolderIsAFileErrorNamingIt() throws {
        do {
            try AtomicFile.write([1], to: "/nonexistent-tegula-folder/x")
            Issue.record("expected a FileError")
        } catch let error as FileError {
            #expect(error.operation == "create" && error.errno == ENOENT)
            #expect(error.path.hasPrefix("/nonexistent-tegula-folder/"))
        }
    }
}
