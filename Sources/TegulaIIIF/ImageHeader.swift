/// The pixel size an encoded image declares in its header (PNG IHDR, JPEG SOFn, WebP VP8/VP8L/VP8X),
/// read without decoding, so an answer of the wrong size is refused before a decoder allocates for it.
public struct ImageHeader: Sendable, Hashable {
    public var format: IIIFFormat
    public var width: Int
    public var height: Int

    /// The header of `bytes`; nil when they are not a PNG, JPEG or WebP this reader understands.
    public init?(_ bytes: [UInt8]) {
        func be16(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }
        func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
        func le16(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 }
        func le24(_ i: Int) -> Int { le16(i) | Int(bytes[i + 2]) << 16 }
        if bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), bytes[12..<16].elementsEqual("IHDR".utf8) {
            (format, width, height) = (.png, be32(16), be32(20))
            return
        }
        if bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 {
            // Markers after SOI: a frame header SOF0–SOF15 (but C4 DHT, C8 JPG, CC DAC) holds P, Y, X.
            var i = 2
            while i + 9 < bytes.count {
                guard bytes[i] == 0xFF else { return nil }
                let m = bytes[i + 1]
                if m == 0xFF { i += 1; continue }
                if m == 0xD8 || m == 0x01 || (0xD0...0xD7).contains(m) { i += 2; continue }
                if (0xC0...0xCF).contains(m), m != 0xC4, m != 0xC8, m != 0xCC {
                    (format, width, height) = (.jpg, be16(i + 7), be16(i + 5))
                    return
                }
                if m == 0xD9 || m == 0xDA { return nil }
                i += 2 + be16(i + 2)
            }
            return nil
        }
        if bytes.count >= 30, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) {
            let chunk = String(decoding: bytes[12..<16], as: UTF8.self)
            switch chunk {
            case "VP8 ": (width, height) = (le16(26) & 0x3FFF, le16(28) & 0x3FFF)
            case "VP8L":
                let b = bytes[21...24].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
                (width, height) = ((b & 0x3FFF) + 1, ((b >> 14) & 0x3FFF) + 1)
            case "VP8X": (width, height) = (le24(24) + 1, le24(27) + 1)
            default: return nil
            }
            format = .webp
            return
        }
        return nil
    }
}
