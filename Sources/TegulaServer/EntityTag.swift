import Foundation

/// Strong entity tags from content: a 64-bit hash (8 bytes per step) plus the length, stable
/// across restarts so caches stay valid.
public enum EntityTag {
    /// `"hash-length"` in hex, quoted (a strong ETag).
    public static func of(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        bytes.withUnsafeBytes { raw in
            let n = raw.count / 8
            for i in 0..<n {
                let w = raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)
                h = (h ^ w) &* 0x0000_0100_0000_01B3
                h ^= h >> 29
            }
            for i in (n * 8)..<raw.count { h = (h ^ UInt64(raw[i])) &* 0x0000_0100_0000_01B3 }
        }
        h ^= h >> 32
        return "\"\(String(h, radix: 16))-\(String(bytes.count, radix: 16))\""
    }

    /// True when an `If-None-Match` value matches the tag (weak comparison, `*` matches all).
    public static func matches(ifNoneMatch header: String, _ tag: String) -> Bool {
        header.split(separator: ",").contains { item in
            var t = item.trimmingCharacters(in: .whitespaces)
            if t == "*" { return true }
            if t.hasPrefix("W/") { t.removeFirst(2) }
            return t == tag
        }
    }
}
