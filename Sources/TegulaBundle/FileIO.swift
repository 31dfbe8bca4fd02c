import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small POSIX file helpers that report failures as `BundleError.io` naming the path and call.
enum FileIO {
    /// Writes bytes to a new file at `path` (truncating), all or nothing per call.
    static func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw BundleError.io(path: path, operation: "create", errno: errno) }
        defer { close(fd) }
        try writeAll(fd, bytes, path: path)
    }

    /// Writes every byte to a file descriptor.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws {
        var done = 0
        try bytes.withUnsafeBytes { buf in
            while done < buf.count {
                let n = write(fd, buf.baseAddress! + done, buf.count - done)
                if n < 0 { if errno == EINTR { continue }; throw BundleError.io(path: path, operation: "write", errno: errno) }
                done += n
            }
        }
    }

    /// Writes bytes at an absolute offset.
    static func pwriteAll(_ fd: Int32, _ bytes: [UInt8], at offset: UInt64, path: String) throws {
        var done = 0
        try bytes.withUnsafeBytes { buf in
            while done < buf.count {
                let n = pwrite(fd, buf.baseAddress! + done, buf.count - done, off_t(offset) + off_t(done))
                if n < 0 { if errno == EINTR { continue }; throw BundleError.io(path: path, operation: "pwrite", errno: errno) }
                done += n
            }
        }
    }

    /// Reads `count` bytes at `offset`; fewer only at end of file.
    static func pread(_ fd: Int32, count: Int, at offset: UInt64, path: String) throws -> [UInt8] {
        if count == 0 { return [] }
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        try out.withUnsafeMutableBytes { buf in
            while done < count {
                let n = Glibc.pread(fd, buf.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if n < 0 { if errno == EINTR { continue }; throw BundleError.io(path: path, operation: "pread", errno: errno) }
                if n == 0 { break }
                done += n
            }
        }
        if done < count { out.removeLast(count - done) }
        return out
    }

    /// Reads a whole file, or nil when it does not exist.
    static func readFile(_ path: String) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw BundleError.io(path: path, operation: "open", errno: errno)
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw BundleError.io(path: path, operation: "fstat", errno: errno) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return try pread(fd, count: Int(st.st_size), at: 0, path: path)
    }

    /// Writes a file atomically: a unique temp file beside it, then rename.
    static func writeAtomically(_ path: String, _ bytes: [UInt8]) throws {
        let tmp = "\(path).\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        do {
            try writeFile(tmp, bytes)
            guard rename(tmp, path) == 0 else { throw BundleError.io(path: path, operation: "rename", errno: errno) }
        } catch {
            unlink(tmp)
            throw error
        }
    }

    /// Creates a directory, succeeding when it already exists.
    static func makeDirectory(_ path: String) throws {
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw BundleError.io(path: path, operation: "mkdir", errno: errno)
        }
    }

    /// The canonical absolute path (symlinks resolved), or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }
}

/// A lock-protected value, for the writers' shared state.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
