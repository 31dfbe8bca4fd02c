/// A request target split into its path segments and query, by the one rule every Tegula server
/// applies (tiles, the editor, what comes next): segments are split on `/` first and then
/// percent-decoded, so `%2f` can never add a level; a decoded segment that is `.`, `..`, empty,
/// or holds `/`, `\` or NUL is malformed (400). Numbers are plain decimal without sign or leading
/// zeros (``number(_:maxDigits:)``), so no two paths name one thing.
///
/// Works on the UTF-8 bytes: this runs for every tile request, and `Character`-level string
/// searching was its largest cost.
public struct RequestTarget: Equatable, Sendable {
    /// The decoded path segments; empty for `/`.
    public var segments: [String]
    /// The raw query after `?` (percent-encoded), empty when none.
    public let rawQuery: String
    /// The query's `name=value` pairs, percent-decoded once at parsing (`+` stays a plus:
    /// `lon=+4.5` is a number); a name repeated keeps its first value, a pair with a bad escape
    /// is dropped.
    public let query: [String: String]

    /// Parses `/path?query`; throws a 400 ``ServerError`` naming what is wrong.
    public init(_ target: String) throws(ServerError) {
        let bytes = target.utf8
        let q = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        let rawPath = bytes[..<q]
        rawQuery = q < bytes.endIndex ? String(target[target.utf8.index(after: q)...]) : ""
        query = rawQuery.isEmpty ? [:] : Self.pairs(rawQuery)
        guard rawPath.first == UInt8(ascii: "/") else { throw .malformedTarget(reason: "the path must start with /") }
        segments = []
        if rawPath.count == 1 { return }
        segments.reserveCapacity(5)
        for raw in rawPath.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard let s = Self.percentDecode(raw) else { throw .malformedTarget(reason: "bad percent-encoding") }
            if s.isEmpty || s == "." || s == ".." || s.utf8.contains(where: { $0 == 0x2F || $0 == 0x5C || $0 == 0 }) {
                throw .malformedTarget(reason: "path segment '\(String(decoding: raw, as: UTF8.self))' is not allowed")
            }
            segments.append(s)
        }
    }

    /// The path as decoded segments joined by `/`, with a leading `/`.
    public var path: String { "/" + segments.joined(separator: "/") }

    /// The `name=value` pairs of a raw query, by ``query``'s rules.
    static func pairs(_ rawQuery: String) -> [String: String] {
        var out: [String: String] = [:]
        for pair in rawQuery.utf8.split(separator: UInt8(ascii: "&")) {
            let kv = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let k = Self.percentDecode(Substring(kv[0]).utf8), !k.isEmpty,
                let v = kv.count > 1 ? Self.percentDecode(Substring(kv[1]).utf8) : ""
            else { continue }
            if out[k] == nil { out[k] = v }
        }
        return out
    }

    /// A query value as a finite decimal number; nil when absent or not a number.
    public func double(_ name: String) -> Double? {
        query[name].flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil }
    }

    /// A non-negative decimal without sign or leading zeros, at most `maxDigits` long.
    public static func number(_ s: Substring.UTF8View, maxDigits: Int) -> Int? {
        guard !s.isEmpty, s.count <= maxDigits, s.count == 1 || s.first != UInt8(ascii: "0") else { return nil }
        var n = 0
        for c in s {
            guard c >= 48 && c <= 57 else { return nil }
            n = n * 10 + Int(c - 48)
        }
        return n
    }

    /// ``number(_:maxDigits:)`` of a whole string.
    public static func number(_ s: String, maxDigits: Int) -> Int? { number(s.utf8[...], maxDigits: maxDigits) }

    /// Strict percent-decoding of one segment; nil on a bad escape or invalid UTF-8.
    static func percentDecode(_ s: Substring.UTF8View) -> String? {
        guard s.contains(0x25) else { return String(Substring(s)) }
        var out: [UInt8] = []
        var it = Array(s)[...]
        while let c = it.popFirst() {
            if c == UInt8(ascii: "%") {
                guard it.count >= 2, let h = hex(it.popFirst()!), let l = hex(it.popFirst()!) else { return nil }
                out.append(h << 4 | l)
            } else {
                out.append(c)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 65...70: return c - 55
        case 97...102: return c - 87
        default: return nil
        }
    }
}
