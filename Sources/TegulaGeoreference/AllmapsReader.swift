import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaSupport

/// Reads Allmaps Georeference Annotations (W3C Web Annotation, motivation "georeferencing"):
/// GCPs from `body.features` (`properties.resourceCoords` + a lon/lat Point), the mask from the
/// target's SVG `<polygon>` selector, the transform from `body.transformation`, the fitting CRS
/// from `body.resourceCrs`. Allmaps' other form, the GeoreferencedMap in its versions 1 and 2
/// (alone or as a one-map array), goes to ``GeoreferencedMapReader``.
enum AllmapsReader {
    /// `mapID` chooses one map of an AnnotationPage that holds several (its `id`, or the id's
    /// last path component); a page of several maps without it is refused, naming them.
    static func parse(_ data: Data, source: String, gcpCRS: CRS?, mapID: String? = nil) throws -> GCPSet {
        var root: Any
        do { root = try JSONSerialization.jsonObject(with: data) } catch {
            throw GeoreferenceError(.unparseableRow, at: source, "not valid JSON: \(error.localizedDescription)")
        }
        // The Allmaps CLI prints GeoreferencedMaps as an array; one GCP file georeferences one scan.
        if let maps = root as? [Any] {
            guard maps.count == 1 else {
                throw GeoreferenceError(
                    .unknownFormat, at: source,
                    "an array of \(maps.count) georeferenced maps; a GCP file describes one scan: keep one map (e.g. jq '.[0]')")
            }
            root = maps[0]
        }
        guard var annotation = root as? [String: Any] else {
            throw GeoreferenceError(
                .unknownFormat, at: source,
                "expected a JSON object (an Allmaps Georeference Annotation or GeoreferencedMap)")
        }
        if let form = try GeoreferencedMapReader.form(of: annotation, source: source) {
            return try GeoreferencedMapReader.parse(annotation, form: form, source: source, gcpCRS: gcpCRS)
        }
        // An AnnotationPage holds annotations in `items`: one is taken as it is; of several, the
        // one `mapID` names (taking the first would georeference another scan without a word).
        if let items = annotation["items"] as? [[String: Any]] {
            guard !items.isEmpty else {
                throw GeoreferenceError(.tooFewGCPs, at: "\(source): items", "the AnnotationPage has no annotations")
            }
            let ids = items.enumerated().map { i, item in item["id"] as? String ?? "items[\(i)]" }
            func matches(_ id: String, _ wanted: String) -> Bool { id == wanted || id.split(separator: "/").last.map(String.init) == wanted }
            if let mapID {
                guard let i = ids.firstIndex(where: { matches($0, mapID) }) else {
                    throw GeoreferenceError(
                        .unknownFormat, at: "\(source): items",
                        "no map '\(mapID)' in this AnnotationPage; it holds \(ids.joined(separator: ", "))")
                }
                annotation = items[i]
            } else if items.count > 1 {
                throw GeoreferenceError(
                    .unknownFormat, at: "\(source): items",
                    "the AnnotationPage holds \(items.count) maps (\(ids.joined(separator: ", "))); a GCP file georeferences one scan: choose it with --map ID (in a pipeline file, `map: ID` in the georeference section)"
                )
            } else {
                annotation = items[0]
            }
        }
        guard let body = annotation["body"] as? [String: Any],
            let features = body["features"] as? [[String: Any]]
        else {
            throw GeoreferenceError(
                .unknownFormat, at: "\(source): body.features",
                "missing: expected an Allmaps Georeference Annotation with a GeoJSON FeatureCollection body (or a GeoreferencedMap: \"type\": \"GeoreferencedMap\", or \"version\": 1 with gcps)"
            )
        }
        var gcps: [GCP] = []
        for (i, f) in features.enumerated() {
            let place = "\(source): body.features[\(i)]"
            let props = f["properties"] as? [String: Any] ?? [:]
            guard let rc = (props["resourceCoords"] ?? props["pixelCoords"]) as? [Any], rc.count >= 2,
                let x = number(rc[0]), let y = number(rc[1])
            else {
                throw GeoreferenceError(.unparseableRow, at: place, "properties.resourceCoords must be [x, y] numbers")
            }
            guard let geometry = f["geometry"] as? [String: Any], geometry["type"] as? String == "Point",
                let c = geometry["coordinates"] as? [Any], c.count >= 2,
                let lon = number(c[0]), let lat = number(c[1])
            else {
                throw GeoreferenceError(.unparseableRow, at: place, "geometry must be a GeoJSON Point [lon, lat]")
            }
            let id = (f["id"] as? String) ?? (props["id"] as? String) ?? "\(i + 1)"
            gcps.append(GCP(id: id, pixel: PixelPoint(x: x, y: y), ground: GroundPoint(x: lon, y: lat)))
        }
        var mask: [PixelPoint]?
        if let target = annotation["target"] as? [String: Any],
            let selector = target["selector"] as? [String: Any],
            let svg = selector["value"] as? String
        {
            mask = try MaskReader.parse(svg, source: "\(source): target.selector.value")
            // The whole image is what Allmaps (and Tegula) write for a map without a mask.
            let t = AnnotationTarget.target(of: annotation)
            if let m = mask, let w = t.width, let h = t.height, Set(m) == Set(GCPWriter.wholeImage(width: w, height: h)), m.count == 4 {
                mask = nil
            }
        }
        return GCPSet(
            gcps: gcps, crs: gcpCRS ?? .wgs84, mask: mask,
            transformHint: transformation(body["transformation"]),
            fitCRSHint: try resourceCRS(body["resourceCrs"], at: "\(source): body.resourceCrs"), source: source)
    }

