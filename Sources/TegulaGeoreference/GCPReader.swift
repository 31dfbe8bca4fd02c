import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaSupport

/// Reads GCP files in every common format into a `GCPSet` in GDAL's pixel convention.
///
/// Formats (``GCPFormat``, docs/georeference.md): QGIS `.points`, GDAL VRT `<GCPList>` (or any
/// raster with GCPs), MapWarper-style CSV, GDAL text and ArcGIS' CSV and TSV exports
/// (``ColumnGCPReader``), Allmaps Georeference Annotation JSON. Detected by extension, then content.
public enum GCPReader {
    /// Detect format by extension/content: .points, .vrt, .json (Allmaps), a header-less file of
    /// numbers (GDAL text, ArcGIS CSV or TSV, whatever its extension), .csv/.txt with a header;
    /// any other raster GDAL opens is read for its stored GCPs. `gcpSRS` gives (or overrides) the
    /// ground CRS; `mapID` chooses one map of an Allmaps AnnotationPage holding several.
    public static func read(path: String, gcpCRS: CRS? = nil, mapID: String? = nil) throws -> GCPSet {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GeoreferenceError(.unreadableFile, at: path, "cannot read the GCP file (no such file or no permission)")
        }
        let ext = (path as NSString).pathExtension.lowercased()
        let head = String(decoding: data.prefix(4096), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if ext == "json" || ext == "geojson" || head.hasPrefix("{") {
            return try AllmapsReader.parse(data, source: path, gcpCRS: gcpCRS, mapID: mapID)
        }
        if ext == "vrt" || ext == "tif" || ext == "tiff" || head.hasPrefix("<") {
            return try readDataset(path: path, gcpCRS: gcpCRS)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw GeoreferenceError(.unknownFormat, at: path, "not UTF-8 text; expected \(GCPFormat.readable)")
        }
        if ext == "points" || head.hasPrefix("#CRS") || head.lowercased().hasPrefix("mapx") {
            return try withSidecar(parsePoints(text, source: path, gcpCRS: gcpCRS), path)
        }
        if let set = try ColumnGCPReader.read(text, source: path, gcpCRS: gcpCRS) {
            return try withSidecar(set, path)
        }
        if ext == "csv" || ext == "txt" {
            return try withSidecar(parseCSV(text, source: path, gcpCRS: gcpCRS), path)
        }
        throw GeoreferenceError(.unknownFormat, at: path, "unknown GCP format: expected \(GCPFormat.readable)")
    }

