import Foundation
import TegulaTestSupport

/// Runs the built `tegula` executable for end-to-end tests (other programs: `ProgramRun`).
enum TegulaBinary {
    /// The package root, found from this file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `tegula` executable of the build under test, beside the test bundle (``BuiltTegula``).
    static var url: URL { get throws { URL(fileURLWithPath: try BuiltTegula.path()) } }

    /// Run `tegula` with arguments and optional standard input.
    static func run(_ arguments: [String], stdin: String? = nil) throws -> ProgramRun {
        try ProgramRun.run(try url.path, arguments, stdin: stdin)
    }
}
