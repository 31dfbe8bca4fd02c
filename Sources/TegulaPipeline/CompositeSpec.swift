import TegulaComposite
import TegulaPyramid

/// `composite:`: every map of the batch in one pyramid, stacked in ``order`` and joined at their
/// seams by ``seam`` (later maps drawn over earlier ones by default).
public struct CompositeSpec: Sendable, Hashable {
    /// The composited tileset (absolute after loading).
    public var output: String
    /// Zooms, format and quality of the composite (png by default; blended tiles are re-encoded).
    public var tile: TileOptions
    /// How overlapping maps are joined: `over` (the default), `cut` or `{feather: PX}`.
    public var seam: SeamMode
    /// Which map lies over which: `file` (the default), `reverse` or map names, bottom first.
    public var order: StackingOrder

    enum CodingKeys: String, CodingKey, CaseIterable {
        case output, tile, seam, order
    }

    /// How the maps are joined, in words: `later over earlier` for the defaults (as the
    /// composite's description has said since before `seam:`), else the seam and the order.
    var joining: String {
        switch (seam, order) {
        case (.over, .file): return "later over earlier"
        case (.over, _): return "stacked in order \(order)"
        case (_, .file): return "seam \(seam), later over earlier"
        default: return "seam \(seam), order \(order)"
        }
    }

    /// What the composite's tiles depend on beyond its tile options, as hashes take it: empty for
    /// the defaults, so a file without `seam:` or `order:` keeps the hash it had before them.
    var joinText: String {
        var text = ""
        if seam != .over { text += "seam \(seam)\n" }
        if order != .file { text += "order \(order)\n" }
        return text
    }
}

extension CompositeSpec: Decodable, StrictDecodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        output = try c.decode(String.self, forKey: .output)
        tile = try c.decodeStrict(TileOptions.self, forKey: .tile) ?? TileOptions()
        seam = try c.decodeIfPresent(SeamMode.self, forKey: .seam) ?? .over
        order = try c.decodeIfPresent(StackingOrder.self, forKey: .order) ?? .file
    }
}
