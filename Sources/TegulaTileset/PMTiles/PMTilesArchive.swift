import Foundation
import TegulaGeometry
import TegulaSupport

/// Reads PMTiles v3 from a ``ByteSource``, a local file or a remote one (thread-safe): header,
/// root directory and (usually) metadata in one first read of 16 KiB, leaf directories through
/// one bounded cache, each tile's bytes by one read. Directories and metadata may be
/// uncompressed or gzip (libdeflate); unknown, brotli and zstd are refused with an error naming
/// them. Every section, directory and tile must lie inside the file.
///
/// Every read after the first names the file version it expects, so a file replaced on its
/// server is noticed at the next read (``RemoteFileChanged``): ``versionedTile(_:)`` then reads
/// header, root and metadata again and answers from the new file only (a tile is never read
/// through an old directory from a new file). ``version`` names the file version the tiles come
/// from, for ETags and cache-busting URLs. Over a ``SynchronousByteSource`` (a local file) the
/// archive is a ``TileReader`` too, read on the calling thread.
public final class PMTilesArchive<Source: ByteSource>: Sendable {
    /// Where the bytes come from.
    public let source: Source
    /// The tileset's name when its metadata states none.
    let name: String
    private let snapshot: Locked<PMTilesSnapshot>
    private let leaves = PMTilesLeafCache()

    private init(_ source: Source, name: String, _ snap: PMTilesSnapshot) {
        self.source = source
        self.name = name
        snapshot = Locked(snap)
    }

    /// Opens the file at `source`: one read for header, root and (usually) metadata. `name`
    /// stands in for a tileset name the metadata lacks.
    public static func open(_ source: Source, name: String) async throws -> PMTilesArchive {
        PMTilesArchive(source, name: name, try await load(source, name: name, generation: 0))
    }

    /// The tileset's metadata, of the file version read last.
    public var metadata: TilesetMetadata { snapshot.current.metadata }

    /// A short name of the file version the tiles come from (from its ETag or date and size);
    /// it changes when the file is replaced on its server and the reader has noticed.
    public var version: String { snapshot.current.version }

    /// The file version read last, as its source named it.
    public var fileVersion: FileVersion { snapshot.current.file }

    /// The header of the file version read last.
    var header: PMTilesHeader { snapshot.current.header }

    /// Leaf directories in the cache now (at most ``leafCacheLimit``).
    public var cachedLeafCount: Int { leaves.count }

