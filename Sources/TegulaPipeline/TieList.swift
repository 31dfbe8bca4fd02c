import Foundation
import TegulaGeometry
import TegulaSupport

/// A CSV file of ties for `ties_from:` (RFC 4180, as ``SheetList``): a required header
/// `map_a,x_a,y_a,map_b,x_b,y_b` in any order, optionally `note` (kept for people, not read),
/// then one tie a row: the same place on two scans in their pixels (x right, y down from the
/// top-left corner, as in `ties:`). Ties are kept in their own file rather than in a map's GCP
/// file because each GCP format Tegula reads needs ground coordinates on every point (QGIS
/// `.points` reads every row as mapX,mapY,…; GDAL's `<GCP>` requires X and Y; a MapWarper CSV row
/// needs lon,lat; an Allmaps annotation's feature needs a Point geometry), so a point without
/// them would break every other reader of that file; and a tie belongs to two maps, not one.
struct TieList {
    /// One tie with where it was written.
    struct Row {
        var line: Int
        /// The 1-based column of each field, by column name.
        var columns: [String: Int]
        var tie: TieSpec
    }

    static let requiredColumns = ["map_a", "x_a", "y_a", "map_b", "x_b", "y_b"]
    static let knownColumns = requiredColumns + ["note"]

    /// The file, absolute.
    let path: String
    /// The ties in file order.
    let rows: [Row]

    /// Read and check; errors are ``PipelineError``s at `path:line:column`.
    init(path: String) throws {
        self.path = path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PipelineError(.unreadable, file: path, "cannot read the ties file (no such file or no permission)")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw PipelineError(.unreadable, file: path, "not UTF-8 text") }
        let records = try SheetList.parse(text, path: path)
        guard let first = records.first else {
            throw PipelineError(.syntax, file: path, line: 1, column: 1, "the ties file is empty; expected the header map_a,x_a,y_a,map_b,x_b,y_b")
        }
        var header: [String] = []
        for (i, cell) in first.fields.enumerated() {
            let name = cell.text.trimmingCharacters(in: .whitespaces)
            guard TieList.knownColumns.contains(name) else {
                let hint = KeySuggestion.nearest(to: name, in: TieList.knownColumns).map { "did you mean '\($0)'?" }
                    ?? "known columns: \(TieList.knownColumns.joined(separator: ", "))"
                throw PipelineError(.invalid, file: path, line: first.line, column: cell.column, "unknown column '\(name)'; \(hint)")
            }
            if let j = header.firstIndex(of: name) {
                throw PipelineError(.invalid, file: path, line: first.line, column: cell.column, "column '\(name)' appears twice (columns \(j + 1) and \(i + 1))")
            }
            header.append(name)
        }
        for required in TieList.requiredColumns where !header.contains(required) {
            throw PipelineError(.invalid, file: path, line: first.line, column: 1,
                                "the header lacks column '\(required)'; a ties file needs map_a,x_a,y_a,map_b,x_b,y_b (optionally note)")
        }
        var rows: [Row] = []
        for record in records.dropFirst() {
            if record.fields.count == 1 && record.fields[0].text.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            guard record.fields.count == header.count else {
                throw PipelineError(.invalid, file: path, line: record.line, column: 1,
                                    "\(record.fields.count) fields where the header has \(header.count) (\(header.joined(separator: ",")))")
            }
            var values: [String: String] = [:], columns: [String: Int] = [:]
            for (name, cell) in zip(header, record.fields) {
                values[name] = cell.text.trimmingCharacters(in: .whitespaces)
                columns[name] = cell.column
            }
            func number(_ name: String) throws -> Double {
                guard let v = Double(values[name]!), v.isFinite else {
                    throw PipelineError(.invalid, file: path, line: record.line, column: columns[name],
                                        "\(name) '\(values[name]!)' is not a finite number (pixels from the scan's top-left corner)")
                }
                return v
            }
            for name in ["map_a", "map_b"] where values[name]!.isEmpty {
                throw PipelineError(.invalid, file: path, line: record.line, column: columns[name], "empty '\(name)'; every tie names two maps")
            }
            let tie = TieSpec(mapA: values["map_a"]!, pixelA: PixelPoint(x: try number("x_a"), y: try number("y_a")),
                              mapB: values["map_b"]!, pixelB: PixelPoint(x: try number("x_b"), y: try number("y_b")))
            rows.append(Row(line: record.line, columns: columns, tie: tie))
        }
        self.rows = rows
    }
}

/// Where a tie was given, so an error can name it: an item of the `ties:` list, or a row of the
/// `ties_from:` file.
public enum TieOrigin: Sendable, Hashable {
    /// `ties[index]` of the pipeline file.
    case list(index: Int)
    /// A row of the ties file: its line and each field's column by name.
    case file(path: String, line: Int, columns: [String: Int])
}
