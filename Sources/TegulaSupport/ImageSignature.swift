/// The image formats Tegula decodes, told apart by their first bytes: the one place that knows
/// the signatures (PNG spec §5.2, JPEG SOI + marker, RIFF….WEBP).
public enum ImageSignature: Sendable, Equatable {
    /// PNG: `89 50 4E 47`.
    case png
    /// JPEG: `FF D8 FF`.
    case jpeg
    /// WebP: `RIFF`, a size, `WEBP`.
    case webp

    /// The format whose signature `bytes` start with, or nil.
    public init?<C: Collection>(of bytes: C) where C.Element == UInt8 {
        let head = Array(bytes.prefix(12))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            self = .png
        } else if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if head.count == 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            self = .webp
        } else {
            return nil
        }
    }
}
