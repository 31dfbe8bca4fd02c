import Foundation
import TegulaGeometry
import TegulaSupport

/// Writes MBTiles 1.3: `metadata(name, value)` and `tiles(zoom_level, tile_column, tile_row,
/// tile_data)` with TMS rows and a unique index.
///
/// Tiles from any thread are queued under a lock and inserted in one transaction per
/// `batchSize` tiles, directly into OUT: after `kill -9` every committed batch survives (SQLite's
/// journal rolls back the partial one) and `resume` continues. `finish` flushes, writes metadata
/// (standard rows plus `json` with the rest), and leaves a single self-contained file.
final class MBTilesWriter: TileWriter, @unchecked Sendable {
    let path: String
    let format: TileFormat
    let scale: Int
    let batchSize: Int
    private struct State {
        var db: SQLiteDatabase?
        var insert: SQLiteStatement?
        var pending: [(Tile, [UInt8])] = []
    }
    private let state: Locked<State>

    init(path: String, format: TileFormat, scale: Int, resume: Bool, batchSize: Int = 500) throws {
        self.path = path
        self.format = format
        self.scale = scale
        self.batchSize = batchSize
        if !resume, FileManager.default.fileExists(atPath: path) {
            guard unlink(path) == 0 else { throw TilesetError.io(FileError(path: path, operation: "unlink", errno: errno)) }
            unlink(path + "-journal")
        }
        if !FileManager.default.fileExists(atPath: path) { try Self.create(path, format: format) }
        let db = try SQLiteDatabase(path: path)
        try db.exec("PRAGMA synchronous=NORMAL")
        let insert = try db.prepare("INSERT OR REPLACE INTO tiles VALUES (?, ?, ?, ?)")
        state = Locked(State(db: db, insert: insert))
    }

    /// Creates OUT with its tables and the format row (which marks it as a tegula tileset) all at
    /// once: built under `OUT.new.tmp` in one transaction and renamed into place, so a kill at
    /// any moment leaves either no OUT or one that `--resume` recognises. (Created in place, a
    /// kill in the first moments left an empty or table-less file that the rerun refused as
    /// "exists and is not a tileset".) A leftover from a killed creation is replaced.
    static func create(_ path: String, format: TileFormat) throws {
        let tmp = path + ".new.tmp"
        unlink(tmp)
        unlink(tmp + "-journal")
        do {
            let db = try SQLiteDatabase(path: tmp, create: true)
            try db.exec(
                """
                BEGIN;
                CREATE TABLE metadata (name TEXT, value TEXT);
                CREATE UNIQUE INDEX name ON metadata (name);
                CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
                CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
                INSERT INTO metadata VALUES ('format', '\(format.rawValue)');
                COMMIT;
                """)
        }
        guard rename(tmp, path) == 0 else {
            let e = errno
            unlink(tmp)
            throw TilesetError.io(FileError(path: path, operation: "rename \(tmp) to", errno: e))
        }
    }

    func write(_ tile: Tile, data: [UInt8]) throws {
        try validate(tile, path: path)
        try state.withLock { s in
            guard s.db != nil else { throw TilesetError.finished(path: path) }
            s.pending.append((tile, data))
            if s.pending.count >= batchSize { try flush(&s) }
        }
    }

    /// Inserts the queued tiles in one transaction.
    private func flush(_ s: inout State) throws {
        guard let db = s.db, let insert = s.insert, !s.pending.isEmpty else { return }
        try db.exec("BEGIN")
        do {
            for (t, data) in s.pending {
                insert.reset()
                insert.bind(1, t.z)
                insert.bind(2, t.x)
                insert.bind(3, t.tmsY)
                insert.bind(4, data)
                try insert.step()
            }
            try db.exec("COMMIT")
        } catch {
            try? db.exec("ROLLBACK")
            throw error
        }
        s.pending.removeAll(keepingCapacity: true)
    }

    func finish(metadata: TilesetMetadata) throws {
        try state.withLock { s in
            guard let db = s.db else { throw TilesetError.finished(path: path) }
            try flush(&s)
            var m = metadata
            m.format = format
            m.scale = scale
            let b = m.bounds, c = m.center
            var rows: [(String, String)] = [
                ("name", m.name), ("format", format.rawValue),
                ("bounds", "\(b.west),\(b.south),\(b.east),\(b.north)"),
                ("center", "\(c.longitude),\(c.latitude),\(c.zoom)"),
                ("minzoom", "\(m.zooms.min)"), ("maxzoom", "\(m.zooms.max)"),
                ("type", m.type), ("version", "1.3"),
            ]
            if let a = m.attribution { rows.append(("attribution", a)) }
            if let d = m.description { rows.append(("description", d)) }
            var json = m.extra
            json["tile_size"] = .int(m.tileSize)
            json["scale"] = .int(m.scale)
            rows.append(("json", String(decoding: JSONValue.object(json).serialized(), as: UTF8.self)))
            try db.exec("BEGIN")
            let stmt = try db.prepare("INSERT OR REPLACE INTO metadata VALUES (?, ?)")
            for (k, v) in rows {
                stmt.reset()
                stmt.bind(1, k)
                stmt.bind(2, v)
                try stmt.step()
            }
            try db.exec("COMMIT")
            s.insert = nil
            s.db = nil
        }
    }

    deinit {
        // An unfinished writer still commits what it queued, so resume does not redo it.
        state.withLock { s in try? flush(&s) }
    }
}
