import Foundation
import TegulaSupport

/// Strong entity tags from content: a 64-bit hash (8 bytes per step; TegulaSupport's FNV1a.words) plus the length, stable
/// across restarts so caches stay valid.
public enum EntityTag {
    /// `"hash-length"` in hex, quoted (a strong ETag): ``FNV1a/words(_:)`` of the bytes.
    public static func of(_ bytes: [UInt8]) -> String {
        let h = bytes.withUnsafeBytes { FNV1a.words($0) }
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
