import Foundation
import TegulaCodec
import TegulaGeometry
import TegulaSupport

/// One version of a file read by byte ranges, as its server names it: the validators sent back
/// with every later read (`If-Match`, or `If-Unmodified-Since` without a strong ETag) and its size.
public struct RemoteFileVersion: Hashable, Sendable {
    /// The entity tag as the server sent it, quotes included (`"abc"`, `W/"abc"`); nil when none.
    public var etag: String?
    /// The `Last-Modified` date as sent; nil when none.
    public var lastModified: String?
    /// The whole file's size in bytes.
    public var size: UInt64

    /// A version from its validators and size.
    public init(etag: String?, lastModified: String?, size: UInt64) {
        self.etag = etag
        self.lastModified = lastModified
        self.size = size
    }

    /// True for an ETag `If-Match` can compare (RFC 9110 §13.1.1: strong comparison only).
    public var hasStrongETag: Bool { etag.map { !$0.hasPrefix("W/") } ?? false }
}

/// What a range read answers: the bytes and the version of the file they came from.
public struct RangeRead: Sendable {
    /// The bytes read.
    public var bytes: [UInt8]
    /// The file's version, from this answer's headers.
    public var version: RemoteFileVersion

    /// A read's bytes and version.
    public init(bytes: [UInt8], version: RemoteFileVersion) {
        self.bytes = bytes
        self.version = version
    }
}

/// Thrown by a ``ByteRangeSource`` when the file is no longer the version asked for (HTTP 412
/// to `If-Match`, or a different ETag or size in the answer): the reader then re-reads header
/// and root rather than mix two files' bytes.
public struct RemoteFileChanged: Error, Sendable {
    /// A read with no version condition.
    public init() {}
}

/// Where a remote tileset's bytes come from: an HTTP server answering range requests
/// (TegulaRemote's `HTTPRangeSource`), or anything else that reads ranges of one versioned file.
public protocol ByteRangeSource: Sendable {
    /// The file's URL, for error messages and the tileset's name.
    var location: String { get }
    /// `length` bytes at `offset` (fewer only where the file ends), of `version` when it is given;
    /// throws ``RemoteFileChanged`` when the file is no longer that version.
    func read(offset: UInt64, length: UInt64, of version: RemoteFileVersion?) async throws -> RangeRead
}

/// Reads PMTiles v3 by range requests: header and root directory (and metadata, which Tegula and
/// go-pmtiles write right after the root) in one first read of 16 KiB, then leaf directories
/// through a bounded cache and each tile's bytes by one read. Every read after the first names
/// the version it expects, so a file replaced on the server is noticed at the next read; the
/// reader then reads header, root and metadata again and answers from the new file only (a tile
/// is never read through an old directory from a new file). ``version`` names the file version
/// the tiles come from, for ETags and cache-busting URLs.
public final class RemotePMTilesReader: TileReader, @unchecked Sendable {
    /// The first read: the spec's 16,384 bytes, which hold header and root by its own rule.
    static let firstRead: UInt64 = 16384
    /// Leaf directories kept: 256 covers 256 × 4,096 tiles or more (a leaf of go-pmtiles or
    /// Tegula holds at least 4,096 entries), a whole region of a large pyramid.
    public static let leafCacheLimit = 256
    /// Entries kept in all cached leaves: 2^20 entries of 24 bytes, 24 MiB, however large the
    /// leaves of a file are (the oldest leaves are dropped first).
    public static let leafCacheEntryLimit = 1 << 20

    /// One version of the file as read: header, root, metadata and what names the version.
    struct Snapshot: Sendable {
        let header: PMTilesHeader
        let root: [PMTilesEntry]
        let metadata: TilesetMetadata
        let file: RemoteFileVersion
        /// Counts re-reads: leaves are cached per generation.
        let generation: Int
        /// ``RemotePMTilesReader/version``.
        let version: String
    }

    private struct LeafKey: Hashable {
        var generation: Int
        var offset: UInt64
    }

    /// Where the bytes come from.
    public let source: any ByteRangeSource
    private let snapshot: Locked<Snapshot>
    private let leaves = Locked((entries: [LeafKey: [PMTilesEntry]](), order: [LeafKey](), held: 0))
    private let reads = Locked(0)

