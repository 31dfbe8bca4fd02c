import Foundation
import TegulaTestSupport

/// Runs the built `tegula` executable for end-to-end tests (other programs: `ProgramRun`).
enum TegulaBinary {
    /// The package root (``PackageRoot``).
    static let packageRoot = PackageRoot.url

    /// The `tegula` executable of the build under test, beside the test bundle (``BuiltTegula``).
    static var url: URL { get throws { URL(fileURLWithPath: try BuiltTegula.path()) } }

    /// Run `tegula` with arguments and optional standard input.
    static func run(_ arguments: [String], stdin: String? = nil) throws -> ProgramRun {
        try ProgramRun.run(try url.path, arguments, stdin: stdin)
    }

    /// Runs `tegula ARGS` and sends SIGKILL after `seconds` if it is still running: whether the
    /// kill landed, and the exit status when it did not.
    static func killed(_ args: [String], after seconds: Double) throws -> (killed: Bool, status: Int32, stderr: String) {
        let p = Process()
        p.executableURL = try TegulaBinary.url
        p.environment = ProgramRun.childEnvironment()
        p.arguments = args
        p.standardOutput = FileHandle.nullDevice
        let err = Pipe()
        p.standardError = err
        try p.run()
        let deadline = Date().addingTimeInterval(seconds)
        while p.isRunning && Date() < deadline { usleep(1000) }
        let landed = p.isRunning
        if landed { kill(p.processIdentifier, SIGKILL) }
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (landed, landed ? -9 : p.terminationStatus, text)
    }
}
