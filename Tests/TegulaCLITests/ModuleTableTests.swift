import Foundation
import Testing

/// CONTRIBUTING.md's Layout table names every module under Sources/ in exactly one row, and only
/// modules that are targets, as `SchemaTests` pins `pipelines/schema.json` to the Codable models
/// (house style 20). The targets are read through `swift package dump-package`, as
/// `DeclaredDependencyTests` reads them.
@Suite(.timeLimit(.minutes(20)))
struct ModuleTableTests {
    typealias Manifest = DeclaredDependencyTests

    /// One row of the Layout table that names `Sources/` folders: its line in the file and the
    /// modules of its first cell (`Sources/CGDAL`, `CPNG`, … names CGDAL and CPNG).
    struct Row {
        var line: Int, modules: [String]
    }

    /// The rows of `markdown`'s Layout section whose first cell names a `Sources/` folder.
    static func sourcesRows(in markdown: String) -> [Row] {
        var rows: [Row] = []
        var inLayout = false
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("## ") { inLayout = line.trimmingCharacters(in: .whitespaces) == "## Layout"; continue }
            guard inLayout, line.hasPrefix("|") else { continue }
            let firstCell = line.dropFirst().prefix { $0 != "|" }
            // The code spans of the first cell: every other piece between backticks.
            let spans = firstCell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
            guard spans.contains(where: { $0.hasPrefix("Sources/") }) else { continue }
            let modules = spans.map { span in
                var name = span.hasPrefix("Sources/") ? String(span.dropFirst("Sources/".count)) : span
                while name.hasSuffix("/") { name.removeLast() }
                return name
            }
            rows.append(Row(line: index + 1, modules: modules))
        }
        return rows
    }

    /// The targets whose folder is under Sources/, test targets aside.
    static func sourcesTargets() throws -> Set<String> {
        let root = TegulaBinary.packageRoot.standardizedFileURL.path + "/Sources/"
        return Set(
            try Manifest.manifestTargets().filter { t in
                t.type != "test" && Manifest.folder(of: t).standardizedFileURL.path.hasPrefix(root)
            }.map(\.name))
    }

    @Test func theLayoutRowsNamingSourcesFoldersAreReadWithEveryModuleOfTheirFirstCell() {
        let markdown = """
            ## Layout

            | folder | what |
            |---|---|
            | `Sources/CGDAL`, `CPNG` | C system libraries |
            | `Sources/TegulaWarp/` | stage 2, a `Sources/Quoted` folder in the second cell |
            | `Tests/TegulaTestSupport` | fixtures |

            ## Scripts

            | `Sources/NotLayout` | another table |
            """
        let rows = Self.sourcesRows(in: markdown)
        #expect(rows.map(\.modules) == [["CGDAL", "CPNG"], ["TegulaWarp"]])
        #expect(rows.map(\.line) == [5, 6])
    }

    @Test func everyModuleUnderSourcesHasExactlyOneRowInContributingsLayoutTable() throws {
        let file = TegulaBinary.packageRoot.appendingPathComponent("CONTRIBUTING.md")
        let rows = Self.sourcesRows(in: try String(contentsOf: file, encoding: .utf8))
        #expect(rows.count > 10, "CONTRIBUTING.md's Layout table has \(rows.count) rows naming Sources/ folders")
        let targets = try Self.sourcesTargets()
        #expect(targets.count > 20, "dump-package listed \(targets.count) targets under Sources/")
        var lines: [String: [Int]] = [:]
        for row in rows {
            for module in row.modules { lines[module, default: []].append(row.line) }
        }
        for module in targets.subtracting(lines.keys).sorted() {
            Issue.record("CONTRIBUTING.md's Layout table has no row for \(module): add a row `Sources/\(module)` saying what the module holds")
        }
        for (module, at) in lines.sorted(by: { $0.key < $1.key }) {
            if !targets.contains(module) {
                Issue.record(
                    "CONTRIBUTING.md:\(at[0]) names Sources/\(module), which is no target of Package.swift: remove it from the row, or correct the name"
                )
            } else if at.count > 1 {
                Issue.record(
                    "CONTRIBUTING.md names \(module) in \(at.count) rows of its Layout table (lines \(at.map(String.init).joined(separator: ", "))): keep one"
                )
            }
        }
    }
}
