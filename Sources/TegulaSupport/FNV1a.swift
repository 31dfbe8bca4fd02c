/// The 64-bit FNV-1a hash (Fowler–Noll–Vo, offset basis 0xcbf29ce484222325, prime
/// 0x100000001b3), fed bytes as they come: the one non-cryptographic content hash, behind the
/// PMTiles writer's duplicate-tile index and the version strings of fits and on-demand sources,
/// with its word-at-a-time variant ``words(_:)`` behind the served tiles' ETags.
/// Its values name things other programs keep (ETags, `?v=` in URLs): never change them.
public struct FNV1a: Sendable, Equatable {
    /// The hash of the bytes fed so far (the offset basis when none).
    public var value: UInt64 { state }
    @usableFromInline var state: UInt64 = 0xcbf2_9ce4_8422_2325

    /// A hasher that has been fed nothing.
    public init() {}

    /// Feeds `bytes`, in order.
    @inlinable
    public mutating func update<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        var h = state
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        state = h
    }

    /// Feeds a string's UTF-8 bytes (no terminator).
    @inlinable
    public mutating func update(_ text: String) { update(text.utf8) }

    /// ``value`` as 16 lower-case hex digits, zero-padded (safe in a quoted ETag and a URL query).
    public var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The hash of `bytes`.
    @inlinable
    public static func hash<S: Sequence>(_ bytes: S) -> UInt64 where S.Element == UInt8 {
        var h = FNV1a()
        h.update(bytes)
        return h.value
    }

    /// The hash of a string's UTF-8 bytes as 16 hex digits.
    public static func hex(_ text: String) -> String {
        var h = FNV1a()
        h.update(text)
        return h.hex
    }

    /// FNV-1a's word-at-a-time variant for whole buffers: the same prime over 8-byte words, each
    /// step folded (`h ^= h >> 29`), seeded with the golden-ratio constant and the length, the
    /// tail bytes one by one, then folded once more. Not the byte-wise ``hash(_:)``'s value: it is
    /// the served tiles' ETag (``EntityTag`` in TegulaServer), about eight times fewer steps per
    /// tile, and its values are in clients' caches too: never change them.
    public static func words(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(raw.count)
        let n = raw.count / 8
        for i in 0..<n {
            let w = raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)
            h = (h ^ w) &* 0x100_0000_01b3
            h ^= h >> 29
        }
        for i in (n * 8)..<raw.count { h = (h ^ UInt64(raw[i])) &* 0x100_0000_01b3 }
        return h ^ (h >> 32)
    }
}
