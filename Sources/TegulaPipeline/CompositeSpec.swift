import TegulaPyramid

/// `composite:`: every map of the batch in one pyramid, later maps drawn over earlier ones.
public struct CompositeSpec: Sendable, Hashable {
    /// The composited tileset (absolute after loading).
    public var output: String
    /// Zooms, format and quality of the composite (png by default; blended tiles are re-encoded).
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
    }
}
