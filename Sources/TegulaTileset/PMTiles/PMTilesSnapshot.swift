import TegulaDeflate
import TegulaGeometry
import TegulaSupport

/// One version of a PMTiles file as opened: header, root directory, metadata and the version
/// they came from; with the rules that turn stored bytes into them and check every range
/// against the file, written once for every ``ByteSource``.
struct PMTilesSnapshot: Sendable {
    let header: PMTilesHeader
    let root: [PMTilesEntry]
    let metadata: TilesetMetadata
    let file: FileVersion
    /// Counts re-reads: leaves are cached per generation.
    let generation: Int
    /// 16 hex digits naming `file` (``PMTilesArchive/version``).
    let version: String

    /// The first read: the spec's 16,384 bytes, which hold header and root by its own rule (and
    /// the metadata, which Tegula and go-pmtiles write right after the root).
    static let firstRead: UInt64 = 16384

    /// The most bytes one directory or the metadata may decompress to: 64 MiB, far above any
    /// real directory (a full leaf of go-pmtiles is a few hundred KiB) and small enough that a
    /// hostile file cannot make the reader allocate gigabytes.
    static let decompressedLimit = 64 << 20

    /// The most tiles `allTileIDs` and `allTiles` expand runs to: every tile of zoom 12. A few
    /// hundred bytes of directory can claim 2^32 tiles per run; past this the archive is refused
    /// rather than expanded.
    static let expansionLimit = 1 << 24

    /// The snapshot from a first read and the stored root and metadata (nil when there is none);
    /// `name` stands in for a tileset name the metadata lacks.
    init(
        first: RangeRead, header h: PMTilesHeader, root: [UInt8], metadata: [UInt8]?, generation: Int,
        name: String, location: String
    ) throws {
        guard let r = PMTilesDirectory.deserialize(try Self.decompress(root, h, location)) else {
            throw TilesetError.corrupt(path: location, detail: "root directory is malformed")
        }
        header = h
        self.root = r
        self.metadata = try Self.metadata(metadata, header: h, name: name, path: location)
        file = first.version
        self.generation = generation
        version = Self.versionName(first.version)
    }

    /// The header at the start of a first read; refused, saying what the bytes are instead.
    static func header(_ first: RangeRead, location: String) throws -> PMTilesHeader {
        if let h = PMTilesHeader(first.bytes) { return h }
        let b = first.bytes
        let what =
            !b.starts(with: Array("PMTiles".utf8))
            ? "no 'PMTiles' magic in its first bytes"
            : b.count < PMTilesHeader.size
                ? "\(b.count) bytes, less than a header"
                : "PMTiles version \(b.count > 7 ? Int(b[7]) : 0)"
        throw TilesetError.corrupt(path: location, detail: "not a PMTiles v3 file (\(what))")
    }

    /// The bytes at `offset` when the first read holds all `length` of them.
    static func slice(_ first: RangeRead, _ offset: UInt64, _ length: UInt64) -> [UInt8]? {
        let (end, overflow) = offset.addingReportingOverflow(length)
        guard !overflow && end <= UInt64(first.bytes.count) else { return nil }
        return Array(first.bytes[Int(offset)..<Int(end)])
    }

    /// Where `length` bytes at `base + offset` start, refused (corrupt, naming `what`) when that
    /// range does not lie inside `file`: a hostile header or entry can neither overflow the sum
    /// nor make the reader allocate more than the file holds.
    static func start(
        _ length: UInt64, at base: UInt64, plus offset: UInt64, in file: FileVersion, what: String,
        location: String
    ) throws -> UInt64 {
        let (start, o1) = base.addingReportingOverflow(offset)
        let (end, o2) = start.addingReportingOverflow(length)
        guard !o1, !o2, end <= file.size else {
            throw TilesetError.corrupt(
                path: location, detail: "\(what) (\(length) bytes at \(base) + \(offset)) lies past the end of the \(file.size)-byte file")
        }
        return start
    }

    /// The bytes a read at `start` answered, refused unless all `length` came: the file may have
    /// shrunk since it was opened (cut while served), and a truncated tile is never answered as
    /// if whole.
    static func whole(_ bytes: [UInt8], _ length: UInt64, at start: UInt64, what: String, location: String) throws -> [UInt8] {
        guard UInt64(bytes.count) == length else {
            throw TilesetError.corrupt(
                path: location, detail: "\(what) (\(length) bytes at \(start)) was cut short: the file ended after \(bytes.count) bytes of it")
        }
        return bytes
    }

    /// A directory or the metadata as stored, decoded by the header's internal compression.
    static func decompress(_ b: [UInt8], _ h: PMTilesHeader, _ path: String) throws -> [UInt8] {
        switch h.internalCompression {
        case .none:
            return b
        case .gzip:
            do {
                return try Gzip.decompress(b, limit: decompressedLimit)
            } catch {
                throw TilesetError.corrupt(path: path, detail: "a gzip directory or metadata block cannot be read: \(error)")
            }
        case .unknown, .brotli, .zstd:
            throw TilesetError.corrupt(
                path: path,
                detail: "directories and metadata are compressed with "
                    + "'\(h.internalCompression)', which Tegula does not read (need none or gzip)")
        }
    }

    /// Metadata from the JSON section as stored (`raw`, nil when there is none), with header
    /// values filling what it lacks and `name` when it has none.
    static func metadata(_ raw: [UInt8]?, header h: PMTilesHeader, name: String, path: String) throws -> TilesetMetadata {
        var o: [String: JSONValue] = [:]
        if let raw {
            o = (try? JSONValue.parse(try decompress(raw, h, path)))?.objectValue ?? [:]
        }
        if o["format"]?.stringValue.flatMap(TileFormat.init(name:)) == nil {
            guard let f = TileFormat(pmtilesType: h.tileType) else {
                throw TilesetError.corrupt(path: path, detail: "tile type \(h.tileType) is not an image (need 2 png, 3 jpeg, 4 webp)")
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

    /// 16 hex digits naming a file version: ``FNV1a`` of its ETag (else its date) and then its
    /// size in decimal, safe inside a quoted ETag and a URL query.
    static func versionName(_ v: FileVersion) -> String {
        var h = FNV1a()
        h.update(v.etag ?? v.lastModified ?? "")
        h.update(String(v.size))
        return h.hex
    }
}
