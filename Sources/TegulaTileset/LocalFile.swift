import TegulaSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A local file read by `pread` on one descriptor (thread-safe), open until the last reader lets
/// go. Its version is its size when opened: a file replaced by rename stays the opened one, and
/// one cut short meanwhile reads short, which readers refuse.
public final class LocalFile: SynchronousByteSource, @unchecked Sendable {
    /// The file's path.
    public let location: String
    /// The file's size when opened.
    public let size: UInt64
    private let fd: Int32

    /// Opens the file at `path` for reading.
    public init(path: String) throws {
        location = path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw TilesetError.io(FileError(path: path, operation: "open", errno: errno)) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let e = errno
            close(fd)
            throw TilesetError.io(FileError(path: path, operation: "fstat", errno: e))
        }
        size = UInt64(max(0, st.st_size))
    }

    deinit { close(fd) }

    /// `length` bytes at `offset` by `pread`, fewer only where the file ends; `version` is not
    /// checked (the descriptor holds the opened file whatever happens to its name).
    public func readNow(offset: UInt64, length: UInt64, of version: FileVersion?) throws -> RangeRead {
        let count = Int(min(length, UInt64(Int.max)))
        return RangeRead(bytes: try FileIO.pread(fd, count: count, at: offset, path: location), version: FileVersion(size: size))
    }
}
