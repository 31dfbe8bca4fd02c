import Foundation
import TegulaCodec
import TegulaGeometry
import TegulaSupport

/// Reads PMTiles v3 by `pread` on one file descriptor (thread-safe): header, root directory,
/// leaf directories (cached), tile bytes. Directories and metadata may be uncompressed or gzip
/// (libdeflate); unknown, brotli and zstd are refused with an error naming them.
final class PMTilesReader: TileReader, @unchecked Sendable {
    let path: String
    let metadata: TilesetMetadata
    let header: PMTilesHeader
    private let fd: Int32
    /// The file's size when opened: every section, directory and tile must lie inside it.
    private let fileSize: UInt64
    private let root: [PMTilesEntry]
    private let leafCache = Locked([UInt64: [PMTilesEntry]]())

    init(path: String) throws {
        self.path = path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw BundleError.io(path: path, operation: "open", errno: errno) }
        do {
            var st = stat()
            guard fstat(fd, &st) == 0 else { throw BundleError.io(path: path, operation: "fstat", errno: errno) }
            fileSize = UInt64(max(0, st.st_size))
            guard let h = PMTilesHeader(try FileIO.pread(fd, count: 127, at: 0, path: path)) else {
                throw BundleError.corrupt(path: path, detail: "no PMTiles v3 header (expected magic 'PMTiles' and version 3)")
            }
            header = h
            let rootBytes = try Self.read(fd, h.rootLength, at: h.rootOffset, fileSize: fileSize, what: "the root directory", path)
            guard let r = PMTilesDirectory.deserialize(try Self.decompress(rootBytes, h, path)) else {
                throw BundleError.corrupt(path: path, detail: "root directory is malformed")
            }
            root = r
            metadata = try Self.readMetadata(fd: fd, header: h, fileSize: fileSize, path: path)
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    /// The most bytes one directory or the metadata may decompress to: 64 MiB, far above any
    /// real directory (a full leaf of go-pmtiles is a few hundred KiB) and small enough that a
    /// hostile file cannot make the reader allocate gigabytes.
    static let decompressedLimit = 64 << 20

    /// A directory or the metadata as stored, decoded by the header's internal compression.
    static func decompress(_ b: [UInt8], _ h: PMTilesHeader, _ path: String) throws -> [UInt8] {
        switch h.internalCompression {
        case .none:
            return b
        case .gzip:
            do {
                return try Gzip.decompress(b, limit: decompressedLimit)
            } catch {
                throw BundleError.corrupt(path: path, detail: "a gzip directory or metadata block cannot be read: \(error)")
            }
        case .unknown, .brotli, .zstd:
            throw BundleError.corrupt(path: path, detail: "directories and metadata are compressed with "
                                      + "'\(h.internalCompression)', which Tegula does not read (need none or gzip)")
        }
    }

    /// Metadata from the JSON section, with header values filling what it lacks.
    static func readMetadata(fd: Int32, header h: PMTilesHeader, fileSize: UInt64, path: String) throws -> TilesetMetadata {
        let raw = h.metadataLength > 0
            ? try read(fd, h.metadataLength, at: h.metadataOffset, fileSize: fileSize, what: "the metadata", path) : nil
        return try metadata(raw, header: h, name: (path as NSString).lastPathComponent, path: path)
    }

    /// Metadata from the JSON section as stored (`raw`, nil when there is none), with header
    /// values filling what it lacks and `name` when it has none; local and remote readers share it.
    static func metadata(_ raw: [UInt8]?, header h: PMTilesHeader, name: String, path: String) throws -> TilesetMetadata {
        var o: [String: JSONValue] = [:]
        if let raw {
            o = (try? JSONValue.parse(try decompress(raw, h, path)))?.objectValue ?? [:]
        }
        if o["format"]?.stringValue.flatMap(TileFormat.init(name:)) == nil {
            guard let f = TileFormat(pmtilesType: h.tileType) else {
                throw BundleError.corrupt(path: path, detail: "tile type \(h.tileType) is not an image (need 2 png, 3 jpeg, 4 webp)")
            }
            o["format"] = .string(f.rawValue)
        }
        if o["minzoom"]?.intValue == nil { o["minzoom"] = .int(Int(h.minZoom)) }
        if o["maxzoom"]?.intValue == nil { o["maxzoom"] = .int(Int(h.maxZoom)) }
        if o["bounds"] == nil {
            o["bounds"] = .array([h.minLonE7, h.minLatE7, h.maxLonE7, h.maxLatE7].map { .double(Double($0) / 1e7) })
        }
        // The header's centre is a hint: a zoom byte past 30 (a fuzzed header, `run-of-4-billion-tiles`)
        // drops it rather than refusing an archive whose tiles may be fine. A centre written in
        // the JSON metadata is the writer's own statement and is checked as such.
        if o["center"] == nil, Int(h.centerZoom) <= WebMercator.maxZoom {
            o["center"] = .array([.double(Double(h.centerLonE7) / 1e7), .double(Double(h.centerLatE7) / 1e7), .int(Int(h.centerZoom))])
        }
        if o["name"] == nil { o["name"] = .string(name) }
        return try TilesetMetadata(jsonObject: o, source: path)
    }

    /// `length` bytes at `base + offset`, refused (corrupt, naming `what`) when that range does not
    /// lie inside the file: a hostile header or entry can neither overflow the sum nor make the
    /// reader allocate more than the file holds.
    static func read(_ fd: Int32, _ length: UInt64, at base: UInt64, plus offset: UInt64 = 0, fileSize: UInt64,
                     what: String, _ path: String) throws -> [UInt8] {
        let (start, o1) = base.addingReportingOverflow(offset)
        let (end, o2) = start.addingReportingOverflow(length)
        guard !o1, !o2, end <= fileSize else {
            throw BundleError.corrupt(path: path, detail: "\(what) (\(length) bytes at \(base) + \(offset)) lies past the end of the \(fileSize)-byte file")
        }
        let bytes = try FileIO.pread(fd, count: Int(length), at: start, path: path)
        // The file may have shrunk since it was opened (cut while served): a short read is an
        // error, never a truncated tile answered as if whole.
        guard bytes.count == Int(length) else {
            throw BundleError.corrupt(path: path, detail: "\(what) (\(length) bytes at \(start)) was cut short: the file ended after \(bytes.count) bytes of it")
        }
        return bytes
    }

    private func leaf(at offset: UInt64, length: UInt32) throws -> [PMTilesEntry] {
        if let cached = leafCache.withLock({ $0[offset] }) { return cached }
        let raw = try Self.read(fd, UInt64(length), at: header.leafOffset, plus: offset, fileSize: fileSize,
                                what: "a leaf directory", path)
        guard let entries = PMTilesDirectory.deserialize(try Self.decompress(raw, header, path)) else {
            throw BundleError.corrupt(path: path, detail: "leaf directory at \(offset) is malformed")
        }
        leafCache.withLock { c in
            if c.count > 4096 { c.removeAll() }
            c[offset] = entries
        }
        return entries
    }

    func tile(_ t: Tile) throws -> [UInt8]? {
        guard t.isValid else { return nil }
        let id = PMTilesID.id(of: t)
        var dir = root
        for _ in 0..<4 {
            guard let e = PMTilesDirectory.find(dir, id) else { return nil }
            if e.runLength > 0 {
                return try Self.read(fd, UInt64(e.length), at: header.tileDataOffset, plus: e.offset, fileSize: fileSize,
                                     what: "tile \(t)", path)
            }
            dir = try leaf(at: e.offset, length: e.length)
        }
        return nil
    }

    /// The most tiles `allTileIDs` and `allTiles` expand runs to: every tile of zoom 12. A few
    /// hundred bytes of directory can claim 2^32 tiles per run; past this the archive is refused
    /// rather than expanded.
    static let expansionLimit = 1 << 24

    /// Every tile entry, from runs and leaves: (tile id, offset, length). A leaf named twice (a
    /// cycle, or a fan-out that would multiply the walk) is refused as corrupt, as are runs
    /// addressing more than `limit` tiles in all.
    private func allEntries(limit: Int) throws -> [PMTilesEntry] {
        var out: [PMTilesEntry] = []
        var visited = Set<UInt64>()
        var addressed = 0
        func walk(_ dir: [PMTilesEntry], depth: Int) throws {
            for e in dir {
                if e.runLength > 0 {
                    addressed += Int(e.runLength)
                    guard addressed <= limit else {
                        throw BundleError.corrupt(path: path, detail: "its runs address more than \(limit) tiles")
                    }
                    out.append(e)
                    continue
                }
                guard depth < 3 else { continue }
                guard visited.insert(e.offset).inserted else {
                    throw BundleError.corrupt(path: path, detail: "leaf directory at \(e.offset) is named twice (a cycle)")
                }
                try walk(try leaf(at: e.offset, length: e.length), depth: depth + 1)
            }
        }
        try walk(root, depth: 0)
        return out
    }

    /// The ids of every stored tile (at most `limit`).
    func allTileIDs(limit: Int = expansionLimit) throws -> [UInt64] {
        try allEntries(limit: limit).flatMap { e in (0..<UInt64(e.runLength)).map { e.tileId + $0 } }
    }

    /// Every tile with its bytes but those whose ids are in `except` (for resuming into a new
    /// writer, which holds those already; at most `limit`). Only the bytes returned are read.
    func allTiles(limit: Int = expansionLimit, except: Set<UInt64> = []) throws -> [(Tile, [UInt8])] {
        var out: [(Tile, [UInt8])] = []
        for e in try allEntries(limit: limit) {
            let ids = (0..<UInt64(e.runLength)).map { e.tileId + $0 }.filter { !except.contains($0) }
            if ids.isEmpty { continue }
            let bytes = try Self.read(fd, UInt64(e.length), at: header.tileDataOffset, plus: e.offset, fileSize: fileSize,
                                      what: "tile \(e.tileId)", path)
            for id in ids { out.append((PMTilesID.tile(of: id), bytes)) }
        }
        return out
    }

    /// True when the file starts with the PMTiles magic.
    static func looksLikePMTiles(_ path: String) -> Bool {
        guard let fd = Optional(open(path, O_RDONLY | O_CLOEXEC)), fd >= 0 else { return false }
        defer { close(fd) }
        return (try? FileIO.pread(fd, count: 7, at: 0, path: path)) == Array("PMTiles".utf8)
    }
}
