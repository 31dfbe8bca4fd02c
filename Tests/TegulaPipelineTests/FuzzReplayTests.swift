import Foundation
import Testing
import TegulaTestSupport
@testable import TegulaPipeline

/// Every seed and every input that ever crashed, hung or blew a cap in the pipeline-file and
/// sheet-list fuzz targets (scripts/fuzz), replayed as Fuzz/Targets/pipeline.swift and
/// maps-from.swift run them: loaded or refused with a ``PipelineError``, never a crash.
struct FuzzReplayTests {
    /// A folder as the harnesses make it: a scan and a GCP file for entries to name.
    static func folder() throws -> URL {
        let d = try TemporaryFolder.make("fuzz-pipeline")
        for f in ["scan.tif", "scan.points"] {
            try #require(FileManager.default.createFile(atPath: d.path + "/" + f, contents: Data()), "cannot make \(f)")
        }
        return d
    }

    /// Loads `pipeline`; any error must be a located PipelineError.
    static func load(_ path: String) {
        do { _ = try Pipeline.load(path: path) } catch {
            #expect(error is PipelineError, "\(type(of: error)): \(error)")
        }
    }

    @Test(arguments: try FuzzInputs.names("pipeline"))
    func pipeline(_ name: String) throws {
        let d = try Self.folder()
        defer { try? FileManager.default.removeItem(at: d) }
        try Data(try FuzzInputs.bytes(name)).write(to: d.appendingPathComponent("p.yml"))
        Self.load(d.path + "/p.yml")
    }

    @Test(arguments: try FuzzInputs.names("maps-from"))
    func mapsFrom(_ name: String) throws {
        let d = try Self.folder()
        defer { try? FileManager.default.removeItem(at: d) }
        try "version: 1\nmap_defaults:\n  output: out/{name}\nmaps_from: sheets.csv\n".write(
            to: d.appendingPathComponent("p.yml"), atomically: true, encoding: .utf8)
        try Data(try FuzzInputs.bytes(name)).write(to: d.appendingPathComponent("sheets.csv"))
        Self.load(d.path + "/p.yml")
    }
}