    /// The most leaf directories kept in memory.
    public static var leafCacheLimit: Int { PMTilesLeafCache.leafLimit }

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
        throw TilesetError.corrupt(path: source.location, detail: "the file changed twice while tile \(t) was read; try again")
    }

    // MARK: reading, awaited

    private func read(_ t: Tile, in snap: PMTilesSnapshot) async throws -> [UInt8]? {
        var walk = PMTilesWalk(PMTilesID.id(of: t), root: snap.root)
        while let step = walk.next() {
            switch step {
            case .tile(let e):
                return try await Self.section(
                    source, UInt64(e.length), at: snap.header.tileDataOffset, plus: e.offset,
                    of: snap.file, what: "tile \(t)")
            case .leaf(let e):
                if let hit = leaves.leaf(at: e.offset, generation: snap.generation) { walk.enter(hit); continue }
                walk.enter(
                    try decodedLeaf(
                        try await Self.section(
                            source, UInt64(e.length), at: snap.header.leafOffset, plus: e.offset,
                            of: snap.file, what: "a leaf directory"), e, in: snap))
            }
        }
        return nil
    }

    /// `length` checked bytes at `base + offset` of `file`.
    private static func section(
        _ source: Source, _ length: UInt64, at base: UInt64, plus offset: UInt64 = 0,
        of file: FileVersion, what: String
    ) async throws -> [UInt8] {
        let start = try PMTilesSnapshot.start(length, at: base, plus: offset, in: file, what: what, location: source.location)
        guard length > 0 else { return [] }
        let bytes = try await source.read(offset: start, length: length, of: file).bytes
        return try PMTilesSnapshot.whole(bytes, length, at: start, what: what, location: source.location)
    }

    /// Reads header, root and metadata again after the file changed, unless another read has
    /// already done so; leaves of older versions are dropped.
    private func reload(after old: PMTilesSnapshot) async throws -> PMTilesSnapshot {
        let fresh = try await Self.load(source, name: name, generation: old.generation + 1)
        let current = snapshot.withLock { cur -> PMTilesSnapshot in
            if cur.generation > old.generation { return cur }
            cur = fresh
            return fresh
        }
        leaves.dropAll(but: current.generation)
        return current
    }

    /// Header, root and metadata of the file as it is now.
    private static func load(_ source: Source, name: String, generation: Int) async throws -> PMTilesSnapshot {
        let first = try await source.read(offset: 0, length: PMTilesSnapshot.firstRead, of: nil)
        let h = try PMTilesSnapshot.header(first, location: source.location)
        // A section inside the first read is taken from it; any other is read for this version.
        func part(_ offset: UInt64, _ length: UInt64, _ what: String) async throws -> [UInt8] {
            if let inFirst = PMTilesSnapshot.slice(first, offset, length) { return inFirst }
            return try await section(source, length, at: offset, of: first.version, what: what)
        }
        let root = try await part(h.rootOffset, h.rootLength, "the root directory")
        let metadata = h.metadataLength > 0 ? try await part(h.metadataOffset, h.metadataLength, "the metadata") : nil
        return try PMTilesSnapshot(
            first: first, header: h, root: root, metadata: metadata, generation: generation,
            name: name, location: source.location)
    }

    /// A leaf directory as stored, decoded and kept in the cache.
    private func decodedLeaf(_ raw: [UInt8], _ e: PMTilesEntry, in snap: PMTilesSnapshot) throws -> [PMTilesEntry] {
        guard let entries = PMTilesDirectory.deserialize(try PMTilesSnapshot.decompress(raw, snap.header, source.location)) else {
            throw TilesetError.corrupt(path: source.location, detail: "leaf directory at \(e.offset) is malformed")
        }
        leaves.keep(entries, at: e.offset, generation: snap.generation)
        return entries
    }
}

// MARK: reading on the calling thread

extension PMTilesArchive: TileReader where Source: SynchronousByteSource {
    /// Opens the file at `source` on the calling thread, as ``open(_:name:)``.
    public convenience init(_ source: Source, name: String) throws {
        let first = try source.readNow(offset: 0, length: PMTilesSnapshot.firstRead, of: nil)
        let h = try PMTilesSnapshot.header(first, location: source.location)
        func part(_ offset: UInt64, _ length: UInt64, _ what: String) throws -> [UInt8] {
            try PMTilesSnapshot.slice(first, offset, length) ?? Self.sectionNow(source, length, at: offset, of: first.version, what: what)
        }
        let root = try part(h.rootOffset, h.rootLength, "the root directory")
        let metadata = h.metadataLength > 0 ? try part(h.metadataOffset, h.metadataLength, "the metadata") : nil
        self.init(
            source, name: name,
            try PMTilesSnapshot(
                first: first, header: h, root: root, metadata: metadata, generation: 0,
                name: name, location: source.location))
    }

    /// The tile's bytes, or nil when the file has no such tile, read on the calling thread.
    public func tile(_ t: Tile) throws -> [UInt8]? {
        guard t.isValid else { return nil }
        let snap = snapshot.current
        var walk = PMTilesWalk(PMTilesID.id(of: t), root: snap.root)
        while let step = walk.next() {
            switch step {
            case .tile(let e):
                return try Self.sectionNow(
                    source, UInt64(e.length), at: snap.header.tileDataOffset, plus: e.offset,
                    of: snap.file, what: "tile \(t)")
            case .leaf(let e):
                walk.enter(try leafNow(e, in: snap))
            }
        }
        return nil
    }

