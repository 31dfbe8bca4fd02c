import TegulaSupport

/// Everything that can go wrong encoding or decoding bytes in this module, in Tegula's one error
/// shape: a reason to branch on and a message saying what was wrong and what would be right.
/// Codecs work on bytes in memory, so the location is nil; callers wrap it with the file or tile
/// the bytes came from.
public typealias CodecError = LocatedError<CodecErrorReason>

/// The kinds of CodecError, for callers and tests that branch on them.
public enum CodecErrorReason: String, Sendable, Hashable {
    /// The bytes are not a PNG libpng can read.
    case unreadablePNG
    /// A PNG that starts well but cannot be decoded to the end.
    case corruptPNG
    /// The bytes are not a JPEG TurboJPEG can read, or it fails partway.
    case unreadableJPEG
    /// The bytes are not a WebP libwebp can read.
    case unreadableWebP
    /// The bytes start with no signature Tegula decodes (PNG, JPEG, WebP).
    case unknownImageFormat
    /// A C encoder (TurboJPEG, libwebp, libimagequant) failed; the message names the call.
    case encodeFailed
    /// The pixels would exceed the limit (a PNG claiming more than `PNGDecoder.maxPixels`).
    case tooLarge
}
