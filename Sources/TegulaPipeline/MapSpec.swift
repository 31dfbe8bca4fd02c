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
    /// Warp stage options (`warp:`), owned by TegulaWarp.
    public var warp: WarpOptions
    /// Tile stage options (`tile:`), owned by TegulaPyramid.
    public var tile: TileOptions
    /// `remove_color:`: the scan's paper made transparent (``RemoveColorOptions``); nil keeps it.
    public var removeColor: RemoveColorOptions?
    /// The tileset: a folder, `*.mbtiles`, `*.pmtiles` or `*.gpkg` (absolute after loading); nil only in a
    /// composite batch.
    public var output: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, input, georeference, warp, tile, output, removeColor = "remove_color"
    }
}

extension MapSpec: Decodable, StrictDecodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }), !name.hasPrefix(".") else {
            throw DecodingError.dataCorruptedError(
                forKey: .name, in: c,
                debugDescription:
                    "'\(name)' cannot name a folder; use letters, digits, '-', '_' and '.' (not first)")
        }
        input = try c.decode(String.self, forKey: .input)
        georeference = try c.decodeStrict(GeoreferenceSpec.self, forKey: .georeference)
        warp = try c.decodeStrict(WarpOptions.self, forKey: .warp) ?? WarpOptions()
        tile = try c.decodeStrict(TileOptions.self, forKey: .tile) ?? TileOptions()
        removeColor = try c.decodeStrict(RemoveColorOptions.self, forKey: .removeColor)
        output = try c.decodeIfPresent(String.self, forKey: .output)
        if let output, let why = tile.refusal(output: output) {
            throw DecodingError.dataCorruptedError(forKey: .output, in: c, debugDescription: why)
        }
    }
}
