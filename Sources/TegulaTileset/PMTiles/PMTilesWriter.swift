import Foundation
import TegulaDeflate
import TegulaGeometry
import TegulaSupport

/// Writes PMTiles v3. Tiles arrive in any order from any thread: each distinct content is
/// appended once to `OUT.data.tmp` (FNV-1a hash, confirmed byte for byte) and every tile gets a
/// 24-byte record in the journal `OUT.index.tmp`, so a killed run resumes from what it wrote.
/// `finish` lays tiles out clustered in Hilbert order (identical tiles stored once, consecutive
/// identical tiles run-length encoded), builds gzip-compressed root + leaf directories with header
/// and root in the first 16 KiB, and replaces OUT atomically (TegulaSupport's `AtomicFile`).
final class PMTilesWriter: TileWriter, @unchecked Sendable {
    let path: String
    let format: TileFormat
    private struct Blob { var offset: UInt64; var length: UInt32 }
    private struct State {
        var dataFD: Int32
        var indexFD: Int32
        var dataEnd: UInt64 = 0
        var tiles: [UInt64: Blob] = [:]
        var byHash: [UInt64: [Blob]] = [:]
        var finished = false
    }
    private let state: Locked<State>
    var dataPath: String { path + ".data.tmp" }
    var indexPath: String { path + ".index.tmp" }

    init(path: String, format: TileFormat, resume: Bool) throws {
        self.path = path
        self.format = format
        let dataPath = path + ".data.tmp", indexPath = path + ".index.tmp"
        let continuing =
            resume && FileManager.default.fileExists(atPath: dataPath)
            && FileManager.default.fileExists(atPath: indexPath)
        let trunc = continuing ? 0 : O_TRUNC
        let dfd = open(dataPath, O_RDWR | O_CREAT | O_CLOEXEC | trunc, 0o644)
        guard dfd >= 0 else { throw TilesetError.io(FileError(path: dataPath, operation: "create", errno: errno)) }
        let ifd = open(indexPath, O_RDWR | O_CREAT | O_CLOEXEC | trunc, 0o644)
        guard ifd >= 0 else { close(dfd); throw TilesetError.io(FileError(path: indexPath, operation: "create", errno: errno)) }
        state = Locked(State(dataFD: dfd, indexFD: ifd))
        if continuing { try recoverJournal() }
        // Resuming a finished archive copies its tiles into the journal first. A run killed
        // during that copy leaves a journal holding part of them while `storedTiles` (the
        // archive's tiles and the journal's) already counts all of them as done, so whatever the
        // journal lacks is copied again here; without this a kill there left a final archive
        // missing those tiles, every one of them once (FaultTests).
        if resume, PMTilesReader.looksLikePMTiles(path) {
            let old = try PMTilesReader(path: path)
            let have = state.withLock { Set($0.tiles.keys) }
            for (t, bytes) in try old.allTiles(except: have) { try write(t, data: bytes) }
        }
    }

    /// Reloads the journal after an interruption, dropping a torn last record or one whose data
    /// did not reach the data file.
    private func recoverJournal() throws {
        try state.withLock { s in
            let index = try FileIO.pread(s.indexFD, count: Int(lseek(s.indexFD, 0, SEEK_END)), at: 0, path: indexPath)
            let dataSize = UInt64(lseek(s.dataFD, 0, SEEK_END))
            var good = 0
            var end: UInt64 = 0
            while good + 24 <= index.count {
                let record = Self.journalRecord(index, at: good)
                let id = record.id, blob = Blob(offset: record.offset, length: record.length)
                guard blob.offset + UInt64(blob.length) <= dataSize else { break }
                s.tiles[id] = blob
                end = max(end, blob.offset + UInt64(blob.length))
                good += 24
            }
            guard ftruncate(s.indexFD, off_t(good)) == 0, ftruncate(s.dataFD, off_t(end)) == 0 else {
                throw TilesetError.io(FileError(path: indexPath, operation: "truncate journal", errno: errno))
            }
            s.dataEnd = end
            var lengths: [UInt64: UInt32] = [:]
            for b in s.tiles.values { lengths[b.offset] = b.length }
            for (offset, length) in lengths.sorted(by: { $0.key < $1.key }) {
                let bytes = try FileIO.pread(s.dataFD, count: Int(length), at: offset, path: dataPath)
                s.byHash[Self.contentKey(bytes), default: []].append(Blob(offset: offset, length: length))
            }
        }
    }

