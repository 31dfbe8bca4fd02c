/// The image formats Tegula decodes, told apart by their first bytes: the one place that knows
/// the signatures (PNG spec §5.2, JPEG SOI + marker, RIFF….WEBP).
public enum ImageSignature: Sendable, Equatable {
    case png
    case jpeg
    case webp

    /// The format whose signature `bytes` start with, or nil.
    public init?<C: Collection>(of bytes: C) where C.Element == UInt8 {
        let head = Array(bytes.prefix(12))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { self = .png }
        else if head.starts(with: [0xFF, 0xD8, 0xFF]) { self = .jpeg }
        else if head.count == 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            self = .webp
        } else { return nil }
    }
}

/// Decodes a tile of any format Tegula writes (PNG, JPEG, WebP) to RGBA, chosen by its signature.
public enum TileDecoder {
    /// Decode `bytes` to 8-bit RGBA, straight alpha; JPEG tiles come back opaque.
    public static func decode(_ bytes: [UInt8]) throws -> RGBAImage {
        switch ImageSignature(of: bytes) {
        case .png: return try PNGDecoder.decode(bytes)
        case .jpeg: return try JPEGDecoder.decode(bytes)
        case .webp: return try WebPDecoder.decode(bytes)
        case nil:
            let head = bytes.prefix(4).map { String($0, radix: 16) }.joined(separator: " ")
            throw CodecError(.unknownImageFormat, "a tile starting \(head) is not PNG, JPEG or WebP")
        }
    }
}
