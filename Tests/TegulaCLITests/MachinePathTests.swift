import Foundation
import TegulaTestSupport
import Testing

/// No file under Sources/, Tests/ or scripts/ names a path of one machine's checkout: tests find
/// the project's files from the package root (`PackageRoot`), scripts from their own folder. A
/// fresh clone in any folder must meet what the author met (issue 40: a test that ran the `.venv`
/// Python of the checkout it was written in failed every new user's `scripts/test`).
@Suite(.timeLimit(.minutes(20)))
struct MachinePathTests {
    /// The folders whose files are read.
    static let folders = ["Sources", "Tests", "scripts"]

    /// An absolute path that runs into one of the project's own folders: a `/` at the start of a
    /// word (not after `:`, `/` or a name, so a URL's path does not count), then folders, then one
    /// of the package's top-level folders or build and venv folders.
    static var intoACheckout: Regex<AnyRegexOutput> {
        try! Regex(#"(?:^|[\s"'=(\[,])(/[^\s"'`:;,()\[\]]*/(?:\.venv|\.build[A-Za-z0-9_-]*|Sources|Tests|scripts|pipelines|Fuzz|docs)/)"#)
    }

    /// This file, relative to the root.
    static let thisFile = "Tests/TegulaCLITests/MachinePathTests.swift"

    /// The project folders a path into a checkout runs through, as `intoACheckout` names them.
    static let folderNames = ["/.venv/", "/.build", "/Sources/", "/Tests/", "/scripts/", "/pipelines/", "/Fuzz/", "/docs/"]

    /// One offending line: its file (relative to the root), line number and the path.
    struct Finding: CustomStringConvertible {
        var file: String, line: Int, path: String
        var description: String { "\(file):\(line): \(path)" }
    }

    /// The machine paths in `text`: the checkout's own path anywhere, and any path into a checkout.
    static func findings(in text: String, file: String, checkout: String) -> [Finding] {
        var found: [Finding] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.contains(checkout + "/") { found.append(Finding(file: file, line: number + 1, path: checkout)) }
            // The regex only where one of the folders' names is (Swift's Regex is slow on long lines).
            guard folderNames.contains(where: { line.contains($0) }) else { continue }
            for match in line.matches(of: intoACheckout) {
                found.append(Finding(file: file, line: number + 1, path: String(match.output[1].substring ?? "")))
            }
        }
        return found
    }

    /// Every text file under `folder`, relative to the root (files that are not UTF-8 are binary).
    static func textFiles(under folder: String) -> [(path: String, text: String)] {
        let root = PackageRoot.url
        guard let walk = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path) else { return [] }
        return walk.compactMap { entry -> (String, String)? in
            let relative = folder + "/" + (entry as! String)
            guard let text = try? String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8) else { return nil }
            return (relative, text)
        }
    }

    @Test func noFileUnderSourcesTestsOrScriptsNamesAMachinesCheckout() throws {
        // This file's own examples of machine paths are the one exception.
        let files = Self.folders.flatMap { Self.textFiles(under: $0) }.filter { $0.path != Self.thisFile }
        #expect(files.count > 300, "the walk found the tree's files")
        #expect(FileManager.default.fileExists(atPath: PackageRoot.path(Self.thisFile)), "the exception names this file")
        let found = files.flatMap { Self.findings(in: $0.text, file: $0.path, checkout: PackageRoot.url.path) }
        #expect(found.isEmpty, "machine paths (use PackageRoot.path(…) in tests, the script's folder in scripts): \(found)")
    }

    @Test(arguments: [
        #"ProgramRun.output("/srv/maps/tegula/.venv/bin/python", ["-c"])"#,
        "python=/home/someone/tegula/.venv/bin/python3",
        "cat /srv/checkout/Tests/Goldens/tiles.json",
        "export PATH=/opt/ci/tegula/.build-test/debug:$PATH",
    ])
    func aPathIntoACheckoutIsFound(line: String) {
        #expect(Self.findings(in: line, file: "f", checkout: "/nowhere").count == 1, "\(line)")
    }

    @Test(arguments: [
        #"PackageRoot.path(".venv/bin/python")"#,
        #"venv="$PWD/.venv""#,
        "https://github.com/apple/swift-nio/tree/main/Sources/NIOCore/",
        "/usr/share/javascript/leaflet/leaflet.js",
        #"cd "$(dirname "$0")/..""#,
    ])
    func aRelativePathOrAURLIsNot(line: String) {
        #expect(Self.findings(in: line, file: "f", checkout: "/nowhere").isEmpty, "\(line)")
    }

    @Test func theCheckoutsOwnPathIsFoundWhateverFollowsIt() {
        let found = Self.findings(in: "let p = \"/a/b/tegula/README.md\"", file: "f", checkout: "/a/b/tegula")
        #expect(found.map(\.line) == [1])
    }
}
