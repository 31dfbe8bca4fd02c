import Foundation
import TegulaTestSupport
import Testing

/// Every target of Package.swift declares exactly the modules its Swift files import (house
/// style 14): a dependency nothing imports is linked for nothing, and an import nobody declared
/// builds only by the luck of another target's graph. The manifest is read as SwiftPM reads it,
/// through `swift package dump-package`.
@Suite(.timeLimit(.minutes(20)))
struct DeclaredDependencyTests {
    /// Modules of the toolchain and the platform, which no target declares.
    static let platformModules: Set<String> = [
        "Swift", "_Concurrency", "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML",
        "Dispatch", "Synchronization", "Glibc", "Musl", "Darwin", "Android", "WinSDK", "Testing", "XCTest",
    ]

    /// One target as `dump-package` describes it.
    struct Target {
        var name: String, type: String, path: String?, exclude: [String]
        /// Module names: a target dependency is its target's module, a product one the product's
        /// name (every product Tegula uses is named after its module, e.g. NIOCore, Crypto, Yams).
        var declared: Set<String>
    }

    static func manifestTargets() throws -> [Target] {
        let scratch = try TemporaryFolder.make("dump-package")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let json = try ProgramRun.output(
            "swift",
            [
                "package", "--package-path", TegulaBinary.packageRoot.path,
                "--scratch-path", scratch.path, "dump-package",
            ])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let targets = try #require(root["targets"] as? [[String: Any]], "dump-package printed no targets")
        return try targets.map { t in
            var declared: Set<String> = []
            for dependency in t["dependencies"] as? [[String: Any]] ?? [] {
                let (kind, value) = try #require(dependency.first, "an empty dependency in \(t["name"] ?? "?")")
                let name = try #require((value as? [Any])?.first as? String, "a \(kind) dependency without a name")
                declared.insert(name)
            }
            return Target(
                name: try #require(t["name"] as? String), type: t["type"] as? String ?? "",
                path: t["path"] as? String, exclude: t["exclude"] as? [String] ?? [], declared: declared)
        }
    }

    /// The modules `source` imports (`import M`, `@testable import M`, `public import M.Sub`, …),
    /// lines inside multi-line string literals (the Python tests run) left out.
    static func imports(in source: String) -> Set<String> {
        var modules: Set<String> = []
        var inString = false
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            if !inString, let module = importedModule(line) { modules.insert(module) }
            if line.components(separatedBy: "\"\"\"").count % 2 == 0 { inString.toggle() }
        }
        return modules
    }

    /// The module of one `import` line, or nil for any other line.
    static func importedModule(_ line: Substring) -> String? {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
        while let w = words.first, w.hasPrefix("@") || ["public", "package", "internal", "fileprivate", "private"].contains(w) {
            words = words.dropFirst()
        }
        guard words.first == "import", words.count >= 2 else { return nil }
        words = words.dropFirst()
        if ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"].contains(words.first ?? ""), words.count >= 2 {
            words = words.dropFirst()
        }
        guard let path = words.first else { return nil }
        let rest = words.dropFirst()
        guard rest.isEmpty || rest.first?.hasPrefix("//") == true else { return nil }
        let module = path.split(separator: ".").first.map(String.init) ?? ""
        guard let head = module.first, head.isLetter || head == "_",
            module.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else { return nil }
        return module
    }

    /// The folder of a target's sources: its `path`, or `Sources/NAME` (`Tests/NAME` for a test target).
    static func folder(of target: Target) -> URL {
        TegulaBinary.packageRoot.appendingPathComponent(target.path ?? "\(target.type == "test" ? "Tests" : "Sources")/\(target.name)")
    }

    /// The Swift files under `folder`, less `exclude`d paths, sorted.
    static func swiftFiles(under folder: URL, exclude: [String]) -> [URL] {
        let excluded = exclude.map { folder.appendingPathComponent($0).standardizedFileURL.path }
        var found: [URL] = []
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            let path = file.standardizedFileURL.path
            guard file.pathExtension == "swift", !excluded.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) else { continue }
            found.append(file)
        }
        return found.sorted { $0.path < $1.path }
    }

    /// The modules one Swift file imports.
    static func imports(of file: URL) throws -> Set<String> {
        imports(in: try String(contentsOf: file, encoding: .utf8))
    }

    /// The modules the Swift files under `folder` import, less `exclude`d paths.
    static func imports(under folder: URL, exclude: [String]) throws -> Set<String> {
        try swiftFiles(under: folder, exclude: exclude).reduce(into: []) { $0.formUnion(try imports(of: $1)) }
    }

    @Test func importLinesAreReadAndStringLiteralsAreNot() {
        let source = """
            import Foundation
            @testable import TegulaServer
            public import NIOCore.Sub
            import struct Yams.Node // a comment
            let script = \"\"\"
                import sys
            \"\"\"
            // import Commented
            let imported = "import Quoted"
            """
        #expect(Self.imports(in: source) == ["Foundation", "TegulaServer", "NIOCore", "Yams"])
    }

    @Test func everyTargetDeclaresExactlyTheModulesItImports() throws {
        let targets = try Self.manifestTargets()
        #expect(targets.count > 20, "dump-package listed \(targets.count) targets")
        var checked = 0
        for t in targets where t.type != "system" && t.type != "binary" && t.type != "plugin" {
            let folder = Self.folder(of: t)
            #expect(FileManager.default.fileExists(atPath: folder.path), "\(t.name): no folder \(folder.path)")
            let imported = try Self.imports(under: folder, exclude: t.exclude).subtracting(Self.platformModules)
            for module in t.declared.subtracting(imported).sorted() {
                Issue.record("\(t.name) declares \(module) in Package.swift, but none of its files imports it")
            }
            for module in imported.subtracting(t.declared).sorted() {
                Issue.record("\(t.name) imports \(module), which it does not declare in Package.swift")
            }
            checked += 1
        }
        #expect(checked > 20, "only \(checked) targets with sources checked")
    }
}
