import Foundation
import TegulaGeometry
import TegulaSupport

/// Reads the tiles of an OGC GeoPackage (OGC 12-128r19, the tiles option), ours or GDAL's: the
/// first tiles table of `gpkg_contents`, its grid from `gpkg_tile_matrix_set`,
/// `gpkg_tile_matrix` and the CRS row of `gpkg_spatial_ref_sys` (``tileMatrixSet``: a built-in
/// set when the grid is one of theirs at every zoom stored, else a set made from the tables),
/// tiles looked up in the set's own rows (the file counts them from the top).
public final class GeoPackageTileReader: TileReader, @unchecked Sendable {
    /// The file.
    public let path: String
    /// The tiles table read.
    public let table: String
    /// The grid the tiles are in.
    public let tileMatrixSet: TileMatrixSet
    /// Name, format (sniffed from a tile), zooms; bounds in degrees: `gpkg_contents`' box when
    /// the set's CRS is Web Mercator or geographic, else that box as the caller's `degrees`
    /// carries it (the world without one).
    public let metadata: TilesetMetadata
    /// A read-only connection and its tile query, one per thread at a time.
    private final class Connection {
        let db: SQLiteDatabase
        let select: SQLiteStatement
        init(path: String, table: String) throws {
            db = try SQLiteDatabase(path: path, readOnly: true)
            select = try db.prepare("SELECT tile_data FROM \"\(table)\" WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")
        }
    }
    private let pool: Locked<[Connection]>

    /// A box in a set's CRS in degrees (a transformation this module has not: PROJ is above it).
    public typealias Degrees = @Sendable (GridBounds, TileMatrixSet) -> GeoBounds?

    /// Opens `path`; a file with no tiles table in `gpkg_contents` is refused in one line.
    /// `degrees` gives the bounds of a set in another CRS than Web Mercator's or a geographic one.
    public init(path: String, degrees: Degrees? = nil) throws {
        self.path = path
        let db = try SQLiteDatabase(path: path, readOnly: true)
        guard let table = try Self.firstTilesTable(db) else {
            throw TilesetError.corrupt(path: path, detail: "a GeoPackage with no tiles table (gpkg_contents has no row of data_type 'tiles')")
        }
        self.table = table
        tileMatrixSet = try Self.grid(db, table: table, path: path)
        metadata = try Self.readMetadata(db, table: table, tms: tileMatrixSet, path: path, degrees: degrees)
        pool = Locked([try Connection(path: path, table: table)])
    }

    /// The tile's bytes; nil when the file has none there.
    public func tile(_ t: Tile) throws -> [UInt8]? {
        guard tileMatrixSet.zooms.contains(t.z), tileMatrixSet.contains(t) else { return nil }
        let m = try tileMatrixSet.matrix(zoom: t.z)
        let row = m.corner == .topLeft ? t.y : m.matrixHeight - 1 - t.y
        let c = try pool.withLock { $0.popLast() } ?? Connection(path: path, table: table)
        defer { pool.withLock { if $0.count < 8 { $0.append(c) } } }
        let select = c.select
        select.reset()
        select.bind(1, t.z)
        select.bind(2, t.x)
        select.bind(3, row)
        guard try select.step() else { return nil }
        let data = select.blob(0)
        select.reset()
        return data
    }

    /// The columns and rows (in the set's rows) of the tiles stored, zoom by zoom.
    public func limits() throws -> [(zoom: Int, columns: ClosedRange<Int>, rows: ClosedRange<Int>)] {
        let db = try SQLiteDatabase(path: path, readOnly: true)
        let s = try db.prepare(
            "SELECT zoom_level, MIN(tile_column), MAX(tile_column), MIN(tile_row), MAX(tile_row) FROM \"\(table)\" GROUP BY zoom_level ORDER BY zoom_level"
        )
        var out: [(zoom: Int, columns: ClosedRange<Int>, rows: ClosedRange<Int>)] = []
        while try s.step() {
            let z = s.int(0)
            guard let m = try? tileMatrixSet.matrix(zoom: z) else { continue }
            let (r0, r1) = m.corner == .topLeft ? (s.int(3), s.int(4)) : (m.matrixHeight - 1 - s.int(4), m.matrixHeight - 1 - s.int(3))
            out.append((z, s.int(1)...s.int(2), r0...r1))
        }
        return out
    }

    /// The first table of `gpkg_contents` whose data type is `tiles`.
    static func firstTilesTable(_ db: SQLiteDatabase) throws -> String? {
        guard let s = try? db.prepare("SELECT table_name FROM gpkg_contents WHERE data_type = 'tiles' ORDER BY table_name") else { return nil }
        return try s.step() ? s.text(0) : nil
    }

    /// True when `path` is an SQLite file whose `gpkg_contents` names a tiles table.
    static func looksLikeGeoPackageTiles(_ path: String) -> Bool {
        guard let db = try? SQLiteDatabase(path: path, readOnly: true) else { return false }
        return (try? firstTilesTable(db)) != nil
    }
}
