import TegulaSupport

/// `maps_from:`: where the maps of a collection come from, besides (or instead of) `maps:`.
/// A CSV sheet list (`maps_from: sheets.csv`, see ``SheetList``), a glob of scans with a GCP path
/// pattern (`maps_from: {glob: "scans/*.tif", gcps: "gcps/{stem}.points"}`), where each match
/// becomes a map named after its file stem, or an AnnotationPage of Georeference Annotations (a
/// `.json` file or an http(s) URL), where each annotation becomes a map of its target's IIIF image
/// named by the last path component of its id.
public enum MapsFrom: Sendable, Hashable {
    /// A CSV file with header `name,input,gcps[,transform,gcp_srs,mask]`; absolute after loading.
    case sheetList(String)
    /// Scans matching a glob, each with the GCP file the pattern names (`{stem}`, `{name}`).
    case glob(pattern: String, gcps: String)
    /// An AnnotationPage: a file (absolute after loading) or an http(s) URL.
    case annotationPage(String)

    enum CodingKeys: String, CodingKey, CaseIterable {
        case glob, gcps
    }
}

/// The glob form of `maps_from:`, decoded strictly.
struct GlobSource: Decodable, StrictDecodable {
    var glob: String
    var gcps: String
    typealias CodingKeys = MapsFrom.CodingKeys

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        glob = try c.decode(String.self, forKey: .glob)
        gcps = try c.decode(String.self, forKey: .gcps)
        guard glob.contains("*") || glob.contains("?") || glob.contains("[") else {
            throw DecodingError.dataCorruptedError(
                forKey: .glob, in: c,
                debugDescription:
                    "'\(glob)' has no wildcard; a glob such as scans/*.tif names many scans (for one scan use maps:)")
        }
        do { _ = try PathPattern(gcps).expand(name: "x", stem: "x") } catch let e as PipelineError {
            throw DecodingError.dataCorruptedError(forKey: .gcps, in: c, debugDescription: e.message)
        }
        guard gcps.contains("{") else {
            throw DecodingError.dataCorruptedError(
                forKey: .gcps, in: c,
                debugDescription:
                    "'\(gcps)' names one file for every scan; use a pattern such as gcps/{stem}.points")
        }
    }
}

extension MapsFrom: Decodable {
    public init(from decoder: Decoder) throws {
        if let path = try? decoder.singleValueContainer().decode(String.self) {
            if Location(path).isURL || Pipeline.isAnnotationFile(path) {
                self = .annotationPage(path)
                return
            }
            guard path.lowercased().hasSuffix(".csv") else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription:
                            "'\(path)' is neither a .csv sheet list nor an AnnotationPage (.json or URL); give a CSV file (name,input,gcps), "
                            + "page.json, or {glob: \"scans/*.tif\", gcps: \"gcps/{stem}.points\"}"))
            }
            self = .sheetList(path)
            return
        }
        let g = try Strict<GlobSource>(from: decoder).value
        self = .glob(pattern: g.glob, gcps: g.gcps)
    }
}

/// A path with placeholders: `{name}` (the map's name) and `{stem}` (the scan's file name
/// without extension), as in `output: out/{name}.pmtiles` or `gcps: gcps/{stem}.points`.
struct PathPattern {
    let text: String
    init(_ text: String) { self.text = text }

    static let placeholders = ["name", "stem"]

    /// True when the text holds a placeholder.
    var hasPlaceholders: Bool { text.contains("{") }

    /// The text with its placeholders filled; an unknown or unclosed placeholder is an error
    /// without a place (the caller knows the key).
    func expand(name: String, stem: String) throws -> String {
        var out = ""
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw PipelineError(.invalid, "'\(text)': a '{' is never closed; placeholders are {name} and {stem}")
            }
            let key = String(rest[rest.index(after: open)..<close])
            switch key {
            case "name": out += name
            case "stem": out += stem
            default:
                let hint = KeySuggestion.nearest(to: key, in: PathPattern.placeholders).map { "; did you mean {\($0)}?" } ?? ""
                throw PipelineError(.invalid, "'\(text)': unknown placeholder {\(key)}\(hint) (placeholders are {name} and {stem})")
            }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }
}
