import Foundation
import TegulaGeometry
import TegulaSupport

/// Writes tiles of any tile matrix set into an OGC GeoPackage (OGC 12-128r19, the tiles option;
/// stamped 1.3, whose tables are the same): `gpkg_spatial_ref_sys` with the set's CRS, `gpkg_contents` (data_type `tiles`, the
/// content's bounds), `gpkg_tile_matrix_set` (the grid's bounds), one `gpkg_tile_matrix` row per
/// zoom, and the tiles table, rows counted from the top (§2.2). PNG and JPEG tiles as the core
/// allows them (mixed, as `auto` writes them); WebP with the `gpkg_webp` extension registered in
/// `gpkg_extensions` (§F.5) once a WebP tile is written; any other bytes are refused. GDAL's GPKG
/// driver is the oracle.
///
/// The whole file is built in one transaction beside OUT and renamed into place by `finish`: a
/// reader never sees half of it, and a run that fails or is killed leaves OUT as it was. A
/// GeoPackage holds one grid whose zooms share its bounds, so a set with coalesced rows or
/// levels of different extents is refused at `init`, before any tile is made.
public final class GeoPackageTileWriter: TileWriter, @unchecked Sendable {
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
    /// The pixels across a tile (the set's `tileWidth`, or twice it for `@2x` tiles): the pixel
    /// sizes of `gpkg_tile_matrix` are the tile's span over it.
    public let tilePixels: Int
    /// The tiles table's name (also the content's identifier).
    public let table: String
    private let temporary: String
    private struct State {
        var db: SQLiteDatabase?
        var insert: SQLiteStatement?
        var webp = false
        /// The columns and rows written at each zoom.
        var written: [Int: (x: ClosedRange<Int>, y: ClosedRange<Int>)] = [:]
    }
    private let state: Locked<State>

    /// Starts OUT's GeoPackage of tiles in `tms`, whose CRS is `srs`; tiles of `tilePixels` pixels
    /// across (the set's tile width when nil) in the table `table`.
    public init(path: String, tms: TileMatrixSet, srs: SpatialReference, tilePixels: Int? = nil, table: String = "tiles") throws {
        try Self.check(tms, path: path, table: table)
        self.path = path
        self.tms = tms
        self.tilePixels = tilePixels ?? tms.tileMatrices[0].tileWidth
        self.table = table
        temporary = AtomicFile.temporaryName(beside: path)
        unlink(temporary)
        let db = try SQLiteDatabase(path: temporary, create: true)
        // No journal: the file is ours alone until the rename, and is thrown away on any failure.
        try db.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = NORMAL;")
        try db.exec(Self.schema(table: table) + Self.rows(tms, srs: srs, table: table))
        state = Locked(State(db: db, insert: try db.prepare(Self.insertSQL(table: table))))
    }

    /// Stores one tile (numbered in the set's own rows; flipped here for a bottom-left origin).
    public func write(_ tile: Tile, data: [UInt8]) throws {
        guard tile.z >= 0, tms.contains(tile) else {
            throw TilesetError.badTile(path: path, detail: "tile \(tile) is not in \(tms.id) (zooms \(max(0, tms.minZoom))–\(tms.maxZoom))")
        }
        guard let format = TileFormat(sniffing: data) else {
            throw TilesetError.badTile(path: path, detail: "tile \(tile) is not PNG, JPEG or WebP, the images a GeoPackage holds")
        }
        let m = try tms.matrix(zoom: tile.z)
        let row = m.corner == .topLeft ? tile.y : m.matrixHeight - 1 - tile.y
        try state.withLock { s in
            guard let db = s.db, let insert = s.insert else { throw TilesetError.finished(path: path) }
            if format == .webp && !s.webp {
                try db.exec(Self.webpExtension(table: table))
                s.webp = true
            }
            insert.reset()
            insert.bind(1, tile.z)
            insert.bind(2, tile.x)
            insert.bind(3, row)
            insert.bind(4, data)
            _ = try insert.step()
            let old = s.written[tile.z]
            s.written[tile.z] = (
                min(old?.x.lowerBound ?? tile.x, tile.x)...max(old?.x.upperBound ?? tile.x, tile.x),
                min(old?.y.lowerBound ?? tile.y, tile.y)...max(old?.y.upperBound ?? tile.y, tile.y)
            )
        }
    }

    /// Writes a matrix for each of the metadata's zooms and, as the content's bounds, the box of
    /// the tiles written at its max zoom (on that zoom's pixel grid, so GDAL opens exactly the
    /// cut), and puts the file in place.
    public func finish(metadata: TilesetMetadata) throws {
        let zooms = metadata.zooms.levels
        let written = state.withLock { s in s.written }
        let deepest = written[zooms.upperBound] ?? written.max { $0.key < $1.key }?.value
        let bounds = deepest.map { r -> GridBounds in
            let z = written[zooms.upperBound] == nil ? written.keys.max()! : zooms.upperBound
            let a = tms.bounds(of: Tile(x: r.x.lowerBound, y: r.y.lowerBound, z: z))
            let b = tms.bounds(of: Tile(x: r.x.upperBound, y: r.y.upperBound, z: z))
            return GridBounds(left: min(a.left, b.left), bottom: min(a.bottom, b.bottom), right: max(a.right, b.right), top: max(a.top, b.top))
        }
        try finish(zooms: zooms, contents: bounds ?? tms.extent)
    }

    /// Writes a matrix for each of `zooms` and the content's bounds (in the set's CRS: the area
    /// the tiles show), commits and puts the file in place.
    public func finish(zooms: ClosedRange<Int>, contents bounds: GridBounds) throws {
        guard zooms.lowerBound >= max(0, tms.minZoom), zooms.upperBound <= tms.maxZoom else {
            throw TilesetError.badTile(path: path, detail: "zooms \(zooms.lowerBound)–\(zooms.upperBound) are not among \(tms.id)'s")
        }
        try state.withLock { s in
            guard let db = s.db else { throw TilesetError.finished(path: path) }
            if let z = s.written.keys.first(where: { !zooms.contains($0) }) {
                throw TilesetError.badTile(
                    path: path, detail: "tiles of zoom \(z) were written, outside zooms \(zooms.lowerBound)–\(zooms.upperBound)")
            }
            s.insert = nil
            try db.exec(Self.matrices(tms, zooms: zooms, tilePixels: tilePixels, table: table) + Self.contents(bounds, table: table))
            s.db = nil
        }
        guard rename(temporary, path) == 0 else {
            let e = errno
            unlink(temporary)
            throw TilesetError.io(FileError(path: path, operation: "rename \(temporary) to", errno: e))
        }
    }

    deinit {
        state.withLock { s in
            guard s.db != nil else { return }
            s = State()
            unlink(temporary)
        }
    }
}
