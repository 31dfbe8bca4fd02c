/// How the composite joins maps where they overlap (`composite.seam:`): stacked (`over`, the
/// default, Porter–Duff over in the stacking order), cut along the midline between their masks
/// (`cut`: each pixel from the map whose mask edge is farthest), or blended across a band
/// (`{feather: PX}`: weights rising with the distance to each map's mask edge up to PX pixels of
/// the max zoom). See ``SeamBlender``.
public enum SeamMode: Sendable, Hashable, CustomStringConvertible {
    case over
    case cut
    /// Band width in pixels of the composite's max zoom (> 0).
    case feather(Double)

    /// What the pipeline file accepts, for messages.
    public static let accepted = "over, cut or {feather: PX} (PX > 0, pixels at the max zoom)"

    /// `over`, `cut` or `feather PX`, as plans and hashes write it.
    public var description: String {
        switch self {
        case .over: return "over"
        case .cut: return "cut"
        case .feather(let px): return "feather \(px)"
        }
    }
}

extension SeamMode: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case feather }

    /// Decode `over`, `cut` or `{feather: PX}`, naming what is accepted when it is none of them.
    public init(from decoder: Decoder) throws {
        if let c = try? decoder.singleValueContainer(), let text = try? c.decode(String.self) {
            switch text {
            case "over": self = .over
            case "cut": self = .cut
            case "feather":
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "feather needs its band width: {feather: PX}, e.g. {feather: 16}")
            default:
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "'\(text)' is not a seam; expected \(SeamMode.accepted)")
            }
            return
        }
        guard let keyed = try? decoder.container(keyedBy: AnyCodingKey.self) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a seam; expected \(SeamMode.accepted)"))
        }
        for key in keyed.allKeys where key.stringValue != "feather" {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath + [key],
                    debugDescription:
                        "'\(key.stringValue)' is not a seam; expected \(SeamMode.accepted)"))
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let px = try c.decode(Double.self, forKey: .feather)
        guard px > 0, px.isFinite, px <= 4096 else {
            throw DecodingError.dataCorruptedError(
                forKey: .feather, in: c,
                debugDescription:
                    "feather \(px) is out of range; expected a band width in pixels of the max zoom, 0 < PX ≤ 4096")
        }
        self = .feather(px)
    }

    /// Any key, to name one the section does not know.
    struct AnyCodingKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
