import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaSupport

/// Reads the GCP files that are bare columns of numbers with no header, telling them apart by
/// content: GDAL text (`PIXEL LINE X Y`, as `gdal_translate -gcp` takes them, separated by
/// spaces, rows counted down), ArcGIS TSV (`x y X Y` separated by tabs, rows negative: ArcGIS'
/// image y axis points up) and ArcGIS CSV (`id,x,y,X,Y`, rows negative).
///
/// The separator and the sign of the rows must agree on one form; a file they leave open (tabs
/// with rows counted down, as GDAL's or as ArcGIS' export from a bottom-left origin; spaces with
/// negative rows; rows of both signs) is refused naming both readings, never guessed. The files
/// hold no CRS: the ground is longitude/latitude unless `gcpCRS` says otherwise, and numbers
/// that cannot be longitude/latitude are refused asking for it.
enum ColumnGCPReader {
    /// One row as read: where it is, and x y X Y as written (ArcGIS' y still negative).
    struct Row {
        let line: Int
        let id: String?
        let values: [Double]
        let tabbed: Bool
    }

    /// The set in `text`, or nil when its first data line does not start with a number (after
    /// an id, with commas): a CSV or `.points` with a header, read by ``GCPReader``.
    static func read(_ text: String, source: String, gcpCRS: CRS?) throws -> GCPSet? {
        let records = try GCPReader.records(text, source: source).filter { !$0.isBlank && !$0.isComment }
        guard let first = records.first else { return nil }
        let comma = first.raw.contains(",")
        let texts = comma ? first.texts.map(trimmed) : words(first.raw)
        // A header's first coordinate is a name; a number there (x, after ArcGIS' id) is data.
        let x = comma ? 1 : 0
        guard texts.count > x, Double(texts[x]) != nil else { return nil }
        let place = "\(source):\(first.line)"
        if comma {
            guard texts.count == 5 else {
                throw GeoreferenceError(
                    .unknownFormat, at: place,
                    "a CSV of \(texts.count) columns without a header: expected \(GCPFormat.arcgisCSV.label), or a header naming the columns (\(GCPFormat.csv.label))"
                )
            }
        } else if !(4...5).contains(texts.count) {
            throw GeoreferenceError(
                .unknownFormat, at: place,
                "\(texts.count) numbers a line without a header: expected \(GCPFormat.gdal.label) or \(GCPFormat.arcgisTSV.label)")
        }
        let rows = try records.map { try row($0, comma: comma, source: source) }
        let form = try Self.form(rows, comma: comma, source: source)
        let crs = gcpCRS ?? .wgs84
        var gcps: [GCP] = []
        for r in rows {
            let ground = GroundPoint(x: r.values[2], y: r.values[3])
            if gcpCRS == nil, abs(ground.y) > 90 || abs(ground.x) > 540 {
                throw GeoreferenceError(
                    .unknownCRS, at: "\(source):\(r.line)",
                    "X \(r.values[2]), Y \(r.values[3]) are not longitude and latitude, and \(form.label) holds no CRS: give it with --gcp-srs (e.g. EPSG:3857)"
                )
            }
            let y = form == .gdal ? r.values[1] : -r.values[1]
            gcps.append(GCP(id: r.id ?? "\(gcps.count + 1)", pixel: PixelPoint(x: r.values[0], y: y), ground: ground))
        }
        return GCPSet(gcps: gcps, crs: crs, source: source)
    }

    /// One data line: `id,x,y,X,Y` (comma) or 4 numbers (and GDAL's optional elevation, dropped).
    static func row(_ record: CSV.Record, comma: Bool, source: String) throws -> Row {
        let place = "\(source):\(record.line)"
        let line = record.raw.trimmingCharacters(in: .whitespaces)
        // Separated by tabs alone, as ArcGIS writes; any space between columns makes it GDAL's.
        let inner = record.raw.trimmingCharacters(in: CharacterSet(charactersIn: " \t\r"))
        let tabbed = inner.contains("\t") && !inner.contains(" ")
        if comma {
            let f = record.texts.map(trimmed)
            guard f.count == 5 else {
                throw GeoreferenceError(.unparseableRow, at: place, "\(GCPFormat.arcgisCSV.label): expected 5 values id,x,y,X,Y, got '\(line)'")
            }
            let names = ["x", "y", "X", "Y"]
            let values = try (1...4).map { try GCPReader.number(f[$0], names[$0 - 1], place) }
            return Row(line: record.line, id: f[0].isEmpty ? nil : f[0], values: values, tabbed: false)
        }
        let w = words(record.raw)
        let form = tabbed ? GCPFormat.arcgisTSV : .gdal
        guard (4...5).contains(w.count) else {
            throw GeoreferenceError(
                .unparseableRow, at: place,
                "\(form.label): expected 4 numbers \(tabbed ? "x y X Y" : "PIXEL LINE X Y (and an optional elevation)"), got '\(line)'")
        }
        let names = tabbed ? ["x", "y", "X", "Y", "Z"] : ["PIXEL", "LINE", "X", "Y", "elevation"]
        let values = try w.indices.map { try GCPReader.number(w[$0], names[$0], place) }
        return Row(line: record.line, id: nil, values: Array(values.prefix(4)), tabbed: tabbed)
    }

    /// The one form the separator and the rows' sign agree on; a refusal naming both readings
    /// otherwise.
    static func form(_ rows: [Row], comma: Bool, source: String) throws -> GCPFormat {
        let ys = rows.map { $0.values[1] }
        let negative = ys.allSatisfy { $0 <= 0 } && ys.contains { $0 < 0 }
        let positive = ys.allSatisfy { $0 >= 0 } && ys.contains { $0 > 0 }
        let signs = negative ? "negative" : positive ? "positive" : ys.allSatisfy { $0 == 0 } ? "all 0" : "of both signs"
        if comma {
            if negative { return .arcgisCSV }
            throw GeoreferenceError(
                .unknownFormat, at: source,
                "\(GCPFormat.arcgisCSV.label) with rows (y) \(signs) could be read two ways: rows counted down from the top (an export with the y axis down) or up from the bottom-left corner (an export with that origin); Tegula does not guess: export with ArcGIS' top-left origin (rows negative), or write a CSV with a header x,y,lon,lat and rows counted down"
            )
        }
        let tabbed = rows.allSatisfy(\.tabbed)
        if tabbed && negative { return .arcgisTSV }
        if !tabbed && positive { return .gdal }
        let why: String
        if tabbed && positive {
            why =
                "tab-separated as ArcGIS writes it, but with rows (y) positive as GDAL text has them: it could be read two ways, as \(GCPFormat.gdal.label) with rows counted down from the top, or as \(GCPFormat.arcgisTSV.label) exported from a bottom-left origin (rows counted up)"
        } else if negative {
            why =
                "separated by spaces as GDAL text is, but with rows (y) negative as ArcGIS writes them: it could be read two ways, as \(GCPFormat.gdal.label) (every point above the image) or as \(GCPFormat.arcgisTSV.label)"
        } else {
            why =
                "its rows (y) are \(signs): it could be read two ways, as \(GCPFormat.gdal.label) with rows counted down or as \(GCPFormat.arcgisTSV.label), and either puts points off the image"
        }
        throw GeoreferenceError(
            .unknownFormat, at: source,
            "\(why); Tegula does not guess: write GDAL text with spaces and rows counted down from the top, or ArcGIS' export with tabs and rows negative"
        )
    }

    /// The whitespace-separated words of a line.
    static func words(_ line: String) -> [String] {
        line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
    }

    static func trimmed(_ s: String) -> String { s.trimmingCharacters(in: .whitespaces) }
}