    /// Opens the file at `source`: one read for header, root and (usually) metadata.
    public static func open(_ source: any ByteRangeSource) async throws -> RemotePMTilesReader {
        let counter = Locked(0)
        let snap = try await load(source, generation: 0, counting: counter)
        return RemotePMTilesReader(source, snap, reads: counter.current)
    }

    private init(_ source: any ByteRangeSource, _ snap: Snapshot, reads: Int) {
        self.source = source
        snapshot = Locked(snap)
        self.reads.withLock { $0 = reads }
    }

    /// The tileset's metadata, of the file version read last.
    public var metadata: TilesetMetadata { snapshot.current.metadata }

    /// A short name of the file version the tiles come from (from its ETag or date and size);
    /// it changes when the file on the server is replaced and the reader has noticed.
    public var version: String { snapshot.current.version }

    /// The file version read last, as the server named it.
    public var fileVersion: RemoteFileVersion { snapshot.current.file }

    /// Range reads made so far (opening included): tests check that header and root are read
    /// once and leaves are cached.
    public var readCount: Int { reads.current }

    /// Leaf directories in the cache now (at most ``leafCacheLimit``).
    public var cachedLeafCount: Int { leaves.withLock { $0.entries.count } }

    /// The tile's bytes, or nil when the file has no such tile. Blocks the calling thread until
    /// the reads are done (``TileReader``); servers await ``tile(_:)-async`` or ``versionedTile(_:)``.
    public func tile(_ t: Tile) throws -> [UInt8]? {
        try Self.blocking { try await self.versionedTile(t).bytes }
    }

    /// The tile's bytes, or nil when the file has no such tile.
    public func tile(_ t: Tile) async throws -> [UInt8]? {
        try await versionedTile(t).bytes
    }

    /// The tile's bytes (nil when absent) and the ``version`` of the file they were read from. A
    /// file replaced since the last read is read again once; replaced again meanwhile, the read
    /// fails rather than loop.
    public func versionedTile(_ t: Tile) async throws -> (bytes: [UInt8]?, version: String) {
        var snap = snapshot.current
        guard t.isValid else { return (nil, snap.version) }
        for _ in 0..<2 {
            do {
                return (try await read(t, in: snap), snap.version)
            } catch is RemoteFileChanged {
                snap = try await reload(after: snap)
            }
        }
        throw BundleError.corrupt(path: source.location, detail: "the file changed twice while tile \(t) was read; try again")
    }

    // MARK: reading

    private func read(_ t: Tile, in snap: Snapshot) async throws -> [UInt8]? {
        let id = PMTilesID.id(of: t)
        var dir = snap.root
        for _ in 0..<4 {
            guard let e = PMTilesDirectory.find(dir, id) else { return nil }
            if e.runLength > 0 {
                return try await section(UInt64(e.length), at: snap.header.tileDataOffset, plus: e.offset, in: snap,
                                         what: "tile \(t)")
            }
            dir = try await leaf(e, in: snap)
        }
        return nil
    }

    private func leaf(_ e: PMTilesEntry, in snap: Snapshot) async throws -> [PMTilesEntry] {
        let key = LeafKey(generation: snap.generation, offset: e.offset)
        if let hit = leaves.withLock({ $0.entries[key] }) { return hit }
        let raw = try await section(UInt64(e.length), at: snap.header.leafOffset, plus: e.offset, in: snap, what: "a leaf directory")
        guard let entries = PMTilesDirectory.deserialize(try PMTilesReader.decompress(raw, snap.header, source.location)) else {
            throw BundleError.corrupt(path: source.location, detail: "leaf directory at \(e.offset) is malformed")
        }
        leaves.withLock { c in
            guard c.entries.updateValue(entries, forKey: key) == nil else { return }
            c.order.append(key)
            c.held += entries.count
            while c.entries.count > Self.leafCacheLimit || (c.held > Self.leafCacheEntryLimit && c.order.count > 1) {
                c.held -= c.entries.removeValue(forKey: c.order.removeFirst())?.count ?? 0
            }
        }
        return entries
    }

    /// `length` bytes at `base + offset` of the snapshot's file version, refused (corrupt) when
    /// the range does not lie inside the file.
    private func section(_ length: UInt64, at base: UInt64, plus offset: UInt64, in snap: Snapshot, what: String) async throws -> [UInt8] {
        try await Self.section(source, length, at: base, plus: offset, of: snap.file, what: what, counting: reads)
    }

