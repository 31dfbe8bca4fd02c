import Foundation

/// Fresh empty folders for a test's files, one per call, under the system's temporary folder.
/// Each is removed when the test process exits, whether or not its test removed it (a test that
/// fails half-way, or keeps a folder for a server, leaves nothing behind a finished run).
public enum TemporaryFolder {
    /// Creates `tegula-LABEL-UUID` in the temporary folder and returns it.
    public static func make(_ label: String) throws -> URL {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("tegula-\(label)-\(UUID())")
        try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        made.add(d)
        return d
    }

    /// The folders this process made.
    static let made = Made()

    /// The folders made so far, removed at exit.
    final class Made: @unchecked Sendable {
        private let lock = NSLock()
        private var folders: [URL] = []

        init() {
            atexit { TemporaryFolder.made.removeAll() }
        }

        func add(_ folder: URL) {
            lock.withLock { folders.append(folder) }
        }

        /// Removes every folder still there.
        func removeAll() {
            let all = lock.withLock { folders }
            for f in all { try? FileManager.default.removeItem(at: f) }
        }
    }
}
