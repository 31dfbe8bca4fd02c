import TegulaPyramid
import TegulaWarp

/// A pipeline-file section whose keys are all listed in `CodingKeys`; any other key is an error.
protocol StrictDecodable: Decodable {
    associatedtype CodingKeys: CodingKey & CaseIterable
}

extension WarpOptions: StrictDecodable {}
extension TileOptions: StrictDecodable {}
extension RemoveColorOptions: StrictDecodable {}

/// A key the section does not know, with the nearest known key when one is close.
struct UnknownKeyError: Error {
    var codingPath: [any CodingKey]
    var key: String
    var known: [String]

    var suggestion: String? { KeySuggestion.nearest(to: key, in: known) }

    /// Where a key of another section belongs, when it is given at the top level of a pipeline
    /// (whose known keys include `composite`): a composite's key, or a map's.
    var home: String? {
        guard known.contains("composite") else { return nil }
        if CompositeSpec.CodingKeys.allCases.contains(where: { $0.stringValue == key }) {
            return "'\(key)' belongs to the composite: write it under composite: (composite: {\(key): …})"
        }
        if MapSpec.CodingKeys.allCases.contains(where: { $0.stringValue == key }) {
            return "'\(key)' belongs to a map: write it in an item of maps:, or under map_defaults: for every map"
        }
        return nil
    }
}

/// Any string or index as a coding key, to list every key a mapping holds.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) { stringValue = "\(intValue)"; self.intValue = intValue }
}

extension Decoder {
    /// Throw ``UnknownKeyError`` for the first key of this mapping that `Keys` does not list.
    func rejectUnknownKeys<Keys: CodingKey & CaseIterable>(_: Keys.Type) throws {
        guard let all = try? container(keyedBy: AnyKey.self) else { return }  // not a mapping: decoding says so
        let known = Keys.allCases.map(\.stringValue)
        for key in all.allKeys where !known.contains(key.stringValue) {
            throw UnknownKeyError(codingPath: codingPath + [key], key: key.stringValue, known: known)
        }
    }
}

/// Decodes a ``StrictDecodable`` section after checking its keys.
struct Strict<T: StrictDecodable>: Decodable {
    var value: T
    init(from decoder: Decoder) throws {
        try decoder.rejectUnknownKeys(T.CodingKeys.self)
        value = try T(from: decoder)
    }
}

extension KeyedDecodingContainer {
    /// Decode a strict section if present.
    func decodeStrict<T: StrictDecodable>(_: T.Type, forKey key: Key) throws -> T? {
        try decodeIfPresent(Strict<T>.self, forKey: key)?.value
    }
}

/// Did-you-mean: the known key nearest a misspelt one.
enum KeySuggestion {
    /// The nearest known key: same letters ignoring case and `_`/`-` (camelCase for snake_case),
    /// else the smallest edit distance if it is at most a third of the key's length (≥ 1).
    static func nearest(to key: String, in known: [String]) -> String? {
        let norm = { (s: String) in s.lowercased().filter { $0 != "_" && $0 != "-" } }
        if let same = known.first(where: { norm($0) == norm(key) }) { return same }
        let scored = known.map { ($0, editDistance(key.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(1, key.count / 3) ? best.0 : nil
    }

    /// What to say after an unknown map's name: the nearest of `maps` (" (did you mean 'r1c2'?)"),
    /// else the first few (" (its maps: r1c1, r1c2, …)").
    static func mapHint(for name: String, in maps: [String]) -> String {
        if let near = nearest(to: name, in: maps) { return " (did you mean '\(near)'?)" }
        return " (its maps: " + maps.prefix(5).joined(separator: ", ") + (maps.count > 5 ? ", …" : "") + ")"
    }

    /// Levenshtein distance (insertions, deletions, substitutions; transposition counts as 1).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
