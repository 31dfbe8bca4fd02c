import Foundation
import TegulaGeometry
import TegulaSupport

/// Writes tiles of any tile matrix set into an OGC GeoPackage 1.4 (OGC 12-128r19, the tiles
/// option): `gpkg_spatial_ref_sys` with the set's CRS, `gpkg_contents` (data_type `tiles`, the
/// content's bounds), `gpkg_tile_matrix_set` (the grid's bounds), one `gpkg_tile_matrix` row per
/// zoom, and the tiles table, rows counted from the top (§2.2). GDAL's GPKG driver is the oracle.
///
/// The file is built beside OUT and renamed into place by ``finish(contents:)``: a reader never
/// sees half of it. A GeoPackage holds one grid whose zooms share its bounds, so a set with
/// coalesced rows, negative zooms or levels of different extents is refused at ``init``.
public final class GeoPackageTileWriter: @unchecked Sendable {
    /// The CRS as `gpkg_spatial_ref_sys` holds it (§1.1.2): an id, its authority and code, and
    /// the OGC WKT the caller reads from PROJ (this module has none).
    public struct SpatialReference: Sendable, Hashable {
        /// `srs_id` (the EPSG code, conventionally).
        public var id: Int
        /// `srs_name`.
        public var name: String
        /// `organization`, e.g. `EPSG`.
        public var organization: String
        /// `organization_coordsys_id`.
        public var code: Int
        /// `definition`: the CRS as WKT.
        public var definition: String

        /// A CRS row from its fields.
        public init(id: Int, name: String, organization: String, code: Int, definition: String) {
            self.id = id
            self.name = name
            self.organization = organization
            self.code = code
            self.definition = definition
        }
    }

    /// OUT.
    public let path: String
    /// The grid the tiles are in.
    public let tms: TileMatrixSet
    /// The zooms written.
    public let zooms: ClosedRange<Int>
    /// The tiles table's name (also the content's identifier).
    public let table: String
    private let temporary: String
    private let state: Locked<(db: SQLiteDatabase?, insert: SQLiteStatement?)>

    /// Starts OUT's GeoPackage for `zooms` of `tms` in `srs`; the tiles table is `table`.
    public init(path: String, tms: TileMatrixSet, srs: SpatialReference, zooms: ClosedRange<Int>, table: String = "tiles") throws {
        try Self.check(tms, zooms: zooms, path: path, table: table)
        self.path = path
        self.tms = tms
        self.zooms = zooms
        self.table = table
        temporary = AtomicFile.temporaryName(beside: path)
        unlink(temporary)
        let db = try SQLiteDatabase(path: temporary, create: true)
        try db.exec(Self.schema(table: table) + Self.rows(tms, srs: srs, zooms: zooms, table: table))
        state = Locked((db, try db.prepare("INSERT OR REPLACE INTO \"\(table)\" (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)")))
    }

    /// Stores one tile (numbered in the set's own rows; flipped here for a bottom-left origin).
    public func write(_ tile: Tile, data: [UInt8]) throws {
        guard zooms.contains(tile.z), tms.contains(tile) else {
            throw TilesetError.badTile(path: path, detail: "tile \(tile) is not in \(tms.id) at zooms \(zooms.lowerBound)–\(zooms.upperBound)")
        }
        let m = try tms.matrix(zoom: tile.z)
        let row = m.corner == .topLeft ? tile.y : m.matrixHeight - 1 - tile.y
        try state.withLock { s in
            guard let insert = s.insert else { throw TilesetError.finished(path: path) }
            insert.reset()
            insert.bind(1, tile.z)
            insert.bind(2, tile.x)
            insert.bind(3, row)
            insert.bind(4, data)
            _ = try insert.step()
        }
    }

    /// Writes the content's bounds (in the set's CRS: the area the tiles show) and puts the file
    /// in place.
    public func finish(contents bounds: GridBounds) throws {
        try state.withLock { s in
            guard let db = s.db else { throw TilesetError.finished(path: path) }
            try db.exec(
                """
                UPDATE gpkg_contents SET min_x = \(bounds.left), min_y = \(bounds.bottom), max_x = \(bounds.right), max_y = \(bounds.top)
                  WHERE table_name = '\(table)';
                """)
            s = (nil, nil)
        }
        guard rename(temporary, path) == 0 else {
            let e = errno
            unlink(temporary)
            throw TilesetError.io(FileError(path: path, operation: "rename \(temporary) to", errno: e))
        }
    }

    deinit {
        state.withLock { s in
            if s.db != nil { unlink(temporary) }
        }
    }
}
