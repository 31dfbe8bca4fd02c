/// `composite.order:`: which map is drawn over which where they overlap. `file` (the default)
/// draws later maps over earlier ones; `reverse` earlier over later; a list of map names puts
/// those maps on top in the list's order (bottom first, e.g. sheets of later dates last), over
/// every map it does not name, which keep the file's order beneath them.
public enum StackingOrder: Sendable, Hashable, CustomStringConvertible {
    case file
    case reverse
    case names([String])

    /// What the pipeline file accepts, for messages.
    static let accepted = "file, reverse or a list of map names, bottom first"

    /// Each map's place in the stack (0 at the bottom), for `maps` in file order; nil for `file`.
    public func ranks(of maps: [String]) -> [Int]? {
        switch self {
        case .file:
            return nil
        case .reverse:
            return maps.indices.map { maps.count - 1 - $0 }
        case .names(let names):
            let top = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            let below = maps.filter { top[$0] == nil }
            var rank: [String: Int] = [:]
            for (i, m) in below.enumerated() { rank[m] = i }
            for (m, i) in top { rank[m] = below.count + i }
            return maps.map { rank[$0]! }
        }
    }

    /// Why the order cannot be used with these maps (a name twice or of no map), or nil.
    public func problem(maps: [String]) -> String? {
        guard case .names(let names) = self else { return nil }
        let known = Set(maps)
        var seen: Set<String> = []
        for n in names {
            if !known.contains(n) {
                return "'\(n)' is not a map of this pipeline\(KeySuggestion.mapHint(for: n, in: maps)); expected \(StackingOrder.accepted)"
            }
            if !seen.insert(n).inserted { return "'\(n)' is named twice; each map takes one place in the stack" }
        }
        return nil
    }

    /// `file`, `reverse` or the names joined by commas, as plans and hashes write it.
    public var description: String {
        switch self {
        case .file: return "file"
        case .reverse: return "reverse"
        case .names(let n): return n.joined(separator: ", ")
        }
    }
}

extension StackingOrder: Decodable {
    /// Decode `file`, `reverse` or a list of names, naming what is accepted otherwise.
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let names = try? c.decode([String].self) {
            self = .names(names)
            return
        }
        guard let word = try? c.decode(String.self) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a stacking order; expected \(StackingOrder.accepted)")
        }
        switch word {
        case "file": self = .file
        case "reverse": self = .reverse
        default:
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "'\(word)' is not a stacking order; expected \(StackingOrder.accepted)")
        }
    }
}
