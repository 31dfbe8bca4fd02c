import Foundation
import TegulaTestSupport

/// Runs the built `tegula` executable for end-to-end tests (other programs: `ProgramRun`).
enum TegulaBinary {
    /// The package root, found from this file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `tegula` executable next to the test bundle, else in .build/debug.
    static var url: URL {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("tegula")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return packageRoot.appendingPathComponent(".build/debug/tegula")
    }

    /// Run `tegula` with arguments and optional standard input.
    static func run(_ arguments: [String], stdin: String? = nil) throws -> ProgramRun {
        try ProgramRun.run(url.path, arguments, stdin: stdin)
    }
}
