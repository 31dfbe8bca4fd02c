/// Everything that can go wrong encoding or decoding bytes in this module: which kind (to
/// branch on), and a message saying what was wrong with the input and what would be right.
/// Codecs work on bytes in memory, so the caller adds the file or tile they came from.
public struct CodecError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The bytes are not a PNG libpng can read.
        case unreadablePNG
        /// A PNG that starts well but cannot be decoded to the end.
        case corruptPNG
        /// The bytes are not one well-formed gzip member (RFC 1952), or its checksum is wrong.
        case corruptGzip
        /// The decompressed bytes would exceed the caller's limit (a gzip bomb, or a wrong size).
        case tooLarge
    }

    /// What went wrong.
    public var kind: Kind
    /// One line: what was wrong and what would be right.
    public var message: String

    /// An error of `kind` explained by `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
