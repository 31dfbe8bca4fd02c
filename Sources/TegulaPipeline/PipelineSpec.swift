import TegulaPyramid
import TegulaWarp

/// A whole pipeline file: `version: 1`, an optional work folder, the maps (listed in `maps:`,
/// read from `maps_from:`, with `map_defaults:` merged under each) and an optional composite.
public struct PipelineSpec: Sendable, Hashable {
    /// The format version; only 1 exists.
    public var version: Int
    /// Where stage outputs and the manifest go (absolute after loading); default
    /// `<pipeline folder>/.tegula/<pipeline file name>`.
    public var work: String?
    /// The maps, in drawing order for a composite (later over earlier): those of `maps:`, then
    /// those of `maps_from:`, each with `map_defaults:` merged under it. Filled in by
    /// ``Pipeline/load(path:)``, which knows where each came from.
    public var maps: [MapSpec] = []
    /// Where more maps come from: a CSV sheet list or a glob of scans.
    public var mapsFrom: MapsFrom?
    /// One pyramid of all maps, if wanted.
    public var composite: CompositeSpec?
    /// `ties:` between the maps' scans: tied maps are fitted together (``SeriesStep``).
    public var ties: [TieSpec] = []
    /// `ties_from:`: a CSV file of more ties (``TieList``); after loading its ties follow those
    /// of `ties:` in ``ties`` and the path is absolute.
    public var tiesFrom: String?
    /// `ties: auto` (or `{auto: {…}}`): ties found by matching the sheets' overlaps (``AutoTies``);
    /// after loading they follow the hand ties in ``ties``.
    public var autoTies: AutoTiesSpec?
    /// `tie_weight:`: how many GCPs each image of a tie point weighs (default 100, `SeriesFit.defaultTieWeight`).
    public var tieWeight: Double?
    /// `quality:`: limits every sheet's fit must keep.
    public var quality: QualitySpec?

    /// The versions this build reads.
    public static let supportedVersions = [1]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case version, work, maps, mapsFrom = "maps_from", mapDefaults = "map_defaults", composite
        case ties, tiesFrom = "ties_from", tieWeight = "tie_weight", quality
    }
}

/// `map_defaults:`: sections merged under every map's own (a map's keys win, key by key within a
/// section). The warp and tile sections are complete on their own and checked here; the
/// georeference section only names keys a map's section may take, and is checked once merged.
struct MapDefaults: Decodable, StrictDecodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case georeference, warp, tile, output, removeColor = "remove_color"
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if c.contains(.georeference) {
            try c.superDecoder(forKey: .georeference).rejectUnknownKeys(GeoreferenceSpec.CodingKeys.self)
            _ = try c.decode([String: Ignored].self, forKey: .georeference)
        }
        _ = try c.decodeStrict(WarpOptions.self, forKey: .warp)
        _ = try c.decodeStrict(TileOptions.self, forKey: .tile)
        _ = try c.decodeStrict(RemoveColorOptions.self, forKey: .removeColor)
        if let o = try c.decodeIfPresent(String.self, forKey: .output) {
            do { _ = try PathPattern(o).expand(name: "x", stem: "x") } catch let e as PipelineError {
                throw DecodingError.dataCorruptedError(forKey: .output, in: c, debugDescription: e.message)
            }
        }
    }
}

/// Any YAML value, decoded only to check the shape around it.
struct Ignored: Decodable {
    init(from decoder: Decoder) throws {}
}

extension PipelineSpec: Decodable, StrictDecodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.decode(Int.self, forKey: .version)
        guard PipelineSpec.supportedVersions.contains(version) else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: c,
                debugDescription:
                    "version \(version) is not known to this tegula; it reads version 1")
        }
        work = try c.decodeIfPresent(String.self, forKey: .work)
        // The entries of `maps:` are decoded one by one, with the defaults merged under them.
        _ = try c.decodeIfPresent([Ignored].self, forKey: .maps)
        mapsFrom = try c.decodeIfPresent(MapsFrom.self, forKey: .mapsFrom)
        _ = try c.decodeStrict(MapDefaults.self, forKey: .mapDefaults)
        if !c.contains(.maps) && mapsFrom == nil {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: c.codingPath,
                    debugDescription:
                        "missing required key 'maps': a pipeline needs maps: (a list) or maps_from: (a CSV sheet list or a glob)"))
        }
        composite = try c.decodeStrict(CompositeSpec.self, forKey: .composite)
        let section = try c.decodeIfPresent(TiesSection.self, forKey: .ties)
        ties = section?.list ?? []
        autoTies = section?.auto
        tiesFrom = try c.decodeIfPresent(String.self, forKey: .tiesFrom)
        tieWeight = try c.decodeIfPresent(Double.self, forKey: .tieWeight)
        if let w = tieWeight, !(w > 0 && w.isFinite) {
            throw DecodingError.dataCorruptedError(
                forKey: .tieWeight, in: c,
                debugDescription: "\(w) is not a tie weight: give a number > 0 (1: a tie point weighs as one GCP; the default, 100, holds ties)")
        }
        quality = try c.decodeStrict(QualitySpec.self, forKey: .quality)
    }
}
