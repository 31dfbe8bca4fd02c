#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole-buffer reads and writes on a file descriptor, retried on `EINTR` and short counts
/// (POSIX `write`, `pwrite`, `pread`), failing with a ``FileError`` naming the path.
public enum POSIXFile {
    /// Writes every byte at the descriptor's current offset.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws {
        try bytes.withUnsafeBytes { buf in
            var done = 0
            while done < buf.count {
                let n = write(fd, buf.baseAddress! + done, buf.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw FileError(path: path, operation: "write", errno: errno)
                }
                done += n
            }
        }
    }

    /// Writes every byte at an absolute offset, leaving the descriptor's offset alone.
    public static func pwriteAll(_ fd: Int32, _ bytes: [UInt8], at offset: UInt64, path: String) throws {
        try bytes.withUnsafeBytes { buf in
            var done = 0
            while done < buf.count {
                let n = pwrite(fd, buf.baseAddress! + done, buf.count - done, off_t(offset) + off_t(done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw FileError(path: path, operation: "pwrite", errno: errno)
                }
                done += n
            }
        }
    }

    /// Reads `count` bytes at `offset`; fewer only at the end of the file.
    public static func pread(_ fd: Int32, count: Int, at offset: UInt64, path: String) throws -> [UInt8] {
        if count == 0 { return [] }
        var out = [UInt8](repeating: 0, count: count)
        let done = try out.withUnsafeMutableBytes { buf -> Int in
            var done = 0
            while done < count {
                #if canImport(Glibc)
                    let n = Glibc.pread(fd, buf.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                #else
                    let n = Darwin.pread(fd, buf.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                #endif
                if n < 0 {
                    if errno == EINTR { continue }
                    throw FileError(path: path, operation: "pread", errno: errno)
                }
                if n == 0 { break }
                done += n
            }
            return done
        }
        if done < count { out.removeLast(count - done) }
        return out
    }
}
