import Foundation
import TegulaSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the IIIF client fetched, on disk: one file per answer (its URL, validators and body),
/// written atomically (a killed run keeps every answer it finished, and no half of one), found
/// by a hash of its key, evicted least recently used first when the folder outgrows its cap
/// (a file's modification time is its last use).
public final class IIIFCache: Sendable {
    /// One cached answer.
    public struct Entry: Sendable, Hashable, Codable {
        /// What the answer was for: a URL, or a URL under an info.json version.
        public var key: String
        public var etag: String?
        public var lastModified: String?
        public var contentType: String?
        /// The body's length, checked on reading.
        public var size: Int
        /// The answer's body (not in the file's header).
        public var body: [UInt8] = []

        enum CodingKeys: String, CodingKey { case key, etag, lastModified, contentType, size }
    }

    /// The cache's folder.
    public let folder: String
    /// The most bytes the folder holds; over it, the least recently used answers are removed
    /// until it holds 90 % of it.
    public let capacity: Int
    private let total = Locked<Int?>(nil)

    /// The user's cache folder for IIIF answers: `~/.cache/tegula/iiif` (XDG's cache folder when
    /// set), `~/Library/Caches/tegula/iiif` on macOS.
    public static var defaultFolder: String {
        let base =
            FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSTemporaryDirectory())
        return base.appendingPathComponent("tegula/iiif").path
    }

    /// A cache in `folder` (made when missing) of at most `capacity` bytes (default 2 GiB).
    public init(folder: String = IIIFCache.defaultFolder, capacity: Int = 2 << 30) throws(IIIFError) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw IIIFError(
                .cache, at: folder, "cannot make the IIIF cache folder: \(error.localizedDescription); give another with --iiif-cache DIR")
        }
        self.folder = folder
        self.capacity = capacity
    }

    /// The file of `key`: `FOLDER/ab/abcdef0123456789.iiif`, from the key's 64-bit FNV-1a
    /// (the key is stored inside and compared, so a collision is a miss, never a wrong answer).
    public func path(of key: String) -> String {
        let name = FNV1a.hex(key)
        return "\(folder)/\(name.prefix(2))/\(name).iiif"
    }

    /// The answer stored for `key`, marked as used now; nil when none is (or its file is damaged).
    public func load(_ key: String) -> Entry? {
        let p = path(of: key)
        guard let data = FileManager.default.contents(atPath: p), data.count >= 4 else { return nil }
        let bytes = [UInt8](data)
        let n = Int(UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24)
        guard n <= bytes.count - 4, var entry = try? JSONDecoder().decode(Entry.self, from: Data(bytes[4..<(4 + n)])),
            entry.key == key, entry.size == bytes.count - 4 - n
        else { return nil }
        entry.body = Array(bytes[(4 + n)...])
        utimes(p, nil)  // last use: now
        return entry
    }

    /// Stores `entry` under its key (replacing any), then evicts while over capacity.
    public func store(_ entry: Entry) throws(IIIFError) {
        var e = entry
        e.size = entry.body.count
        let p = path(of: e.key)
        do {
            let header = try JSONStyle.compact.escapingSlashes.encode(e)
            let n = UInt32(header.count)
            let prefix: [UInt8] = [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24)]
            try FileManager.default.createDirectory(atPath: p.parentPath, withIntermediateDirectories: true)
            let before = fileSize(p)
            try AtomicFile.write(prefix + [UInt8](header) + e.body, to: p)
            let added = 4 + header.count + e.body.count - before
            let over = total.withLock { t -> Bool in
                guard let current = t else { return false }
                t = current + added
                return current + added > capacity
            }
            if over || total.withLock({ $0 == nil }) { evict() }
        } catch {
            throw IIIFError(.cache, at: p, "cannot write the IIIF cache: \(error); free space, or give another folder with --iiif-cache DIR")
        }
    }

    /// Bytes the cache's answers take now.
    public var size: Int { scan().reduce(0) { $0 + $1.size } }

    /// Removes least recently used answers until the folder holds at most 90 % of the capacity.
    public func evict() {
        var files = scan()
        var sum = files.reduce(0) { $0 + $1.size }
        if sum > capacity {
            files.sort { $0.used < $1.used }
            for f in files where sum > capacity / 10 * 9 {
                if unlink(f.path) == 0 { sum -= f.size }
            }
        }
        total.withLock { $0 = sum }
    }

    /// Every answer file: path, size, last use. Temporaries of killed writers are swept on the way.
    private func scan() -> [(path: String, size: Int, used: Double)] {
        var out: [(String, Int, Double)] = []
        guard let subfolders = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        for sub in subfolders where sub.count == 2 {
            let dir = "\(folder)/\(sub)"
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] {
                if let pid = AtomicFile.temporaryWriter(name, of: nil), pid > 0, kill(pid, 0) != 0, errno == ESRCH {
                    unlink("\(dir)/\(name)")  // a killed run's half-written answer
                    continue
                }
                var st = stat()
                guard name.hasSuffix(".iiif"), stat("\(dir)/\(name)", &st) == 0 else { continue }
                #if canImport(Darwin)
                    let used = Double(st.st_mtimespec.tv_sec) + Double(st.st_mtimespec.tv_nsec) / 1e9
                #else
                    let used = Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9
                #endif
                out.append(("\(dir)/\(name)", Int(st.st_size), used))
            }
        }
        return out
    }

    private func fileSize(_ p: String) -> Int {
        var st = stat()
        return stat(p, &st) == 0 ? Int(st.st_size) : 0
    }
}
