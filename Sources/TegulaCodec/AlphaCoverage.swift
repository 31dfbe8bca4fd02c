/// How much of an RGBA image its alpha covers: nothing, everything, or a part. Decides whether
/// a tile is written at all and whether it needs its alpha channel.
public enum AlphaCoverage: Sendable, Equatable {
    /// Every alpha is 0.
    case empty
    /// Every alpha is 255.
    case opaque
    /// Anything else.
    case partial

    /// The coverage of `pixelCount` RGBA pixels; stops at the first stretch that proves `partial`.
    public init(rgba px: UnsafePointer<UInt8>, pixelCount: Int) {
        // Two pixels per little-endian 64-bit word, whose top byte of each half is an alpha: the
        // alphas AND-ed (all 255?) and OR-ed (any not 0?), 64 pixels a stretch, not a byte at a
        // time (its share of the pyramid then in BENCHMARKS.md).
        let alphas = UInt64(littleEndian: 0xFF00_0000_FF00_0000)
        let raw = UnsafeRawPointer(px)
        var all = alphas, any: UInt64 = 0
        var i = 0
        while i + 64 <= pixelCount {
            for k in stride(from: i, to: i + 64, by: 2) {
                let w = raw.loadUnaligned(fromByteOffset: k * 4, as: UInt64.self)
                all &= w
                any |= w
            }
            if any & alphas != 0 && all & alphas != alphas { self = .partial; return }
            i += 64
        }
        var allOpaque = all & alphas == alphas, anyOpaque = any & alphas != 0
        while i < pixelCount {
            let a = px[i * 4 + 3]
            if a != 0 { anyOpaque = true }
            if a != 255 { allOpaque = false }
            i += 1
        }
        self = allOpaque ? .opaque : (anyOpaque ? .partial : .empty)
    }

    /// RGB of `pixelCount` RGBA pixels drawn over white (straight alpha, rounded to nearest),
    /// for formats without alpha. An opaque pixel keeps its colour exactly, so an opaque image
    /// only loses its alpha channel.
    public static func flattenOntoWhite(_ px: UnsafePointer<UInt8>, pixelCount: Int, into out: UnsafeMutablePointer<UInt8>) {
        for i in 0..<pixelCount {
            let a = Int(px[i * 4 + 3])
            if a == 255 {
                out[i * 3] = px[i * 4]; out[i * 3 + 1] = px[i * 4 + 1]; out[i * 3 + 2] = px[i * 4 + 2]
            } else {
                let w = 255 - a
                out[i * 3] = UInt8((Int(px[i * 4]) * a + 255 * w + 127) / 255)
                out[i * 3 + 1] = UInt8((Int(px[i * 4 + 1]) * a + 255 * w + 127) / 255)
                out[i * 3 + 2] = UInt8((Int(px[i * 4 + 2]) * a + 255 * w + 127) / 255)
            }
        }
    }
}
