#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file-system call that failed: which call, on which path, and the `errno` it left, so
/// callers can branch on the cause (`ENOENT`, `ENOSPC`, …) and each layer can wrap it in its own
/// error.
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path the call was about.
    public var path: String
    /// The POSIX call or step that failed (`open`, `write`, `rename`, …).
    public var operation: String
    /// `errno` right after the failure.
    public var errno: Int32

    /// A failure of `operation` on `path` with `errno`.
    public init(path: String, operation: String, errno: Int32) {
        self.path = path
        self.operation = operation
        self.errno = errno
    }

    /// One line: `PATH: OPERATION failed: strerror (errno N)`.
    public var description: String {
        "\(path): \(operation) failed: \(String(cString: strerror(errno))) (errno \(errno))"
    }
}
