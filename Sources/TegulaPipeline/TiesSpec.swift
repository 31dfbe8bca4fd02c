import TegulaGeometry

/// One entry of the top-level `ties:` list: `[MAP_A, [x, y], MAP_B, [x, y]]`, the same place on
/// two scans in their pixels (GDAL's convention: x right, y down from the top-left corner).
/// Map names are resolved against the maps when the pipeline is loaded (``SeriesStep``).
public struct TieSpec: Sendable, Hashable, Codable {
    /// The first map's name.
    public var mapA: String
    /// The place on the first map's scan.
    public var pixelA: PixelPoint
    /// The second map's name.
    public var mapB: String
    /// The place on the second map's scan.
    public var pixelB: PixelPoint

    /// A tie from its parts.
    public init(mapA: String, pixelA: PixelPoint, mapB: String, pixelB: PixelPoint) {
        self.mapA = mapA
        self.pixelA = pixelA
        self.mapB = mapB
        self.pixelB = pixelB
    }

    public init(from decoder: Decoder) throws {
        var c = try decoder.unkeyedContainer()
        func point() throws -> PixelPoint {
            let at = c.currentIndex
            let xy = try c.decode([Double].self)
            guard xy.count == 2 else {
                // At the pixel itself: the container has moved past it.
                throw DecodingError.dataCorrupted(
                    .init(codingPath: c.codingPath + [AnyKey(intValue: at)], debugDescription: "a tie's pixel is [x, y], got \(xy.count) numbers"))
            }
            return PixelPoint(x: xy[0], y: xy[1])
        }
        mapA = try c.decode(String.self)
        pixelA = try point()
        mapB = try c.decode(String.self)
        pixelB = try point()
        guard c.isAtEnd else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "a tie is [MAP_A, [x, y], MAP_B, [x, y]]: four items, got more")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(mapA)
        try c.encode([pixelA.x, pixelA.y])
        try c.encode(mapB)
        try c.encode([pixelB.x, pixelB.y])
    }
}

/// `ties: auto`, or `ties: {auto: {max_per_pair: N, min_overlap_px: P}}`: ties found by matching
/// the overlap of every two sheets whose fits overlap (``AutoTies``). Hand ties then come from
/// `ties_from:`, and both are fitted together.
public struct AutoTiesSpec: Sendable, Hashable, Codable {
    /// Ties kept at most per pair of sheets, one per cell of a grid over their overlap.
    public var maxPerPair: Int
    /// The overlap's width across, in scan pixels, under which a pair is not matched.
    public var minOverlapPixels: Double

    /// The defaults: 16 ties a pair, overlaps at least 16 pixels wide.
    public init(maxPerPair: Int = 16, minOverlapPixels: Double = 16) {
        self.maxPerPair = maxPerPair
        self.minOverlapPixels = minOverlapPixels
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case maxPerPair = "max_per_pair", minOverlapPixels = "min_overlap_px"
    }
}

extension AutoTiesSpec: StrictDecodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = AutoTiesSpec()
        maxPerPair = try c.decodeIfPresent(Int.self, forKey: .maxPerPair) ?? defaults.maxPerPair
        minOverlapPixels = try c.decodeIfPresent(Double.self, forKey: .minOverlapPixels) ?? defaults.minOverlapPixels
        guard maxPerPair >= 3 else {
            throw DecodingError.dataCorruptedError(
                forKey: .maxPerPair, in: c, debugDescription: "\(maxPerPair) ties a pair cannot show the overlap matches; give 3 or more")
        }
        guard minOverlapPixels.isFinite, minOverlapPixels > 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .minOverlapPixels, in: c, debugDescription: "\(minOverlapPixels) is not a width: give a number of pixels > 0")
        }
    }
}

/// The value of the top-level `ties:` key: a list of hand ties (``TieSpec``), `auto`, or
/// `{auto: {…}}` (``AutoTiesSpec``).
struct TiesSection: Decodable {
    var list: [TieSpec] = []
    var auto: AutoTiesSpec?

    enum AutoKey: String, CodingKey, CaseIterable { case auto }

    init(from decoder: Decoder) throws {
        if let word = try? decoder.singleValueContainer().decode(String.self) {
            guard word == "auto" else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription:
                            "'\(word)' is not a ties value: give a list of [MAP_A, [x, y], MAP_B, [x, y]], auto, or {auto: {max_per_pair: N, min_overlap_px: P}}"
                    ))
            }
            auto = AutoTiesSpec()
        } else if (try? decoder.container(keyedBy: AnyKey.self)) != nil {
            try decoder.rejectUnknownKeys(AutoKey.self)
            let c = try decoder.container(keyedBy: AutoKey.self)
            guard c.contains(.auto) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription: "a ties mapping is {auto: {max_per_pair: N, min_overlap_px: P}}; auto is missing"))
            }
            if let on = try? c.decode(Bool.self, forKey: .auto) {
                guard on else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .auto, in: c, debugDescription: "auto: false finds no ties; leave ties: out, or give a list of hand ties")
                }
                auto = AutoTiesSpec()
                return
            }
            auto = try c.decodeStrict(AutoTiesSpec.self, forKey: .auto) ?? AutoTiesSpec()
        } else {
            list = try [TieSpec](from: decoder)
        }
    }
}