    /// `resourceCrs` `{definition, name?, id?}`: the projection the scan is drawn in, which
    /// Allmaps fits the transform in (its "internal projection"; GCPs are projected into it
    /// before fitting). `definition` is a PROJ string, WKT or EPSG code, or a PROJJSON object.
    /// Absent = nil; present but unreadable = an error naming the key.
    static func resourceCRS(_ value: Any?, at place: String) throws -> FitCRS? {
        guard let value, !(value is NSNull) else { return nil }
        guard let crs = value as? [String: Any], let definition = crs["definition"], !(definition is NSNull) else {
            throw GeoreferenceError(
                .unknownCRS, at: place,
                "expected {\"definition\": a PROJ string, WKT, EPSG code or PROJJSON object}")
        }
        let text: String
        if let string = definition as? String {
            text = string.trimmingCharacters(in: .whitespacesAndNewlines)
        } else if JSONSerialization.isValidJSONObject(definition),
            let json = try? JSONSerialization.data(withJSONObject: definition, options: JSONStyle.compact.escapingSlashes.writingOptions)
        {
            text = String(decoding: json, as: UTF8.self)
        } else {
            throw GeoreferenceError(.unknownCRS, at: "\(place).definition", "must be a PROJ string, WKT, EPSG code or PROJJSON object")
        }
        do { return .crs(try CRS(text)) } catch {
            throw GeoreferenceError(
                .unknownCRS, at: "\(place).definition",
                "PROJ cannot read '\(text.prefix(80))': expected a PROJ string, WKT, EPSG code or PROJJSON")
        }
    }

    /// The transform a `transformation` value names, by the one table of Allmaps' names
    /// (``AllmapsTransformation``).
    static func transformation(_ value: Any?) -> TransformKind? { AllmapsTransformation.kind(value) }

    static func number(_ v: Any) -> Double? {
        if let d = v as? Double { return d }
        if let i = v as? Int { return Double(i) }
        if let n = v as? NSNumber { return n.doubleValue }
        return nil
    }
}

/// Reads a neatline mask polygon in pixel coordinates: an SVG `<polygon points="x,y …">`, a WKT
/// `POLYGON((x y, …))`, or plain `x y` / `x,y` pairs one per line.
public enum MaskReader {
    /// Read a mask file.
    public static func read(path: String) throws -> [PixelPoint] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GeoreferenceError(.unreadableFile, at: path, "cannot read the mask file (no such file or no permission)")
        }
        return try parse(String(decoding: data, as: UTF8.self), source: path)
    }

    /// Parse mask text in any of the accepted forms; at least 3 vertices.
    public static func parse(_ text: String, source: String) throws -> [PixelPoint] {
        var body = text
        if let r = text.range(of: "points=") {
            let rest = text[r.upperBound...]
            guard let q = rest.first, q == "\"" || q == "'",
                let end = rest.dropFirst().firstIndex(of: q)
            else {
                throw GeoreferenceError(.badMask, at: source, "SVG polygon points attribute is not quoted")
            }
            body = String(rest[rest.index(after: rest.startIndex)..<end])
        } else if text.uppercased().contains("POLYGON") {
            // The ")" searched for after the "(": a text whose first ")" comes first (an SVG selector
            // with a misspelt `points` that mentions "polygon") would make a reversed range.
            guard let open = text.firstIndex(of: "("), let close = text[open...].firstIndex(of: ")") else {
                throw GeoreferenceError(.badMask, at: source, "WKT polygon without parentheses; expected POLYGON((x y, …))")
            }
            body = String(text[open..<close]).replacingOccurrences(of: "(", with: "")
                .replacingOccurrences(of: ",", with: "\n")
        }
        let numbers = body.split(whereSeparator: { $0 == " " || $0 == "," || $0.isNewline || $0 == "\t" })
        var values: [Double] = []
        for n in numbers {
            guard let v = Double(n), v.isFinite else {
                throw GeoreferenceError(.badMask, at: source, "'\(n)' is not a number; expected x,y pixel pairs")
            }
            values.append(v)
        }
        guard values.count % 2 == 0, values.count >= 6 else {
            throw GeoreferenceError(.badMask, at: source, "a mask needs at least 3 x,y pixel pairs, got \(values.count) numbers")
        }
        var pts = stride(from: 0, to: values.count, by: 2).map { PixelPoint(x: values[$0], y: values[$0 + 1]) }
        if pts.count > 3, pts.first == pts.last { pts.removeLast() }
        return pts
    }

    /// The mask as WKT `POLYGON ((x y, …, x y))` in pixel coordinates (closed ring), as stored in
    /// the `TEGULA_MASK` metadata item.
    public static func wkt(_ mask: [PixelPoint]) -> String {
        let ring = (mask + [mask[0]]).map { "\($0.x) \($0.y)" }.joined(separator: ", ")
        return "POLYGON ((\(ring)))"
    }
}
