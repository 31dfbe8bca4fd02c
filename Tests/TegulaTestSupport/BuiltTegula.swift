import Foundation

/// The `tegula` executable of the build under test: the one beside the test bundle, which
/// `swift build --build-tests` (and `swift test`) link from the same sources as the tests. There
/// is no fallback to another build folder: a `tegula` found elsewhere may be days older than the
/// code the suite checks.
public enum BuiltTegula {
    /// Its path; throws one line naming where it should be when it is not there.
    public static func path() throws -> String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let tegula = bundle.appendingPathComponent("tegula").path
        guard FileManager.default.isExecutableFile(atPath: tegula) else { throw Missing(path: tegula) }
        return tegula
    }

    /// No `tegula` beside the test bundle.
    public struct Missing: Error, CustomStringConvertible {
        /// Where it should be.
        public var path: String
        /// One line: where, and how to make it.
        public var description: String {
            "no tegula at \(path), beside the test bundle: build the tests with `swift build --build-tests` (scripts/test), which links it"
        }
    }
}
