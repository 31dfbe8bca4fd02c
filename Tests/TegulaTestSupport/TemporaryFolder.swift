import Foundation

/// Fresh empty folders for a test's files, one per call, under the system's temporary folder.
public enum TemporaryFolder {
    /// Creates `tegula-LABEL-UUID` in the temporary folder and returns it.
    public static func make(_ label: String) throws -> URL {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("tegula-\(label)-\(UUID())")
        try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        return d
    }
}
