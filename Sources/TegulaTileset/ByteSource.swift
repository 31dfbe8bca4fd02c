/// Where a reader's bytes come from: byte ranges of one file, wherever it lives — a local file
/// (``LocalFile``) or an HTTP server answering range requests (TegulaRemote's `HTTPRangeSource`),
/// as go-pmtiles' `Bucket`. Readers above it never know which.
public protocol ByteSource: Sendable {
    /// The file's path or URL, for error messages.
    var location: String { get }
    /// `length` bytes at `offset` (fewer only where the file ends), of `version` when it is given;
    /// throws ``RemoteFileChanged`` when the file is no longer that version.
    func read(offset: UInt64, length: UInt64, of version: FileVersion?) async throws -> RangeRead
}

/// A ``ByteSource`` that answers on the calling thread (a local file): readers over it offer
/// synchronous calls (``TileReader``) with no task started and no thread parked for the answer.
public protocol SynchronousByteSource: ByteSource {
    /// ``ByteSource/read(offset:length:of:)`` on the calling thread.
    func readNow(offset: UInt64, length: UInt64, of version: FileVersion?) throws -> RangeRead
}

extension SynchronousByteSource {
    /// ``readNow(offset:length:of:)``, which never suspends.
    public func read(offset: UInt64, length: UInt64, of version: FileVersion?) async throws -> RangeRead {
        try readNow(offset: offset, length: length, of: version)
    }
}

/// One version of a file read by byte ranges, as its source names it: the validators a remote
/// source sends back with every later read (`If-Match`, or `If-Unmodified-Since` without a strong
/// ETag) and its size. A local file has no validators, only its size when opened.
public struct FileVersion: Hashable, Sendable {
    /// The entity tag as the server sent it, quotes included (`"abc"`, `W/"abc"`); nil when none.
    public var etag: String?
    /// The `Last-Modified` date as sent; nil when none.
    public var lastModified: String?
    /// The whole file's size in bytes.
    public var size: UInt64

    /// A version from its validators and size.
    public init(etag: String? = nil, lastModified: String? = nil, size: UInt64) {
        self.etag = etag
        self.lastModified = lastModified
        self.size = size
    }

    /// True for an ETag `If-Match` can compare (RFC 9110 §13.1.1: strong comparison only).
    public var hasStrongETag: Bool { etag.map { !$0.hasPrefix("W/") } ?? false }
}

/// What a range read answers: the bytes and the version of the file they came from.
public struct RangeRead: Sendable {
    /// The bytes read.
    public var bytes: [UInt8]
    /// The file's version, from this answer.
    public var version: FileVersion

    /// A read's bytes and version.
    public init(bytes: [UInt8], version: FileVersion) {
        self.bytes = bytes
        self.version = version
    }
}

/// Thrown by a ``ByteSource`` when the file is no longer the version asked for (HTTP 412 to
/// `If-Match`, or a different ETag or size in the answer): a reader then reads the file's header
/// again rather than mix two files' bytes.
public struct RemoteFileChanged: Error, Sendable {
    /// The error.
    public init() {}
}
