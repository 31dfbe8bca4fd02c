import Foundation
import TegulaCrypto
import TegulaScan
import TegulaSupport

/// The SHA-256 of a file's bytes and the identity the file had when they were read, stored in
/// a work folder's manifest as one flat object (`device`, `inode`, `size`, `modified`, `sha256`).
public struct FileDigest: Codable, Sendable, Equatable {
    /// Which version of the file was read.
    public var identity: FileIdentity
    /// SHA-256 of the bytes, hex.
    public var sha256: String

    enum CodingKeys: String, CodingKey { case sha256 }

    /// A digest with the identity of the file it was read from.
    public init(identity: FileIdentity, sha256: String) {
        self.identity = identity
        self.sha256 = sha256
    }

    /// Decodes the identity's keys and `sha256` from one object.
    public init(from decoder: Decoder) throws {
        identity = try FileIdentity(from: decoder)
        sha256 = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .sha256)
    }

    /// Encodes the identity's keys and `sha256` into one object.
    public func encode(to encoder: Encoder) throws {
        try identity.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sha256, forKey: .sha256)
    }
}

/// SHA-256 of input files (scans, GCP and mask files), remembered per work folder by their
/// ``FileIdentity`` (device, inode, size, modification time): a file whose identity matches its
/// stamp is not read again (the quick check make and rsync use), so a plan or rerun of many maps
/// does not reread every scan.
final class FileDigests: @unchecked Sendable {
    private let lock = NSLock()
    private var stamps: [String: FileDigest]

    init(stamps: [String: FileDigest]) { self.stamps = stamps }

    /// The stamps known so far (loaded plus computed), for the manifest.
    var all: [String: FileDigest] { lock.lock(); defer { lock.unlock() }; return stamps }

    /// SHA-256 of the file's bytes: the stamp's when `stat` still matches it, else read and
    /// stamped. A missing file digests as the word "missing" and its path. A remote scan (an
    /// IIIF image URL, opened by `scans`) digests as its URL and the digest of its description (its info.json,
    /// ``RemoteScan/version``), never its pixels: a changed image changes its description.
    func digest(of path: String, opening scans: any ScanOpener) -> String {
        if case .url(let url) = Location(path) {
            guard let remote = try? scans.remote(url) else { return "unreachable:\(path)" }
            return "remote:\(path) \(remote.version)"
        }
        guard let identity = FileIdentity(path: path) else { return "missing:\(path)" }
        lock.lock()
        if let s = stamps[path], s.identity == identity {
            lock.unlock()
            return s.sha256
        }
        lock.unlock()
        var h = ContentHash()
        h.update(file: path)
        let digest = h.finalize()
        lock.lock()
        stamps[path] = FileDigest(identity: identity, sha256: digest)
        lock.unlock()
        return digest
    }
}