    /// One 24-byte journal record at `p`: tile id, data offset (u64), length (u32), 4 zero bytes.
    private static func journalRecord(_ index: [UInt8], at p: Int) -> (id: UInt64, offset: UInt64, length: UInt32) {
        (
            LittleEndian.read(UInt64.self, from: index, at: p)!, LittleEndian.read(UInt64.self, from: index, at: p + 8)!,
            LittleEndian.read(UInt32.self, from: index, at: p + 16)!
        )
    }

    /// The duplicate index's key: ``FNV1a`` of the tile with its length folded in.
    static func contentKey(_ b: [UInt8]) -> UInt64 {
        FNV1a.hash(b) ^ UInt64(b.count)
    }

    func write(_ tile: Tile, data: [UInt8]) throws {
        try validate(tile, path: path)
        let id = PMTilesID.id(of: tile), hash = Self.contentKey(data)
        try state.withLock { s in
            guard !s.finished else { throw TilesetError.finished(path: path) }
            var blob: Blob?
            for b in s.byHash[hash] ?? [] where Int(b.length) == data.count {
                if try FileIO.pread(s.dataFD, count: data.count, at: b.offset, path: dataPath) == data { blob = b; break }
            }
            if blob == nil {
                let b = Blob(offset: s.dataEnd, length: UInt32(data.count))
                try FileIO.pwriteAll(s.dataFD, data, at: b.offset, path: dataPath)
                s.dataEnd += UInt64(data.count)
                s.byHash[hash, default: []].append(b)
                blob = b
            }
            var rec = [UInt8]()
            rec.reserveCapacity(24)
            LittleEndian.append(id, to: &rec)
            LittleEndian.append(blob!.offset, to: &rec)
            LittleEndian.append(blob!.length, to: &rec)
            LittleEndian.append(UInt32(0), to: &rec)
            try FileIO.writeAll(s.indexFD, rec, path: indexPath)
            s.tiles[id] = blob!
        }
    }

