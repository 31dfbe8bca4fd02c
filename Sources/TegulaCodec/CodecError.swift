import TegulaGeometry

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
    /// The bytes are not one well-formed gzip member (RFC 1952), or its checksum is wrong.
    case corruptGzip
    /// The decompressed bytes would exceed the caller's limit (a gzip bomb, or a wrong size).
    case tooLarge
}
