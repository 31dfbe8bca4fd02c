import Foundation
import TegulaSupport

/// A CSV list of sheets for `maps_from:` (RFC 4180: comma-separated, fields may be quoted with
/// `"`, `""` inside quotes is a quote, CRLF or LF line ends). The first row is the header and
/// is required: `name,input,gcps`, optionally `transform`, `gcp_srs`, `mask`, in any order, and
/// `title`, `date`, `source`, which only the sheet index reads (``SheetIndex``).
/// Every row keeps its line number so an error can name it.
struct SheetList {
    /// One data row: its 1-based line and column of each field, and the fields by column name.
    struct Row {
        var line: Int
        var values: [String: String]
        var columns: [String: Int]
    }

    /// The columns a sheet list may have; the first three are required.
    static let knownColumns = ["name", "input", "gcps", "transform", "gcp_srs", "mask", "title", "date", "source"]
    static let requiredColumns = ["name", "input", "gcps"]

    /// The file, absolute.
    let path: String
    /// The header's column names, in file order.
    let header: [String]
    /// The data rows (blank lines skipped).
    let rows: [Row]

    /// Read and check the header; errors are ``PipelineError``s at `path:line:column`.
    init(path: String) throws {
        self.path = path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PipelineError(.unreadable, file: path, "cannot read the sheet list (no such file or no permission)")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw PipelineError(.unreadable, file: path, "not UTF-8 text") }
        let records = try SheetList.parse(text, path: path)
        guard let first = records.first else {
            throw PipelineError(.syntax, file: path, line: 1, column: 1, "the sheet list is empty; expected a header line such as name,input,gcps")
        }
        var header: [String] = []
        for (i, cell) in first.fields.enumerated() {
            let name = cell.text.trimmingCharacters(in: .whitespaces)
            guard SheetList.knownColumns.contains(name) else {
                let hint = KeySuggestion.nearest(to: name, in: SheetList.knownColumns).map { "did you mean '\($0)'?" }
                    ?? "known columns: \(SheetList.knownColumns.joined(separator: ", "))"
                throw PipelineError(.invalid, file: path, line: first.line, column: cell.column, "unknown column '\(name)'; \(hint)")
            }
            if let j = header.firstIndex(of: name) {
                throw PipelineError(.invalid, file: path, line: first.line, column: cell.column, "column '\(name)' appears twice (columns \(j + 1) and \(i + 1))")
            }
            header.append(name)
        }
        for required in SheetList.requiredColumns where !header.contains(required) {
            throw PipelineError(.invalid, file: path, line: first.line, column: 1,
                                "the header lacks column '\(required)'; a sheet list needs name,input,gcps (optionally transform,gcp_srs,mask,title,date,source)")
        }
        self.header = header
        var rows: [Row] = []
        for record in records.dropFirst() {
            if record.fields.count == 1 && record.fields[0].text.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            guard record.fields.count == header.count else {
                throw PipelineError(.invalid, file: path, line: record.line, column: 1,
                                    "\(record.fields.count) fields where the header has \(header.count) (\(header.joined(separator: ",")))")
            }
            var row = Row(line: record.line, values: [:], columns: [:])
            for (name, cell) in zip(header, record.fields) {
                let v = cell.text.trimmingCharacters(in: .whitespaces)
                row.columns[name] = cell.column
                if !v.isEmpty { row.values[name] = v }
            }
            for required in SheetList.requiredColumns where row.values[required] == nil {
                throw PipelineError(.invalid, file: path, line: record.line, column: row.columns[required],
                                    "empty '\(required)'; every row needs a name, an input scan and a GCP file")
            }
            rows.append(row)
        }
        self.rows = rows
    }

    /// Split CSV text into records of fields with their positions (TegulaSupport's ``CSV``); a
    /// break of RFC 4180 is a ``PipelineError`` at `path:line:column`.
    static func parse(_ text: String, path: String) throws -> [CSV.Record] {
        do { return try CSV.records(text) } catch {
            throw PipelineError(.syntax, file: path, line: error.line, column: error.column, error.message)
        }
    }
}
