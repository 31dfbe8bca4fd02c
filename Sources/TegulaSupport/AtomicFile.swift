#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file replaced all at once: written under a unique temporary name beside its destination,
/// then renamed over it (`rename(2)` is atomic within a file system), so a reader sees the old
/// file or the new one and a failure leaves the old one untouched. The old file is never
/// removed first.
///
/// For small files, ``write(_:to:)``; for large ones or ones another library writes by path
/// (GDAL), ``write(to:_:)`` hands out the open temporary file and commits when the body returns.
public final class AtomicFile {
    /// Where the file ends up.
    public let path: String
    /// The temporary file beside `path` that is written until ``commit()``.
    public let temporaryPath: String
    /// The temporary file opened for writing (`O_WRONLY`, created empty and exclusively).
    public let descriptor: Int32
    private var isOpen = true

    /// Creates an empty temporary file beside `path` under a name no other writer uses
    /// (`.NAME.PID-RANDOM.tmp`, created with `O_EXCL`).
    public init(replacing path: String) throws {
        var attempt = 0
        while true {
            let candidate = Self.temporaryName(beside: path)
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 {
                self.path = path
                temporaryPath = candidate
                descriptor = fd
                return
            }
            attempt += 1
            guard errno == EEXIST, attempt < 16 else { throw FileError(path: candidate, operation: "create", errno: errno) }
        }
    }

    deinit { discard() }

    /// A new name beside `path` in this type's form, `.NAME.PID-RANDOM.tmp`: also for a whole
    /// folder moved aside before it is removed, so a kill midway leaves a name that
    /// ``temporaryWriter(_:of:derived:)`` recognises and the next writer sweeps.
    public static func temporaryName(beside path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return "\(folder).\(name).\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
    }

    /// Appends bytes to the temporary file.
    public func write(_ bytes: [UInt8]) throws {
        try POSIXFile.writeAll(descriptor, bytes, path: temporaryPath)
    }

    /// Closes the temporary file and renames it over `path`.
    public func commit() throws {
        guard isOpen else { throw FileError(path: path, operation: "commit (already closed)", errno: EBADF) }
        isOpen = false
        if close(descriptor) != 0 {
            let e = errno
            unlink(temporaryPath)
            throw FileError(path: temporaryPath, operation: "close", errno: e)
        }
        if rename(temporaryPath, path) != 0 {
            let e = errno
            unlink(temporaryPath)
            throw FileError(path: path, operation: "rename", errno: e)
        }
    }

    /// Closes and removes the temporary file, leaving `path` as it was; does nothing after
    /// ``commit()``.
    public func discard() {
        guard isOpen else { return }
        isOpen = false
        close(descriptor)
        unlink(temporaryPath)
    }

    /// The pid of the writer whose temporary file `file` (a name in the destination's folder) is:
    /// `.NAME.PID-RANDOM.tmp`, or a file GDAL named after it (`….tmp.tif`, `….tmp.aux.xml`);
    /// nil for any other name, or for another NAME than `name` (any NAME when nil).
    public static func temporaryWriter(_ file: String, of name: String?, derived: Bool = false) -> Int32? {
        guard file.hasPrefix("."), let end = file.range(of: ".tmp", options: .backwards),
            end.upperBound == file.endIndex || (derived && file[end.upperBound...].hasPrefix("."))
        else { return nil }
        let body = file[file.index(after: file.startIndex)..<end.lowerBound]
        guard let dot = body.lastIndex(of: ".") else { return nil }
        if let name, body[..<dot] != name { return nil }
        let tag = body[body.index(after: dot)...].split(separator: "-", omittingEmptySubsequences: false)
        guard tag.count == 2, tag.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else { return nil }
        return Int32(tag[0])
    }

    /// Removes the temporary files of `path` (and files derived from their names) left beside
    /// it by writers that no longer run, e.g. a run killed with SIGKILL, whose `deinit` never
    /// came: a writer is gone when `kill(pid, 0)` finds no such process. A live writer's files,
    /// this process's included, are kept.
    public static func removeAbandoned(of path: String) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let dir = opendir(folder.isEmpty ? "." : folder) else { return }
        defer { closedir(dir) }
        var gone: [String] = []
        while let entry = readdir(dir) {
            let file = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = temporaryWriter(file, of: name, derived: true), pid > 0 else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { gone.append(folder + file) }
        }
        for file in gone { unlink(file) }
    }

    /// Replaces `path` with `bytes`.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        let file = try AtomicFile(replacing: path)
        try file.write(bytes)
        try file.commit()
    }

    /// Runs `body` with a new temporary file for `path` and commits it when `body` returns;
    /// when `body` throws, the temporary file is removed and `path` is left as it was.
    public static func write<R>(to path: String, _ body: (AtomicFile) throws -> R) throws -> R {
        let file = try AtomicFile(replacing: path)
        do {
            let result = try body(file)
            try file.commit()
            return result
        } catch {
            file.discard()
            throw error
        }
    }
}
