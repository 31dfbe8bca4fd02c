import TegulaGeometry
import TegulaSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One writer per output at a time: `OUT.lock` beside OUT, held with `flock(2)` while a writer
/// is open and holding the holder's pid. The kernel drops a flock when its process dies, so the
/// lock file a killed run leaves behind is simply taken over by the next run; while the holder
/// lives, a second run is refused with its pid. Released (and the file removed) by `finish`, or
/// when the writer is dropped.
final class OutputLock: @unchecked Sendable {
    /// The lock file.
    let path: String
    private var fd: Int32 = -1

    /// Takes the lock for `output`, or throws `TilesetError.locked` naming the live holder; with
    /// `wait`, waits for the holder to finish instead (a pipeline run twice at once).
    init(for output: String, wait: Bool = false) throws {
        var out = output
        while out.count > 1 && out.hasSuffix("/") { out.removeLast() }
        path = out + ".lock"
        // A holder may remove the file between our open and our flock; the lock we then hold is
        // on a name nobody else sees, so check that the name still leads to our file and retry.
        var attempts = 0
        while wait || attempts < 8 {
            attempts += 1
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw TilesetError.io(FileError(path: path, operation: "create the lock file", errno: errno)) }
            var locked = flock(fd, wait ? LOCK_EX : LOCK_EX | LOCK_NB)
            while locked != 0 && wait && errno == EINTR { locked = flock(fd, LOCK_EX) }
            if locked != 0 {
                let e = errno
                let holder = Self.pid(in: fd)
                close(fd)
                if e == EWOULDBLOCK { throw TilesetError.locked(path: out, lockFile: path, pid: holder) }
                throw TilesetError.io(FileError(path: path, operation: "lock", errno: e))
            }
            var mine = stat(), named = stat()
            if fstat(fd, &mine) == 0, stat(path, &named) == 0, mine.st_ino == named.st_ino, mine.st_dev == named.st_dev {
                let text = Array("\(getpid())\n".utf8)
                _ = ftruncate(fd, 0)
                _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
                self.fd = fd
                return
            }
            close(fd)
        }
        throw TilesetError.io(FileError(path: path, operation: "lock (the file kept changing under us)", errno: EAGAIN))
    }

    /// The pid written in the lock file, if any.
    private static func pid(in fd: Int32) -> Int32? {
        var buf = [UInt8](repeating: 0, count: 24)
        let n = buf.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return nil }
        return Int32(String(decoding: buf[..<n], as: UTF8.self).split(separator: "\n").first ?? "")
    }

    /// Removes the lock file and drops the lock; does nothing the second time.
    func release() {
        guard fd >= 0 else { return }
        unlink(path)
        close(fd)
        fd = -1
    }

    deinit { release() }
}
