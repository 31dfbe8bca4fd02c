import Foundation
import TegulaGeometry
import TegulaSupport

/// Reads MBTiles 1.3 (ours or any other writer's). Tiles are looked up by TMS row; a small pool
/// of read-only connections lets server threads read in parallel.
final class MBTilesReader: TileReader, @unchecked Sendable {
    let path: String
    let metadata: TilesetMetadata
    private final class Connection {
        let db: SQLiteDatabase
        let select: SQLiteStatement
        init(path: String) throws {
            db = try SQLiteDatabase(path: path, readOnly: true)
            select = try db.prepare("SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")
        }
    }
    private let pool: Locked<[Connection]>

    init(path: String) throws {
        self.path = path
        let first = try Connection(path: path)
        guard Self.hasTilesTable(first.db) else {
            throw TilesetError.corrupt(path: path, detail: "no `tiles` table (MBTiles 1.3 needs tiles(zoom_level, tile_column, tile_row, tile_data))")
        }
        metadata = try Self.readMetadata(first.db)
        pool = Locked([first])
    }

    func tile(_ t: Tile) throws -> [UInt8]? {
        guard t.isValid else { return nil }
        let c = try pool.withLock { $0.popLast() } ?? Connection(path: path)
        defer { pool.withLock { if $0.count < 8 { $0.append(c) } } }
        c.select.reset()
        c.select.bind(1, t.z)
        c.select.bind(2, t.x)
        c.select.bind(3, t.tmsY)
        guard try c.select.step() else { return nil }
        let data = c.select.blob(0)
        c.select.reset()
        return data
    }

    /// Builds metadata from the `metadata` rows (bounds/center as comma lists) and the `json` row.
    static func readMetadata(_ db: SQLiteDatabase) throws -> TilesetMetadata {
        var rows: [String: String] = [:]
        let stmt = try db.prepare("SELECT name, value FROM metadata")
        while try stmt.step() {
            if let k = stmt.text(0) { rows[k] = stmt.text(1) ?? "" }
        }
        var o: [String: JSONValue] = [:]
        if let j = rows["json"], let extra = (try? JSONValue.parse(Array(j.utf8)))?.objectValue {
            o = extra
        }
        for k in ["name", "format", "attribution", "description", "type"] {
            if let v = rows[k] { o[k] = .string(v) }
        }
        func numbers(_ s: String?) -> JSONValue? {
            guard let s else { return nil }
            let parts = s.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            return parts.contains(where: { $0 == nil }) ? .string(s) : .array(parts.map { .double($0!) })
        }
        if let b = numbers(rows["bounds"]) { o["bounds"] = b }
        if let c = numbers(rows["center"]) { o["center"] = c }
        if o["format"] == nil { o["format"] = .string("png") }
        let range = try db.prepare("SELECT MIN(zoom_level), MAX(zoom_level) FROM tiles")
        _ = try range.step()
        let minZ = rows["minzoom"].flatMap { Int($0) } ?? range.int(0)
        let maxZ = rows["maxzoom"].flatMap { Int($0) } ?? range.int(1)
        o["minzoom"] = .int(minZ)
        o["maxzoom"] = .int(maxZ)
        if o["name"] == nil { o["name"] = .string((db.path as NSString).lastPathComponent) }
        return try TilesetMetadata(jsonObject: o, source: db.path)
    }

    /// True when the database has a `tiles` table or view.
    static func hasTilesTable(_ db: SQLiteDatabase) -> Bool {
        guard let s = try? db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'tiles' AND type IN ('table', 'view')") else {
            return false
        }
        return (try? s.step()) == true
    }

    /// A connection for looking at a file that may have been left by a killed writer: read-write
    /// when the file allows it, because a hot journal (a kill during a commit) can only be rolled
    /// back by a connection that may write; a read-only one fails every query with
    /// SQLITE_READONLY_ROLLBACK, and the interrupted tileset looked like no tileset at all.
    static func inspect(_ path: String) throws -> SQLiteDatabase {
        if let db = try? SQLiteDatabase(path: path) { return db }
        return try SQLiteDatabase(path: path, readOnly: true)
    }

    /// True when the file is an SQLite database with a `tiles` table.
    static func looksLikeMBTiles(_ path: String) -> Bool {
        guard let db = try? inspect(path) else { return false }
        return hasTilesTable(db)
    }

    /// Every tile stored (committed) in the file.
    static func storedTiles(_ path: String) throws -> Set<Tile> {
        let db = try inspect(path)
        let s = try db.prepare("SELECT zoom_level, tile_column, tile_row FROM tiles")
        var out = Set<Tile>()
        while try s.step() {
            let z = s.int(0)
            guard (0...30).contains(z) else { continue }
            let t = Tile(x: s.int(1), tmsY: s.int(2), z: z)
            if t.isValid { out.insert(t) }
        }
        return out
    }
}
