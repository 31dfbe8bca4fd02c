import Foundation
import TegulaSupport

/// A CSV list of sheets for `maps_from:` (a ``CSVTable``). The first row is the header and
/// is required: `name,input,gcps`, optionally `transform`, `gcp_srs`, `mask`, in any order, and
/// `title`, `date`, `source`, which only the sheet index reads (``SheetIndex``).
/// Every row keeps its line number so an error can name it.
struct SheetList {
    /// One data row: its 1-based line and column of each field, and the fields by column name.
    typealias Row = CSVTable.Row

    /// The columns a sheet list may have; the first three are required.
    static let kind = CSVTable.Kind(
        name: "sheet list",
        knownColumns: ["name", "input", "gcps", "transform", "gcp_srs", "mask", "title", "date", "source"],
        requiredColumns: ["name", "input", "gcps"],
        expected: "name,input,gcps (optionally transform,gcp_srs,mask,title,date,source)")

    /// The file, absolute.
    let path: String
    /// The header's column names, in file order.
    let header: [String]
    /// The data rows (blank lines skipped), without empty fields.
    let rows: [Row]

    /// Read and check the header; errors are ``PipelineError``s at `path:line:column`.
    init(path: String) throws {
        let table = try CSVTable(path: path, kind: SheetList.kind)
        self.path = path
        self.header = table.header
        self.rows = try table.rows.map { row in
            let values = row.values.filter { !$0.value.isEmpty }
            for required in SheetList.kind.requiredColumns where values[required] == nil {
                throw PipelineError(
                    .invalid, file: path, line: row.line, column: row.columns[required],
                    "empty '\(required)'; every row needs a name, an input scan and a GCP file (none for a sheet placed by its ties)")
            }
            return Row(line: row.line, values: values, columns: row.columns)
        }
    }
}
