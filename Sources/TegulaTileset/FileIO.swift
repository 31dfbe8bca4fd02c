import Foundation
import TegulaSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The bundle's file calls: TegulaSupport's POSIX helpers with their failures reported as
/// `TilesetError.io` naming the path and call.
enum FileIO {
    /// Runs a TegulaSupport file call, wrapping its ``FileError`` whole in `TilesetError.io`.
    static func mapped<R>(_ body: () throws -> R) throws -> R {
        do { return try body() } catch let e as FileError { throw TilesetError.io(e) }
    }

    /// Writes every byte to a file descriptor.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws {
        try mapped { try POSIXFile.writeAll(fd, bytes, path: path) }
    }

    /// Writes bytes at an absolute offset.
    static func pwriteAll(_ fd: Int32, _ bytes: [UInt8], at offset: UInt64, path: String) throws {
        try mapped { try POSIXFile.pwriteAll(fd, bytes, at: offset, path: path) }
    }

    /// Reads `count` bytes at `offset`; fewer only at end of file.
    static func pread(_ fd: Int32, count: Int, at offset: UInt64, path: String) throws -> [UInt8] {
        try mapped { try POSIXFile.pread(fd, count: count, at: offset, path: path) }
    }

    /// Reads a whole file, or nil when it does not exist.
    static func readFile(_ path: String) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw TilesetError.io(FileError(path: path, operation: "open", errno: errno))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw TilesetError.io(FileError(path: path, operation: "fstat", errno: errno)) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return try pread(fd, count: Int(st.st_size), at: 0, path: path)
    }

    /// Replaces a file atomically (TegulaSupport's ``AtomicFile``).
    static func writeAtomically(_ path: String, _ bytes: [UInt8]) throws {
        try mapped { try AtomicFile.write(bytes, to: path) }
    }

    /// Creates a directory, succeeding when it already exists.
    static func makeDirectory(_ path: String) throws {
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw TilesetError.io(FileError(path: path, operation: "mkdir", errno: errno))
        }
    }

    /// The canonical absolute path (symlinks resolved), or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }
}
