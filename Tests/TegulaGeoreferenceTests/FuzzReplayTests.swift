import Foundation
import Testing
import TegulaGeoreference
import TegulaGDAL
import TegulaTestSupport

/// Every seed and every input that ever crashed a GCP-format fuzz target (scripts/fuzz), replayed
/// as Fuzz/Targets/gcp-*.swift and allmaps.swift run them: read or refused, never a crash.
struct FuzzReplayTests {
    static func text(_ name: String) throws -> String { String(decoding: try FuzzInputs.bytes(name), as: UTF8.self) }

    @Test(arguments: try FuzzInputs.names("gcp-points"))
    func points(_ name: String) throws {
        _ = try? GCPReader.parsePoints(try Self.text(name), source: name)
    }

    @Test(arguments: try FuzzInputs.names("gcp-csv"))
    func csv(_ name: String) throws {
        _ = try? GCPReader.parseCSV(try Self.text(name), source: name)
        _ = try? GCPReader.parseCSV(try Self.text(name), source: name, gcpCRS: try CRS("EPSG:28992"))
    }

    /// Reads the input as a GCP file named `input.EXT`, as `tegula georef --gcps` does.
    static func read(_ name: String, ext: String) throws {
        let dir = try TemporaryFolder.make("fuzz")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.path + "/input.\(ext)"
        try Data(try FuzzInputs.bytes(name)).write(to: URL(fileURLWithPath: path))
        _ = try? GCPReader.read(path: path)
    }

    @Test(arguments: try FuzzInputs.names("allmaps"))
    func allmaps(_ name: String) throws { try Self.read(name, ext: "json") }

    @Test(arguments: try FuzzInputs.names("gcp-vrt"))
    func vrt(_ name: String) throws { try Self.read(name, ext: "vrt") }
}
