/// `composite.tone:`: whether the composite matches the tones of overlapping maps
/// (TegulaComposite's `ToneMatch`). `off` (the default) leaves every map's pixels as warped;
/// `match` solves a gain and an offset per map and channel over each group of overlapping maps,
/// the group's mean anchored; `{anchor: MAP}` does so with that map keeping its own tone.
public enum ToneMatching: Sendable, Hashable, CustomStringConvertible {
    case off
    /// Matched; the anchor map's name, or nil for the group's mean.
    case match(anchor: String?)

    /// What the pipeline file accepts, for messages.
    static let accepted = "off, match or {anchor: MAP}"

    /// `off`, `match` or `match anchor MAP`, as plans and hashes write it.
    public var description: String {
        switch self {
        case .off: return "off"
        case .match(nil): return "match"
        case .match(let a?): return "match anchor \(a)"
        }
    }

    /// Why the tone cannot be used with these maps (an anchor of no map), or nil.
    func problem(maps: [String]) -> String? {
        guard case .match(let a?) = self, !maps.contains(a) else { return nil }
        return "anchor '\(a)' is not a map of this pipeline\(KeySuggestion.mapHint(for: a, in: maps)); expected \(ToneMatching.accepted)"
    }
}

extension ToneMatching: Decodable {
    enum CodingKeys: String, CodingKey { case anchor }

    /// Decode `off`, `match` or `{anchor: MAP}`, naming what is accepted otherwise.
    public init(from decoder: Decoder) throws {
        if let c = try? decoder.singleValueContainer(), let word = try? c.decode(String.self) {
            switch word {
            case "off": self = .off
            case "match": self = .match(anchor: nil)
            default: throw DecodingError.dataCorruptedError(in: c, debugDescription: "'\(word)' is not a tone; expected \(ToneMatching.accepted)")
            }
            return
        }
        guard let keyed = try? decoder.container(keyedBy: AnyKey.self) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a tone; expected \(ToneMatching.accepted)"))
        }
        for key in keyed.allKeys where key.stringValue != "anchor" {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath + [key],
                    debugDescription:
                        "'\(key.stringValue)' is not a key of tone; expected \(ToneMatching.accepted)"))
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self = .match(anchor: try c.decode(String.self, forKey: .anchor))
    }
}
