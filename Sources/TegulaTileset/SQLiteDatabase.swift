import CSQLite

/// One SQLite connection (owns the handle, closes it in `deinit`). Not shared between threads
/// without a lock; errors name the file and the call.
final class SQLiteDatabase: @unchecked Sendable {
    let path: String
    private(set) var handle: OpaquePointer?

    /// Opens (and with `create`, creates) the database.
    init(path: String, readOnly: Bool = false, create: Bool = false) throws {
        self.path = path
        var flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create { flags |= SQLITE_OPEN_CREATE }
        flags |= SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        if rc != SQLITE_OK {
            let msg = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "code \(rc)"
            sqlite3_close(handle)
            handle = nil
            throw TilesetError.sqlite(path: path, call: "open", message: msg)
        }
        sqlite3_busy_timeout(handle, 5000)
    }

    deinit { sqlite3_close_v2(handle) }

    /// The last error message of this connection; a full disk says so in the words the other
    /// writers' errors use (strerror's), not only SQLite's "database or disk is full".
    var lastError: String { Self.message(String(cString: sqlite3_errmsg(handle)), code: sqlite3_errcode(handle)) }

    static func message(_ text: String, code: Int32) -> String {
        code & 0xff == SQLITE_FULL ? "no space left on device (SQLite: \(text))" : text
    }

    /// Runs one or more statements without results.
    func exec(_ sql: String) throws {
        var err: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(handle, sql, nil, nil, &err) != SQLITE_OK {
            let msg = err.map { Self.message(String(cString: $0), code: sqlite3_errcode(handle)) } ?? lastError
            sqlite3_free(err)
            throw TilesetError.sqlite(path: path, call: "exec \(sql.prefix(60))", message: msg)
        }
    }

    /// Prepares a statement.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &stmt, nil) == SQLITE_OK, let stmt else {
            throw TilesetError.sqlite(path: path, call: "prepare \(sql.prefix(60))", message: lastError)
        }
        return SQLiteStatement(db: self, stmt: stmt, sql: sql)
    }
}

/// A prepared statement (finalised in `deinit`).
final class SQLiteStatement {
    let db: SQLiteDatabase
    let stmt: OpaquePointer
    let sql: String

    init(db: SQLiteDatabase, stmt: OpaquePointer, sql: String) {
        self.db = db
        self.stmt = stmt
        self.sql = sql
    }

    deinit { sqlite3_finalize(stmt) }

    /// Clears bindings and rewinds for reuse.
    func reset() {
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
    }

    /// Binds an integer to a 1-based parameter.
    func bind(_ i: Int32, _ v: Int) { sqlite3_bind_int64(stmt, i, sqlite3_int64(v)) }

    /// Binds a text value (copied).
    func bind(_ i: Int32, _ s: String) { sqlite3_bind_text(stmt, i, s, -1, tegula_sqlite_transient()) }

    /// Binds a blob (copied).
    func bind(_ i: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { b in
            _ = sqlite3_bind_blob(
                stmt, i, b.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(b.count),
                tegula_sqlite_transient())
        }
    }

    /// Steps once: true when a row is available, false when done.
    @discardableResult
    func step() throws -> Bool {
        switch sqlite3_step(stmt) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw TilesetError.sqlite(path: db.path, call: "step \(sql.prefix(60))", message: db.lastError)
        }
    }

    /// An integer column (0-based).
    func int(_ col: Int32) -> Int { Int(sqlite3_column_int64(stmt, col)) }

    /// A real column (0-based); 0 when NULL.
    func double(_ col: Int32) -> Double { sqlite3_column_double(stmt, col) }

    /// A text column, or nil when NULL.
    func text(_ col: Int32) -> String? {
        guard let p = sqlite3_column_text(stmt, col) else { return nil }
        return String(cString: p)
    }

    /// A blob column (empty when NULL).
    func blob(_ col: Int32) -> [UInt8] {
        let n = Int(sqlite3_column_bytes(stmt, col))
        guard n > 0, let p = sqlite3_column_blob(stmt, col) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: p, count: n))
    }
}
