import Foundation
import TegulaSupport

/// A CSV file whose first row names its columns (RFC 4180 by TegulaSupport's ``CSV``: fields may
/// be quoted with `"`, `""` inside quotes is a quote, CRLF or LF line ends): the one reader under
/// ``SheetList`` (`maps_from:`) and ``TieList`` (`ties_from:`). The header is required; its names
/// must be known and each appear once, the required ones present, in any order. Blank lines are
/// skipped; every other row has as many fields as the header. Errors are ``PipelineError``s at
/// `path:line:column`.
struct CSVTable {
    /// What the file is, as its errors name it, and the columns it has.
    struct Kind {
        /// "sheet list", "ties file".
        var name: String
        var knownColumns: [String]
        var requiredColumns: [String]
        /// The header in words for errors: "name,input,gcps (optionally transform,…)".
        var expected: String
    }

    /// One data row: its 1-based line, each field's text (trimmed of spaces; empty fields too)
    /// and 1-based column, by column name.
    struct Row {
        var line: Int
        var values: [String: String]
        var columns: [String: Int]
    }

    /// The file, absolute.
    let path: String
    /// The header's column names, in file order.
    let header: [String]
    /// The data rows in file order.
    let rows: [Row]

    /// Read and check the file at `path`, or `text` as that file's text when given (a file a
    /// dry run would write).
    init(path: String, text given: String? = nil, kind: Kind) throws {
        self.path = path
        let text = try given ?? CSVTable.text(path: path, kind: kind)
        let records = try CSVTable.parse(text, path: path)
        guard let first = records.first else {
            throw PipelineError(.syntax, file: path, line: 1, column: 1, "the \(kind.name) is empty; expected a header line such as \(kind.expected)")
        }
        var header: [String] = []
        for (i, cell) in first.fields.enumerated() {
            let name = cell.text.trimmingCharacters(in: .whitespaces)
            guard kind.knownColumns.contains(name) else {
                let hint =
                    KeySuggestion.nearest(to: name, in: kind.knownColumns).map { "did you mean '\($0)'?" }
                    ?? "known columns: \(kind.knownColumns.joined(separator: ", "))"
                throw PipelineError(.invalid, file: path, line: first.line, column: cell.column, "unknown column '\(name)'; \(hint)")
            }
            if let j = header.firstIndex(of: name) {
                throw PipelineError(
                    .invalid, file: path, line: first.line, column: cell.column, "column '\(name)' appears twice (columns \(j + 1) and \(i + 1))")
            }
            header.append(name)
        }
        for required in kind.requiredColumns where !header.contains(required) {
            throw PipelineError(
                .invalid, file: path, line: first.line, column: 1,
                "the header lacks column '\(required)'; a \(kind.name) needs \(kind.expected)")
        }
        self.header = header
        var rows: [Row] = []
        for record in records.dropFirst() {
            if record.fields.count == 1 && record.fields[0].text.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            guard record.fields.count == header.count else {
                throw PipelineError(
                    .invalid, file: path, line: record.line, column: 1,
                    "\(record.fields.count) fields where the header has \(header.count) (\(header.joined(separator: ",")))")
            }
            var row = Row(line: record.line, values: [:], columns: [:])
            for (name, cell) in zip(header, record.fields) {
                row.values[name] = cell.text.trimmingCharacters(in: .whitespaces)
                row.columns[name] = cell.column
            }
            rows.append(row)
        }
        self.rows = rows
    }

    /// The file's text; an unreadable file or one not UTF-8 is a ``PipelineError``.
    static func text(path: String, kind: Kind) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PipelineError(.unreadable, file: path, "cannot read the \(kind.name) (no such file or no permission)")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw PipelineError(.unreadable, file: path, "not UTF-8 text") }
        return text
    }

    /// Split CSV text into records of fields with their positions; a break of RFC 4180 is a
    /// ``PipelineError`` at `path:line:column`.
    static func parse(_ text: String, path: String) throws -> [CSV.Record] {
        do { return try CSV.records(text) } catch {
            throw PipelineError(.syntax, file: path, line: error.line, column: error.column, error.message)
        }
    }
}