    /// Parse QGIS `.points`: optional `#CRS:` line, header `mapX,mapY,sourceX,sourceY,enable,…`
    /// (or `pixelX,pixelY`), comma- or tab-separated; sourceY is the negated row. An extra
    /// `name` (or `id`) column, which QGIS ignores, names the GCPs; a quoted name may hold commas.
    public static func parsePoints(_ text: String, source: String, gcpCRS: CRS? = nil) throws -> GCPSet {
        var crs = gcpCRS
        var columns: [String: Int]?
        var gcps: [GCP] = []
        for record in try Self.records(text, source: source) where !record.isBlank {
            let line = record.raw.trimmingCharacters(in: .whitespaces)
            let place = "\(source):\(record.line)"
            if record.isComment {
                if line.uppercased().hasPrefix("#CRS:"), gcpCRS == nil {
                    let def = line.dropFirst(5).trimmingCharacters(in: .whitespaces)
                    if !def.isEmpty { crs = try CRS.parse(def, at: place) }
                }
                continue
            }
            let fields = record.texts.map { $0.trimmingCharacters(in: .whitespaces) }
            if columns == nil {
                let names = fields.map { $0.lowercased() }
                if names.contains("mapx") {
                    func col(_ a: String, _ b: String) -> Int? { names.firstIndex(of: a) ?? names.firstIndex(of: b) }
                    guard let mx = names.firstIndex(of: "mapx"), let my = names.firstIndex(of: "mapy"),
                        let sx = col("sourcex", "pixelx"), let sy = col("sourcey", "pixely")
                    else {
                        throw GeoreferenceError(
                            .unparseableRow, at: place,
                            "header '\(line)' lacks columns: expected mapX,mapY,sourceX,sourceY,enable")
                    }
                    columns = ["mapX": mx, "mapY": my, "sourceX": sx, "sourceY": sy]
                    if let e = names.firstIndex(of: "enable") { columns?["enable"] = e }
                    if let n = names.firstIndex(where: { $0 == "name" || $0 == "id" }) { columns?["name"] = n }
                    continue
                }
                columns = ["mapX": 0, "mapY": 1, "sourceX": 2, "sourceY": 3, "enable": 4]
            }
            let c = columns!
            let need = [c["mapX"]!, c["mapY"]!, c["sourceX"]!, c["sourceY"]!].max()! + 1
            guard fields.count >= need else {
                throw GeoreferenceError(
                    .unparseableRow, at: place,
                    "expected at least \(need) values (mapX,mapY,sourceX,sourceY,enable), got '\(line)'")
            }
            let mapX = try number(fields[c["mapX"]!], "mapX", place)
            let mapY = try number(fields[c["mapY"]!], "mapY", place)
            let sx = try number(fields[c["sourceX"]!], "sourceX", place)
            let sy = try number(fields[c["sourceY"]!], "sourceY", place)
            var enabled = true
            if let e = c["enable"], e < fields.count {
                let v = fields[e].trimmingCharacters(in: .whitespaces)
                guard let flag = Int(v) ?? (v.lowercased() == "true" ? 1 : v.lowercased() == "false" ? 0 : nil) else {
                    throw GeoreferenceError(.unparseableRow, at: place, "enable '\(v)' must be 1 or 0")
                }
                enabled = flag != 0
            }
            let name = c["name"].flatMap { $0 < fields.count && !fields[$0].isEmpty ? fields[$0] : nil }
            gcps.append(
                GCP(
                    id: name ?? "\(gcps.count + 1)", pixel: PixelPoint(x: sx, y: -sy),
                    ground: GroundPoint(x: mapX, y: mapY), enabled: enabled))
        }
        return GCPSet(gcps: gcps, crs: crs ?? .wgs84, source: source)
    }

