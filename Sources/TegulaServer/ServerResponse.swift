/// A request as the server logic sees it: method, raw target, headers (names lower-cased).
public struct ServerRequest: Sendable {
    public var method: String
    public var target: String
    public var headers: [String: String]

    /// A request; header names are matched case-insensitively.
    public init(method: String = "GET", target: String, headers: [String: String] = [:]) {
        self.method = method
        self.target = target
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    /// A request whose header names are lower-case already (from the HTTP layer).
    init(method: String, target: String, lowercasedHeaders: [String: String]) {
        self.method = method
        self.target = target
        headers = lowercasedHeaders
    }
}

/// A response as the server logic produces it; the HTTP layer copies it out verbatim.
public struct ServerResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    /// A response.
    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    public static func == (a: ServerResponse, b: ServerResponse) -> Bool {
        a.status == b.status && a.body == b.body && a.headers.map { "\($0.0):\($0.1)" } == b.headers.map { "\($0.0):\($0.1)" }
    }
}

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

import Foundation
