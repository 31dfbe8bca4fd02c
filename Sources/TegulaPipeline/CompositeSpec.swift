import TegulaComposite
import TegulaGeometry
import TegulaPyramid

/// `composite:`: every map of the batch in one pyramid, stacked in ``order`` and joined at their
/// seams by ``seam`` (later maps drawn over earlier ones by default), their tones matched when
/// ``tone`` says so.
public struct CompositeSpec: Sendable, Hashable {
    /// The composited tileset (absolute after loading).
    public var output: String
    /// Zooms, format and quality of the composite (png by default; blended tiles are re-encoded).
    public var tile: TileOptions
    /// How overlapping maps are joined: `over` (the default), `cut` or `{feather: PX}`.
    public var seam: SeamMode
    /// Which map lies over which: `file` (the default), `reverse` or map names, bottom first.
    public var order: StackingOrder
    /// Whether overlapping maps' tones are matched: `off` (the default), `match` or `{anchor: MAP}`.
    public var tone: ToneMatching

    /// The tile matrix set the composite is cut in (`tile.tms:`) when it is not WebMercatorQuad;
    /// nil for EPSG:3857's grid, whose tiles are as they always were.
    public var grid: TileMatrixSet? { tile.tileMatrixSet == .webMercatorQuad ? nil : tile.tileMatrixSet }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case output, tile, seam, order, tone
    }

    /// How the maps are joined, in words: `later over earlier` for the defaults (as the
    /// composite's description has said since before `seam:`), else the seam and the order.
    var joining: String {
        let toned = tone == .off ? "" : ", tone \(tone)"
        switch (seam, order) {
        case (.over, .file): return "later over earlier" + toned
        case (.over, _): return "stacked in order \(order)" + toned
        case (_, .file): return "seam \(seam), later over earlier" + toned
        default: return "seam \(seam), order \(order)" + toned
        }
    }

    /// What the composite's tiles depend on beyond its tile options, as hashes take it: empty for
    /// the defaults, so a file without `seam:`, `order:` or `tone:` keeps the hash it had before them.
    var joinText: String {
        var text = ""
        if seam != .over { text += "seam \(seam)\n" }
        if order != .file { text += "order \(order)\n" }
        if tone != .off { text += "tone \(tone)\n" }
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
        tone = try c.decodeIfPresent(ToneMatching.self, forKey: .tone) ?? .off
    }
}
