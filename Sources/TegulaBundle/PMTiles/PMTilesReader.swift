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
    private let root: [PMTilesEntry]
    private let leafCache = Locked([UInt64: [PMTilesEntry]]())

    init(path: String) throws {
        self.path = path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw BundleError.io(path: path, operation: "open", errno: errno) }
        do {
            guard let h = PMTilesHeader(try FileIO.pread(fd, count: 127, at: 0, path: path)) else {
                throw BundleError.corrupt(path: path, detail: "no PMTiles v3 header (expected magic 'PMTiles' and version 3)")
            }
            header = h
            let rootBytes = try FileIO.pread(fd, count: Int(h.rootLength), at: h.rootOffset, path: path)
            guard let r = PMTilesDirectory.deserialize(try Self.decompress(rootBytes, h, path)) else {
                throw BundleError.corrupt(path: path, detail: "root directory is malformed")
            }
            root = r
            metadata = try Self.readMetadata(fd: fd, header: h, path: path)
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
    static func readMetadata(fd: Int32, header h: PMTilesHeader, path: String) throws -> TilesetMetadata {
        var o: [String: JSONValue] = [:]
        if h.metadataLength > 0 {
            let raw = try FileIO.pread(fd, count: Int(h.metadataLength), at: h.metadataOffset, path: path)
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
        if o["center"] == nil {
            o["center"] = .array([.double(Double(h.centerLonE7) / 1e7), .double(Double(h.centerLatE7) / 1e7), .int(Int(h.centerZoom))])
        }
        if o["name"] == nil { o["name"] = .string((path as NSString).lastPathComponent) }
        return try TilesetMetadata(jsonObject: o, source: path)
    }

    private func leaf(at offset: UInt64, length: UInt32) throws -> [PMTilesEntry] {
        if let cached = leafCache.withLock({ $0[offset] }) { return cached }
        let raw = try FileIO.pread(fd, count: Int(length), at: header.leafOffset + offset, path: path)
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
                return try FileIO.pread(fd, count: Int(e.length), at: header.tileDataOffset + e.offset, path: path)
            }
            dir = try leaf(at: e.offset, length: e.length)
        }
        return nil
    }

    /// Every tile entry, expanded from runs and leaves: (tile id, offset, length).
    private func allEntries() throws -> [PMTilesEntry] {
        var out: [PMTilesEntry] = []
        func walk(_ dir: [PMTilesEntry], depth: Int) throws {
            for e in dir {
                if e.runLength > 0 { out.append(e) }
                else if depth < 3 { try walk(try leaf(at: e.offset, length: e.length), depth: depth + 1) }
            }
        }
        try walk(root, depth: 0)
        return out
    }

    /// The ids of every stored tile.
    func allTileIDs() throws -> [UInt64] {
        try allEntries().flatMap { e in (0..<UInt64(e.runLength)).map { e.tileId + $0 } }
    }

    /// Every tile with its bytes (for resuming into a new writer).
    func allTiles() throws -> [(Tile, [UInt8])] {
        var out: [(Tile, [UInt8])] = []
        for e in try allEntries() {
            let bytes = try FileIO.pread(fd, count: Int(e.length), at: header.tileDataOffset + e.offset, path: path)
            for k in 0..<UInt64(e.runLength) { out.append((PMTilesID.tile(of: e.tileId + k), bytes)) }
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