    func finish(metadata: TilesetMetadata) throws {
        try state.withLock { s in
            guard !s.finished else { throw TilesetError.finished(path: path) }
            s.finished = true
            defer { close(s.dataFD); close(s.indexFD) }
            // Cluster: tile data in tile-id order, each distinct content once.
            var placed: [UInt64: UInt64] = [:]
            var order: [Blob] = []
            var entries: [PMTilesEntry] = []
            var next: UInt64 = 0
            for id in s.tiles.keys.sorted() {
                let b = s.tiles[id]!
                let off: UInt64
                if let o = placed[b.offset] {
                    off = o
                } else {
                    off = next
                    placed[b.offset] = off
                    order.append(b)
                    next += UInt64(b.length)
                }
                if var last = entries.last, last.tileId + UInt64(last.runLength) == id,
                    last.offset == off, last.length == b.length
                {
                    last.runLength += 1
                    entries[entries.count - 1] = last
                } else {
                    entries.append(PMTilesEntry(tileId: id, offset: off, length: b.length, runLength: 1))
                }
            }
            let (root, leaves) = Self.buildDirectories(entries)
            var m = metadata
            m.format = format
            let meta = Gzip.compress(JSONValue.object(m.jsonObject).serialized())
            var h = PMTilesHeader()
            h.rootOffset = 127; h.rootLength = UInt64(root.count)
            h.metadataOffset = h.rootOffset + h.rootLength; h.metadataLength = UInt64(meta.count)
            h.leafOffset = h.metadataOffset + h.metadataLength; h.leafLength = UInt64(leaves.count)
            h.tileDataOffset = h.leafOffset + h.leafLength; h.tileDataLength = next
            h.addressedTiles = UInt64(s.tiles.count); h.tileEntries = UInt64(entries.count)
            h.tileContents = UInt64(order.count)
            h.tileType = format.pmtilesType
            h.minZoom = UInt8(clamping: m.zooms.min); h.maxZoom = UInt8(clamping: m.zooms.max)
            func e7(_ d: Double) -> Int32 { Int32((d * 1e7).rounded()) }
            h.minLonE7 = e7(m.bounds.west); h.minLatE7 = e7(m.bounds.south)
            h.maxLonE7 = e7(m.bounds.east); h.maxLatE7 = e7(m.bounds.north)
            h.centerZoom = UInt8(clamping: m.center.zoom)
            h.centerLonE7 = e7(m.center.longitude); h.centerLatE7 = e7(m.center.latitude)

            try FileIO.mapped {
                try AtomicFile.write(to: path) { out in
                    try out.write(h.serialized() + root + meta + leaves)
                    var buffer = [UInt8]()
                    buffer.reserveCapacity(1 << 20)
                    for b in order {
                        buffer += try FileIO.pread(s.dataFD, count: Int(b.length), at: b.offset, path: dataPath)
                        if buffer.count >= 1 << 20 { try out.write(buffer); buffer.removeAll(keepingCapacity: true) }
                    }
                    try out.write(buffer)
                }
            }
            unlink(dataPath)
            unlink(indexPath)
        }
    }

    /// Root directory and leaf section, gzip-compressed, as go-pmtiles builds them: fewer than
    /// 16,384 entries all in the root when they fit the spec's first fetch of 16,384 bytes less
    /// the 127-byte header; else leaves of max(n / 3500, 4096) entries, grown by 1.2× until the
    /// root of leaf pointers fits.
    static func buildDirectories(_ entries: [PMTilesEntry], rootLimit: Int = 16384 - PMTilesHeader.size) -> (root: [UInt8], leaves: [UInt8]) {
        if entries.count < 16384 {
            let root = Gzip.compress(PMTilesDirectory.serialize(entries))
            if root.count <= rootLimit { return (root, []) }
        }
        var leafSize = Double(max(entries.count / 3500, 4096))
        while true {
            var rootEntries: [PMTilesEntry] = [], leaves: [UInt8] = []
            let size = Int(leafSize)
            for start in stride(from: 0, to: entries.count, by: size) {
                let leaf = Gzip.compress(PMTilesDirectory.serialize(Array(entries[start..<min(start + size, entries.count)])))
                rootEntries.append(
                    PMTilesEntry(
                        tileId: entries[start].tileId, offset: UInt64(leaves.count),
                        length: UInt32(leaf.count), runLength: 0))
                leaves += leaf
            }
            let r = Gzip.compress(PMTilesDirectory.serialize(rootEntries))
            if r.count <= rootLimit { return (r, leaves) }
            leafSize *= 1.2
        }
    }

    deinit {
        state.withLock { s in
            if !s.finished { close(s.dataFD); close(s.indexFD) }
        }
    }

    /// Tiles in a finished file at `path` plus those journalled by an interrupted run.
    static func storedTiles(_ path: String) -> Set<Tile> {
        var out = Set<Tile>()
        if let r = try? PMTilesReader(path: path), let all = try? r.allTileIDs() {
            for id in all { out.insert(PMTilesID.tile(of: id)) }
        }
        if let index = try? FileIO.readFile(path + ".index.tmp") {
            var p = 0
            while p + 24 <= index.count {
                out.insert(PMTilesID.tile(of: journalRecord(index, at: p).id))
                p += 24
            }
        }
        return out
    }
}
