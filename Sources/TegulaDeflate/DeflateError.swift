import TegulaSupport

/// A gzip member that cannot be read, in Tegula's one error shape: a reason to branch on and a
/// message saying what was wrong and what would be right. The bytes are in memory, so the
/// location is nil; callers wrap it with the file they came from.
public typealias DeflateError = LocatedError<DeflateErrorReason>

/// The kinds of ``DeflateError``.
public enum DeflateErrorReason: String, Sendable, Hashable {
    /// The bytes are not one well-formed gzip member (RFC 1952), or its checksum is wrong.
    case corruptGzip
    /// The decompressed bytes would exceed the limit (a gzip bomb, a wrong size).
    case tooLarge
}
