/// How much of an RGBA image its alpha covers: nothing, everything, or a part. Decides whether
/// a tile is written at all and whether it needs its alpha channel.
public enum AlphaCoverage: Sendable, Equatable {
    /// Every alpha is 0.
    case empty
    /// Every alpha is 255.
    case opaque
    /// Anything else.
    case partial

    /// The coverage of `pixelCount` RGBA pixels; stops at the first pixel that proves `partial`.
    public init(rgba px: UnsafePointer<UInt8>, pixelCount: Int) {
        var anyOpaque = false, allOpaque = true
        var i = 3
        let n = pixelCount * 4
        while i < n {
            let a = px[i]
            if a != 0 { anyOpaque = true }
            if a != 255 { allOpaque = false }
            if anyOpaque && !allOpaque { self = .partial; return }
            i += 4
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