    private static func section(_ source: any ByteRangeSource, _ length: UInt64, at base: UInt64, plus offset: UInt64 = 0,
                                of file: RemoteFileVersion, what: String, counting reads: Locked<Int>) async throws -> [UInt8] {
        let (start, o1) = base.addingReportingOverflow(offset)
        let (end, o2) = start.addingReportingOverflow(length)
        guard !o1, !o2, end <= file.size else {
            throw BundleError.corrupt(path: source.location, detail: "\(what) (\(length) bytes at \(base) + \(offset)) lies past the end of the \(file.size)-byte file")
        }
        guard length > 0 else { return [] }
        reads.withLock { $0 += 1 }
        let r = try await source.read(offset: start, length: length, of: file)
        guard UInt64(r.bytes.count) == length else {
            throw BundleError.corrupt(path: source.location, detail: "\(what): asked for \(length) bytes at \(start), got \(r.bytes.count)")
        }
        return r.bytes
    }

    /// Reads header, root and metadata again after the file changed, unless another read has
    /// already done so; leaves of older versions are dropped.
    private func reload(after old: Snapshot) async throws -> Snapshot {
        let fresh = try await Self.load(source, generation: old.generation + 1, counting: reads)
        let current = snapshot.withLock { cur -> Snapshot in
            if cur.generation > old.generation { return cur }
            cur = fresh
            return fresh
        }
        leaves.withLock { c in
            c.entries = c.entries.filter { $0.key.generation == current.generation }
            c.order = c.order.filter { $0.generation == current.generation }
            c.held = c.entries.values.reduce(0) { $0 + $1.count }
        }
        return current
    }

    /// Header, root and metadata of the file as it is now.
    private static func load(_ source: any ByteRangeSource, generation: Int, counting reads: Locked<Int>) async throws -> Snapshot {
        let path = source.location
        reads.withLock { $0 += 1 }
        let first = try await source.read(offset: 0, length: firstRead, of: nil)
        guard let h = PMTilesHeader(first.bytes) else {
            let what = first.bytes.starts(with: Array("PMTiles".utf8)) ? "PMTiles version \(first.bytes.count > 7 ? Int(first.bytes[7]) : 0)"
                : "no 'PMTiles' magic in its first bytes"
            throw BundleError.corrupt(path: path, detail: "not a PMTiles v3 file (\(what))")
        }
        let file = first.version
        // A section inside the first read is taken from it; any other is read for this version.
        func part(_ offset: UInt64, _ length: UInt64, _ what: String) async throws -> [UInt8] {
            let (end, overflow) = offset.addingReportingOverflow(length)
            if !overflow && end <= UInt64(first.bytes.count) { return Array(first.bytes[Int(offset)..<Int(end)]) }
            return try await section(source, length, at: offset, of: file, what: what, counting: reads)
        }
        guard let root = PMTilesDirectory.deserialize(try PMTilesReader.decompress(try await part(h.rootOffset, h.rootLength, "the root directory"), h, path)) else {
            throw BundleError.corrupt(path: path, detail: "root directory is malformed")
        }
        let raw = h.metadataLength > 0 ? try await part(h.metadataOffset, h.metadataLength, "the metadata") : nil
        let metadata = try PMTilesReader.metadata(raw, header: h, name: name(of: path), path: path)
        return Snapshot(header: h, root: root, metadata: metadata, file: file, generation: generation,
                        version: versionName(file))
    }

    /// A tileset name from a URL: its last path segment without `.pmtiles`, query left out.
    public static func name(of url: String) -> String {
        let path = URLComponents(string: url)?.path ?? url
        return Tileset.name(of: path.isEmpty ? url : path)
    }

    /// 16 hex digits naming a file version: FNV-1a of its ETag (else its date) and size, safe
    /// inside a quoted ETag and a URL query.
    static func versionName(_ v: RemoteFileVersion) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in Array((v.etag ?? v.lastModified ?? "").utf8) + Array(String(v.size).utf8) {
            h = (h ^ UInt64(b)) &* 0x100_0000_01b3
        }
        return String(h, radix: 16).leftPadded(to: 16)
    }

    /// Runs `body` on a task of its own and blocks this thread for its result: the synchronous
    /// ``TileReader`` call on top of async range reads.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Result<T, any Error>?>(nil)
        Task.detached {
            do {
                let v = try await body()
                result.withLock { $0 = .success(v) }
            } catch {
                result.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return try result.current!.get()
    }
}

private extension String {
    func leftPadded(to n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
