import Foundation
import TegulaGeometry
import TegulaSupport

/// A CSV file of ties for `ties_from:` (a ``CSVTable``, as ``SheetList``): a required header
/// `map_a,x_a,y_a,map_b,x_b,y_b` in any order, optionally `note` (kept for people, not read) and
/// `score` (a found tie's correlation, as ``AutoTies`` writes it; not read) and `kind` (empty or
/// `tie`: a tie; `rejected`: a found tie a person removed in the tie editor, which `ties: auto`
/// then leaves out, ``RejectedTies``; not fitted), then one tie a row: the same place on two scans in their pixels (x right, y down from the
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

    static let kind = CSVTable.Kind(
        name: "ties file",
        knownColumns: ["map_a", "x_a", "y_a", "map_b", "x_b", "y_b", "note", "score", "kind"],
        requiredColumns: ["map_a", "x_a", "y_a", "map_b", "x_b", "y_b"],
        expected: "map_a,x_a,y_a,map_b,x_b,y_b (optionally note, score, kind)")

    /// The file, absolute.
    let path: String
    /// The ties in file order.
    let rows: [Row]
    /// The rows of kind `rejected`: found ties a person removed (not ties).
    let rejected: [Row]

    /// Read and check the file (or `text`, as that file's text: ties found in a dry run, not
    /// written); errors are ``PipelineError``s at `path:line:column`.
    init(path: String, text: String? = nil) throws {
        self.path = path
        var rows: [Row] = [], rejected: [Row] = []
        for record in try CSVTable(path: path, text: text, kind: TieList.kind).rows {
            let values = record.values, columns = record.columns
            func number(_ name: String) throws -> Double {
                guard let v = Double(values[name]!), v.isFinite else {
                    throw PipelineError(
                        .invalid, file: path, line: record.line, column: columns[name],
                        "\(name) '\(values[name]!)' is not a finite number (pixels from the scan's top-left corner)")
                }
                return v
            }
            for name in ["map_a", "map_b"] where values[name]!.isEmpty {
                throw PipelineError(.invalid, file: path, line: record.line, column: columns[name], "empty '\(name)'; every tie names two maps")
            }
            let tie = TieSpec(
                mapA: values["map_a"]!, pixelA: PixelPoint(x: try number("x_a"), y: try number("y_a")),
                mapB: values["map_b"]!, pixelB: PixelPoint(x: try number("x_b"), y: try number("y_b")))
            switch values["kind"] ?? "" {
            case "", "tie": rows.append(Row(line: record.line, columns: columns, tie: tie))
            case "rejected": rejected.append(Row(line: record.line, columns: columns, tie: tie))
            case let other:
                throw PipelineError(
                    .invalid, file: path, line: record.line, column: columns["kind"],
                    "kind '\(other)' is not a kind of row: leave it empty (or tie) for a tie, rejected for a found tie removed")
            }
        }
        (self.rows, self.rejected) = (rows, rejected)
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