    /// Parse CSV with header `x,y,lon,lat[,name]` (MapWarper) or `x,y,X,Y[,name]` (needs
    /// `gcpSRS`); x, y are pixels from the top-left corner. A quoted name may hold commas.
    public static func parseCSV(_ text: String, source: String, gcpCRS: CRS? = nil) throws -> GCPSet {
        let records = try Self.records(text, source: source)
        guard let headerIndex = records.firstIndex(where: { !$0.isBlank }) else {
            throw GeoreferenceError(.unparseableRow, at: source, "empty CSV: expected a header x,y,lon,lat[,name]")
        }
        let headerRecord = records[headerIndex], headerLine = headerRecord.line, headerText = headerRecord.raw
        let header = (headerRecord.isComment ? [headerText] : headerRecord.texts)
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"' ")) }
        let lower = header.map { $0.lowercased() }
        guard let xi = header.firstIndex(of: "x") ?? lower.firstIndex(of: "pixel_x"),
            let yi = header.firstIndex(of: "y") ?? lower.firstIndex(of: "pixel_y")
        else {
            throw GeoreferenceError(
                .unparseableRow, at: "\(source):\(headerLine)",
                "header '\(headerText)': expected x,y,lon,lat[,name] or x,y,X,Y[,name]")
        }
        var crs = gcpCRS ?? .wgs84
        let gx: Int, gy: Int
        if let lo = lower.firstIndex(where: { $0 == "lon" || $0 == "lng" || $0 == "longitude" }),
            let la = lower.firstIndex(where: { $0 == "lat" || $0 == "latitude" })
        {
            gx = lo; gy = la
        } else if let X = header.firstIndex(of: "X"), let Y = header.firstIndex(of: "Y") {
            guard let gcpCRS else {
                throw GeoreferenceError(
                    .unknownCRS, at: "\(source):\(headerLine)",
                    "columns X,Y need their CRS: pass --gcp-srs (e.g. EPSG:28992), or name them lon,lat")
            }
            gx = X; gy = Y; crs = gcpCRS
        } else {
            throw GeoreferenceError(
                .unparseableRow, at: "\(source):\(headerLine)",
                "header '\(headerText)': expected lon,lat or X,Y columns after x,y")
        }
        let ni = lower.firstIndex(where: { $0 == "name" || $0 == "id" })
        var gcps: [GCP] = []
        for record in records[(headerIndex + 1)...] where !record.isBlank && !record.isComment {
            let line = record.raw.trimmingCharacters(in: .whitespaces)
            let place = "\(source):\(record.line)"
            let f = record.texts.map { $0.trimmingCharacters(in: .whitespaces) }
            guard f.count > max(xi, yi, gx, gy) else {
                throw GeoreferenceError(
                    .unparseableRow, at: place, "expected \(header.count) values (\(header.joined(separator: ","))), got '\(line)'")
            }
            let id = ni.flatMap { $0 < f.count && !f[$0].isEmpty ? f[$0] : nil } ?? "\(gcps.count + 1)"
            gcps.append(
                GCP(
                    id: id, pixel: PixelPoint(x: try number(f[xi], "x", place), y: try number(f[yi], "y", place)),
                    ground: GroundPoint(x: try number(f[gx], header[gx], place), y: try number(f[gy], header[gy], place))))
        }
        return GCPSet(gcps: gcps, crs: crs, source: source)
    }

    /// GCPs stored in a raster (GDAL VRT `<GCPList>`, GeoTIFF), honouring the axis mapping;
    /// a `tegula georef` output's ``StoredFit`` becomes the set's mask and transform and fit-CRS
    /// hints. The one reader of a stored georeference.
    public static func readDataset(path: String, gcpCRS: CRS? = nil) throws -> GCPSet {
        let ds: Dataset
        do { ds = try Dataset(path: path) } catch {
            throw GeoreferenceError(.unreadableFile, at: path, "GDAL cannot open it for its GCPs: \(error)")
        }
        return try readDataset(ds, path: path, gcpCRS: gcpCRS)
    }

    /// ``readDataset(path:gcpCRS:)`` on a dataset already open.
    public static func readDataset(_ ds: Dataset, path: String, gcpCRS: CRS? = nil) throws -> GCPSet {
        let records = ds.gcps
        guard !records.isEmpty else {
            throw GeoreferenceError(.tooFewGCPs, at: path, "the file holds no GCPs (no <GCPList>)")
        }
        let swap = !ds.gcpsAreEastingFirst
        let gcps = records.map { r in
            GCP(
                id: r.id, pixel: PixelPoint(x: r.pixel, y: r.line),
                ground: swap ? GroundPoint(x: r.y, y: r.x) : GroundPoint(x: r.x, y: r.y))
        }
        let crs = gcpCRS ?? ds.gcpSpatialReference.map { CRS($0) } ?? .wgs84
        let stored = try StoredFit(metadata: ds.metadata(), source: path)
        return GCPSet(
            gcps: gcps, crs: crs, mask: stored.mask, transformHint: stored.transform,
            fitCRSHint: stored.fitCRS, source: path)
    }

    /// A `.points` or CSV set with the fit its ``StoredFit`` sidecar keeps (transform, fitting
    /// CRS, mask), when there is one.
    static func withSidecar(_ set: GCPSet, _ path: String) throws -> GCPSet {
        guard let stored = try StoredFit.sidecar(forGCPFile: path) else { return set }
        var s = set
        s.transformHint = stored.transform ?? s.transformHint
        s.fitCRSHint = stored.fitCRS ?? s.fitCRSHint
        s.mask = stored.mask ?? s.mask
        return s
    }

    /// The records of a `.points` or CSV file (TegulaSupport's RFC 4180 ``CSV``): each line
    /// separated by commas if it holds one, else by tabs or spaces; `#` lines are comments. A
    /// break of RFC 4180 (an unclosed quote) is an `unparseableRow` at `FILE:LINE:COLUMN`.
    static func records(_ text: String, source: String) throws -> [CSV.Record] {
        do { return try CSV.records(text, separator: .perLine, comment: "#") } catch {
            throw GeoreferenceError(.unparseableRow, at: "\(source):\(error.line):\(error.column)", error.message)
        }
    }

    static func number(_ s: String, _ what: String, _ place: String) throws -> Double {
        guard let v = Double(s.trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))) else {
            throw GeoreferenceError(.unparseableRow, at: place, "\(what) '\(s)' is not a number")
        }
        guard v.isFinite else {
            throw GeoreferenceError(.invalidCoordinate, at: place, "\(what) is \(s); coordinates must be finite numbers")
        }
        return v
    }
}
