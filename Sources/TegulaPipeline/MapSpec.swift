import TegulaPyramid
import TegulaWarp

/// One map of a pipeline file: the scan, how it is georeferenced, the warp and tile settings and
/// where its tileset goes.
public struct MapSpec: Sendable, Hashable {
    /// Unique within the file; names the work folder and, by default, the tileset.
    public var name: String
    /// The scan (absolute after loading).
    public var input: String
    /// nil when the input is already georeferenced (geotransform, GCPs or a `georef.vrt`).
    public var georeference: GeoreferenceSpec?
    public var warp: WarpOptions
    public var tile: TileOptions
    /// The tileset: a folder, `*.mbtiles` or `*.pmtiles` (absolute after loading); nil only in a
    /// composite batch.
    public var output: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, input, georeference, warp, tile, output
    }
}

extension MapSpec: Decodable, StrictDecodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }), !name.hasPrefix(".") else {
            throw DecodingError.dataCorruptedError(forKey: .name, in: c, debugDescription:
                "'\(name)' cannot name a folder; use letters, digits, '-', '_' and '.' (not first)")
        }
        input = try c.decode(String.self, forKey: .input)
        georeference = try c.decodeStrict(GeoreferenceSpec.self, forKey: .georeference)
        warp = try c.decodeStrict(WarpOptions.self, forKey: .warp) ?? WarpOptions()
        tile = try c.decodeStrict(TileOptions.self, forKey: .tile) ?? TileOptions()
        output = try c.decodeIfPresent(String.self, forKey: .output)
    }
}

/// `composite:`: every map of the batch in one pyramid, later maps drawn over earlier ones.
public struct CompositeSpec: Sendable, Hashable {
    /// The composited tileset (absolute after loading).
    public var output: String
    /// Zooms and format of the composite (png only: blending needs alpha).
    public var tile: TileOptions

    enum CodingKeys: String, CodingKey, CaseIterable {
        case output, tile
    }
}

extension CompositeSpec: Decodable, StrictDecodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        output = try c.decode(String.self, forKey: .output)
        tile = try c.decodeStrict(TileOptions.self, forKey: .tile) ?? TileOptions()
        if let f = tile.format, f != .png {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [CodingKeys.tile, TileOptions.CodingKeys.format],
                debugDescription: "a composite is written as png (blending needs alpha), not \(f.rawValue)"))
        }
    }
}

/// A whole pipeline file: `version: 1`, an optional work folder, the maps and an optional
/// composite.
public struct PipelineSpec: Sendable, Hashable {
    /// The format version; only 1 exists.
    public var version: Int
    /// Where stage outputs and the manifest go (absolute after loading); default
    /// `<pipeline folder>/.tegula/<pipeline file name>`.
    public var work: String?
    public var maps: [MapSpec]
    public var composite: CompositeSpec?

    /// The versions this build reads.
    public static let supportedVersions = [1]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case version, work, maps, composite
    }
}

extension PipelineSpec: Decodable, StrictDecodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.decode(Int.self, forKey: .version)
        guard PipelineSpec.supportedVersions.contains(version) else {
            throw DecodingError.dataCorruptedError(forKey: .version, in: c, debugDescription:
                "version \(version) is not known to this tegula; it reads version 1")
        }
        work = try c.decodeIfPresent(String.self, forKey: .work)
        maps = try c.decode([Strict<MapSpec>].self, forKey: .maps).map(\.value)
        guard !maps.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .maps, in: c, debugDescription: "lists no map")
        }
        var seen: Set<String> = []
        for (i, m) in maps.enumerated() {
            guard seen.insert(m.name).inserted else {
                throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [CodingKeys.maps, AnyKey(intValue: i), MapSpec.CodingKeys.name],
                                                        debugDescription: "a second map named '\(m.name)'; names must be unique"))
            }
        }
        composite = try c.decodeStrict(CompositeSpec.self, forKey: .composite)
        if composite == nil, let i = maps.firstIndex(where: { $0.output == nil }) {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [CodingKeys.maps, AnyKey(intValue: i)],
                debugDescription: "map '\(maps[i].name)' needs an output (a folder, .mbtiles or .pmtiles)"))
        }
    }
}
