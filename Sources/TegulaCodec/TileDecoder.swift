import TegulaSupport

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
