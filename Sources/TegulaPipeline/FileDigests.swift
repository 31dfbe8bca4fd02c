import Foundation
import TegulaComposite

/// A file's identity as `stat` sees it, with the SHA-256 of its bytes when they had it.
public struct FileStamp: Codable, Sendable, Equatable {
    /// Size in bytes, modification time in nanoseconds since 1970, inode.
    public var size: UInt64
    public var modified: Int64
    public var inode: UInt64
    /// SHA-256 of the bytes, hex.
    public var sha256: String
}

/// SHA-256 of input files (scans, GCP and mask files), remembered per work folder by size,
/// modification time and inode: a file whose `stat` matches its stamp is not read again (the
/// quick check make and rsync use), so a plan or rerun of many maps does not reread every scan.
final class FileDigests: @unchecked Sendable {
    private let lock = NSLock()
    private var stamps: [String: FileStamp]

    init(stamps: [String: FileStamp]) { self.stamps = stamps }

    /// The stamps known so far (loaded plus computed), for the manifest.
    var all: [String: FileStamp] { lock.lock(); defer { lock.unlock() }; return stamps }

    /// SHA-256 of the file's bytes: the stamp's when `stat` still matches it, else read and
    /// stamped. A missing file digests as the word "missing" and its path.
    func digest(of path: String) -> String {
        var st = stat()
        guard stat(path, &st) == 0 else { return "missing:\(path)" }
        let size = UInt64(st.st_size), modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        let inode = UInt64(st.st_ino)
        lock.lock()
        if let s = stamps[path], s.size == size, s.modified == modified, s.inode == inode {
            lock.unlock()
            return s.sha256
        }
        lock.unlock()
        var h = ContentHash()
        h.update(file: path)
        let digest = h.finalize()
        lock.lock()
        stamps[path] = FileStamp(size: size, modified: modified, inode: inode, sha256: digest)
        lock.unlock()
        return digest
    }
}
