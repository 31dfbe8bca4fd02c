import TegulaWarp

/// `remove_color:`, a map's section (and `map_defaults:`'s), as the pipeline file writes it: the
/// front end of the warp's ``RemoveColorOptions``. Strict keys; see `pipelines/schema.json`.
extension RemoveColorOptions: Codable {
    /// The keys a pipeline file may use under `remove_color:`.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case color, threshold, hardness
    }

    /// Decode, naming what would be right when a value is wrong.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let text = try c.decodeIfPresent(String.self, forKey: .color) ?? "auto"
        guard let paper = Self.paper(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: .color, in: c,
                debugDescription:
                    "'\(text)' is not a colour; expected auto or \"#RRGGBB\" (quoted in YAML), e.g. \"#F2E8D0\"")
        }
        let threshold = try c.decodeIfPresent(Double.self, forKey: .threshold) ?? Self.defaultThreshold
        let hardness = try c.decodeIfPresent(Double.self, forKey: .hardness) ?? Self.defaultHardness
        if let why = Self.problem(threshold: threshold, hardness: 0.5) {
            throw DecodingError.dataCorruptedError(forKey: .threshold, in: c, debugDescription: why)
        }
        if let why = Self.problem(threshold: 0.5, hardness: hardness) {
            throw DecodingError.dataCorruptedError(forKey: .hardness, in: c, debugDescription: why)
        }
        self.init(color: paper, threshold: threshold, hardness: hardness)
    }

    /// Encode with the same keys (for hashing and the plan).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch color {
        case .auto: try c.encode("auto", forKey: .color)
        case .color(let rgb): try c.encode(rgb.hex, forKey: .color)
        }
        try c.encode(threshold, forKey: .threshold)
        try c.encode(hardness, forKey: .hardness)
    }
}
