#if os(Linux)
    import Glibc
#else
    import Darwin
#endif

/// Which file a path names, and which version of it: device, inode, size and modification time
/// (`stat(2)`, nanoseconds). Taken when a run starts reading an input and compared before its
/// output is committed, so an input deleted, renamed over or rewritten during the run fails the
/// run in one line instead of leaving an output made of two inputs. The one reader of a file's
/// version: a work folder's digests (stored in its manifest, so `Codable`), the composite plan
/// and tiles on demand compare these too.
public struct FileIdentity: Equatable, Sendable, Codable {
    /// The file system's device number and the file's inode.
    public let device: UInt64
    public let inode: UInt64
    /// Size in bytes.
    public let size: Int64
    /// Modification time, nanoseconds since 1970.
    public let modified: Int64

    /// The identity of the file at `path` now; nil when it cannot be statted.
    public init?(path: String) {
        var s = stat()
        guard stat(path, &s) == 0 else { return nil }
        device = UInt64(s.st_dev)
        inode = UInt64(s.st_ino)
        size = Int64(s.st_size)
        #if os(Linux)
            modified = Int64(s.st_mtim.tv_sec) * 1_000_000_000 + Int64(s.st_mtim.tv_nsec)
        #else
            modified = Int64(s.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(s.st_mtimespec.tv_nsec)
        #endif
    }

    /// Size and modification time (ns), the part of the identity that survives a copy made
    /// with its times kept or a look from another machine sharing the file (device and inode
    /// do not): what an unfinished output records of its inputs (`ResumeStamp`).
    public var sizeAndTime: String { "\(size) bytes, modified \(modified) ns" }

    /// An identity as stored: a work folder's manifest written before devices were recorded
    /// decodes with device 0, which matches no file, so the file is read again once.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        device = try c.decodeIfPresent(UInt64.self, forKey: .device) ?? 0
        inode = try c.decode(UInt64.self, forKey: .inode)
        size = try c.decode(Int64.self, forKey: .size)
        modified = try c.decode(Int64.self, forKey: .modified)
    }

    /// What became of the file at `path` since `self` was taken, in words ("was deleted", "was
    /// replaced by another file", "was rewritten"), or nil when it is still the same.
    public func change(at path: String) -> String? {
        guard let now = FileIdentity(path: path) else { return "was deleted" }
        if now.device != device || now.inode != inode { return "was replaced by another file" }
        if now != self { return "was rewritten" }
        return nil
    }
}
