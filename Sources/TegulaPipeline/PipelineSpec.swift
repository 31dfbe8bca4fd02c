/// A whole pipeline file: `version: 1`, an optional work folder, the maps and an optional
/// composite.
public struct PipelineSpec: Sendable, Hashable {
    /// The format version; only 1 exists.
    public var version: Int
    /// Where stage outputs and the manifest go (absolute after loading); default
    /// `<pipeline folder>/.tegula/<pipeline file name>`.
    public var work: String?
    /// The maps, in drawing order for a composite (later over earlier).
    public var maps: [MapSpec]
    /// One pyramid of all maps, if wanted.
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