    /// Every tile entry, from runs and leaves. A leaf named twice (a cycle, or a fan-out that
    /// would multiply the walk) is refused as corrupt, as are runs addressing more than `limit`
    /// tiles in all.
    private func allEntries(limit: Int) throws -> [PMTilesEntry] {
        let snap = snapshot.current
        var out: [PMTilesEntry] = []
        var visited = Set<UInt64>()
        var addressed = 0
        func walk(_ dir: [PMTilesEntry], depth: Int) throws {
            for e in dir {
                if e.runLength > 0 {
                    addressed += Int(e.runLength)
                    guard addressed <= limit else {
                        throw TilesetError.corrupt(path: source.location, detail: "its runs address more than \(limit) tiles")
                    }
                    out.append(e)
                    continue
                }
                guard depth < 3 else { continue }
                guard visited.insert(e.offset).inserted else {
                    throw TilesetError.corrupt(path: source.location, detail: "leaf directory at \(e.offset) is named twice (a cycle)")
                }
                try walk(try leafNow(e, in: snap), depth: depth + 1)
            }
        }
        try walk(snap.root, depth: 0)
        return out
    }

    /// The ids of every stored tile (at most `limit`).
    func allTileIDs(limit: Int = PMTilesSnapshot.expansionLimit) throws -> [UInt64] {
        try allEntries(limit: limit).flatMap { e in (0..<UInt64(e.runLength)).map { e.tileId + $0 } }
    }

    /// Every tile with its bytes but those whose ids are in `except` (for resuming into a new
    /// writer, which holds those already; at most `limit`). Only the bytes returned are read.
    func allTiles(limit: Int = PMTilesSnapshot.expansionLimit, except: Set<UInt64> = []) throws -> [(Tile, [UInt8])] {
        let snap = snapshot.current
        var out: [(Tile, [UInt8])] = []
        for e in try allEntries(limit: limit) {
            let ids = (0..<UInt64(e.runLength)).map { e.tileId + $0 }.filter { !except.contains($0) }
            if ids.isEmpty { continue }
            let bytes = try Self.sectionNow(
                source, UInt64(e.length), at: snap.header.tileDataOffset, plus: e.offset,
                of: snap.file, what: "tile \(e.tileId)")
            for id in ids { out.append((PMTilesID.tile(of: id), bytes)) }
        }
        return out
    }

    private func leafNow(_ e: PMTilesEntry, in snap: PMTilesSnapshot) throws -> [PMTilesEntry] {
        if let hit = leaves.leaf(at: e.offset, generation: snap.generation) { return hit }
        return try decodedLeaf(
            try Self.sectionNow(
                source, UInt64(e.length), at: snap.header.leafOffset, plus: e.offset,
                of: snap.file, what: "a leaf directory"), e, in: snap)
    }

    /// `length` checked bytes at `base + offset` of `file`, read on the calling thread.
    private static func sectionNow(
        _ source: Source, _ length: UInt64, at base: UInt64, plus offset: UInt64 = 0,
        of file: FileVersion, what: String
    ) throws -> [UInt8] {
        let start = try PMTilesSnapshot.start(length, at: base, plus: offset, in: file, what: what, location: source.location)
        guard length > 0 else { return [] }
        let bytes = try source.readNow(offset: start, length: length, of: file).bytes
        return try PMTilesSnapshot.whole(bytes, length, at: start, what: what, location: source.location)
    }
}

/// The local reader (``Tileset/openReader(at:)``): a PMTiles file read by `pread`.
typealias PMTilesReader = PMTilesArchive<LocalFile>

extension PMTilesArchive where Source == LocalFile {
    /// Opens the PMTiles file at `path`, named by its file name when its metadata states none.
    convenience init(path: String) throws {
        try self.init(LocalFile(path: path), name: (path as NSString).lastPathComponent)
    }

    /// True when the file starts with the PMTiles magic.
    static func looksLikePMTiles(_ path: String) -> Bool {
        guard let file = try? LocalFile(path: path) else { return false }
        return (try? file.readNow(offset: 0, length: 7, of: nil).bytes) == Array("PMTiles".utf8)
    }
}
