import Foundation
import TegulaTestSupport

/// `python3 -m http.server` on 127.0.0.1 with a kernel-chosen port, serving a folder; stopped by
/// `stop()` (the test's own child process, ended by its pid).
final class LoopbackHTTPServer: @unchecked Sendable {
    let process = Process()
    let port: Int

    init(serving folder: URL) throws {
        let out = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.environment = ProgramRun.childEnvironment()
        process.arguments = ["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
                             "--directory", folder.path]
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // First line: "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ..."
        var text = ""
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            if let range = text.range(of: #"port (\d+)"#, options: .regularExpression) {
                let digits = text[range].split(separator: " ").last.map(String.init) ?? ""
                if let p = Int(digits) { port = p; return }
            }
        }
        kill(process.processIdentifier, SIGKILL)
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "http.server did not start: \(text)"])
    }

    func stop() {
        // SIGKILL, not terminate(): the test runner's threads may block SIGTERM, and a child
        // spawned from them inherits that mask, so SIGTERM can leave it running forever.
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    }

    /// A loopback TCP port that was free a moment ago.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) { ptr in
            ptr.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bind(fd, sa, len) == 0 && getsockname(fd, sa, &len) == 0
            }
        }
        guard bound else { throw CocoaError(.fileReadUnknown) }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}
