import Foundation
import TegulaComposite
import TegulaCrypto
import TegulaGeometry
import TegulaSupport
import TegulaTileset

/// A file of tiles in id order (``QuadtreeIDs``), the unit a shard commits: `TEGULA-PACK/1\n`, a
/// 4-byte little-endian length and a JSON header (the plan hash, each zoom's byte offset and tile
/// count, the tile count and digest), then per tile its id (8 bytes), length (4 bytes) and
/// bytes. Written whole to a temporary name, flushed to disk and renamed, so a pack either
/// exists complete or not at all. The digest is SHA-256 over the tile records (id, length,
/// bytes) in order.
struct TilePack {
    static let magic = Array("TEGULA-PACK/1\n".utf8)

    struct Header: Codable, Equatable {
        var plan: String
        /// Zoom (the set's) → [offset, count] of its tile records.
        var zooms: [String: [UInt64]]
        var tiles: Int
        var digest: String
        /// The first and last tile id, when it holds tiles.
        var first: UInt64?
        var last: UInt64?
    }

    let path: String
    let header: Header

    /// Read a pack's header; nil when the file is missing, torn or not a pack.
    static func open(_ path: String) -> TilePack? {
        guard let fh = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? fh.close() }
        guard let head = try? fh.read(upToCount: magic.count + 4), head.count == magic.count + 4,
            Array(head.prefix(magic.count)) == magic
        else { return nil }
        let n = head.suffix(4).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        guard n < 1 << 24, let json = try? fh.read(upToCount: n), json.count == n,
            let header = try? JSONDecoder().decode(Header.self, from: json)
        else { return nil }
        return TilePack(path: path, header: header)
    }

    /// The tiles of one zoom, in id order.
    func tiles(zoom: Int) throws -> [(id: UInt64, data: [UInt8])] {
        guard let z = header.zooms["\(zoom)"], z.count == 2 else { return [] }
        guard let fh = FileHandle(forReadingAtPath: path) else {
            throw ShardError(.missingParts, at: path, "cannot open the pack")
        }
        defer { try? fh.close() }
        try fh.seek(toOffset: z[0])
        var out: [(UInt64, [UInt8])] = []
        out.reserveCapacity(Int(z[1]))
        let torn = ShardError(.corruptPart, at: path, "the pack is shorter than its header says")
        for _ in 0..<z[1] {
            guard let rec = try fh.read(upToCount: 12), rec.count == 12 else { throw torn }
            let r = Array(rec)
            let id = r[0..<8].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << UInt64(8 * $1.offset) }
            let len = r[8..<12].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
            guard let data = try fh.read(upToCount: len), data.count == len else { throw torn }
            out.append((id, Array(data)))
        }
        return out
    }

    /// The record of one tile as the digest sees it.
    static func record(_ id: UInt64, _ data: [UInt8]) -> [UInt8] {
        var r = [UInt8]()
        r.reserveCapacity(12)
        for k in 0..<8 { r.append(UInt8((id >> UInt64(8 * k)) & 0xFF)) }
        for k in 0..<4 { r.append(UInt8((data.count >> (8 * k)) & 0xFF)) }
        return r
    }

    /// Write `tiles` (any order), keyed by their `ids`, as a pack at `path`, atomically. Returns its
    /// header.
    @discardableResult
    static func write(_ tiles: [UInt64: [UInt8]], ids naming: QuadtreeIDs, plan: String, to path: String) throws -> Header {
        let ids = tiles.keys.sorted()
        var body: [UInt8] = []
        body.reserveCapacity(tiles.values.reduce(0) { $0 + $1.count + 12 })
        var digest = ContentHash()
        var sections: [Int: (start: Int, count: UInt64)] = [:]
        for id in ids {
            let z = naming.tile(of: id).z
            if sections[z] == nil { sections[z] = (body.count, 0) }
            sections[z]!.count += 1
            let data = tiles[id]!
            let rec = record(id, data)
            digest.update(rec)
            digest.update(data)
            body += rec
            body += data
        }
        let hex = digest.finalize()
        // The header's length depends on the offsets it holds: lay out until it is stable.
        func header(base: Int) -> Header {
            Header(
                plan: plan, zooms: Dictionary(uniqueKeysWithValues: sections.map { ("\($0.key)", [UInt64(base + $0.value.start), $0.value.count]) }),
                tiles: ids.count, digest: hex, first: ids.first, last: ids.last)
        }
        let enc = JSONStyle.compact.encoder()  // no `/` in a header: the bytes it had with `/` escaped
        var base = magic.count + 4
        var json = try enc.encode(header(base: base))
        while base != magic.count + 4 + json.count {
            base = magic.count + 4 + json.count
            json = try enc.encode(header(base: base))
        }
        var file = magic
        for k in 0..<4 { file.append(UInt8((json.count >> (8 * k)) & 0xFF)) }
        file += Array(json)
        file += body
        // Flushed to disk before the rename: on a shared file system a part must survive the
        // machine that wrote it.
        try AtomicFile.write(to: path) { f in
            try f.write(file)
            guard fsync(f.descriptor) == 0 else {
                throw ShardError(.writeFailed, at: f.temporaryPath, "cannot flush: \(String(cString: strerror(errno)))")
            }
        }
        return header(base: base)
    }
}
