import Foundation
import TegulaGeometry

/// The grid of a GeoPackage's tiles table as a ``TileMatrixSet``, and its metadata.
extension GeoPackageTileReader {
    /// One `gpkg_tile_matrix` row.
    struct MatrixRow {
        var zoom: Int
        var matrixWidth: Int
        var matrixHeight: Int
        var tileWidth: Int
        var tileHeight: Int
        var pixelX: Double
        var pixelY: Double
    }

    /// The CRS URI of the table's `srs_id`, whether it is geographic, its axes in order when its
    /// definition names them, the tile matrix set's bounds and its matrices.
    static func tables(_ db: SQLiteDatabase, table: String, path: String) throws -> (
        crs: String, geographic: Bool, axes: [String]?, bounds: GridBounds, rows: [MatrixRow]
    ) {
        let set = try db.prepare(
            "SELECT s.organization, s.organization_coordsys_id, s.definition, m.min_x, m.min_y, m.max_x, m.max_y "
                + "FROM gpkg_tile_matrix_set m JOIN gpkg_spatial_ref_sys s ON s.srs_id = m.srs_id WHERE m.table_name = '\(table)'")
        guard try set.step() else {
            throw TilesetError.corrupt(path: path, detail: "tiles table \(table) has no row in gpkg_tile_matrix_set with a known srs_id")
        }
        let organization = (set.text(0) ?? "").uppercased(), code = set.int(1), definition = set.text(2) ?? ""
        let crs: String
        if organization == "EPSG" {
            crs = "http://www.opengis.net/def/crs/EPSG/0/\(code)"
        } else if definition.contains("[\"OGC\",\"CRS84\"]") {  // WKT 2's ID or WKT 1's AUTHORITY
            crs = "http://www.opengis.net/def/crs/OGC/1.3/CRS84"
        } else {
            throw TilesetError.corrupt(path: path, detail: "the CRS of tiles table \(table) has no EPSG code and is not OGC CRS84")
        }
        let geographic = definition.hasPrefix("GEOGCRS") || definition.hasPrefix("GEOGCS") || (organization == "EPSG" && code == 4326)
        let bounds = GridBounds(left: set.double(3), bottom: set.double(4), right: set.double(5), top: set.double(6))
        let m = try db.prepare(
            "SELECT zoom_level, matrix_width, matrix_height, tile_width, tile_height, pixel_x_size, pixel_y_size "
                + "FROM gpkg_tile_matrix WHERE table_name = '\(table)' ORDER BY zoom_level")
        var rows: [MatrixRow] = []
        while try m.step() {
            rows.append(
                MatrixRow(
                    zoom: m.int(0), matrixWidth: m.int(1), matrixHeight: m.int(2), tileWidth: m.int(3), tileHeight: m.int(4),
                    pixelX: m.double(5), pixelY: m.double(6)))
        }
        guard !rows.isEmpty else { throw TilesetError.corrupt(path: path, detail: "tiles table \(table) has no row in gpkg_tile_matrix") }
        return (crs, geographic, axes(definition, geographic: geographic), bounds, rows)
    }

    /// The CRS's axes in order as a definition's WKT (1 or 2) names them: its last two `AXIS`
    /// entries, those of the CRS itself (a base CRS's come first), by their direction:
    /// `["N", "E"]` for EPSG:3035's `AXIS["Northing",NORTH],AXIS["Easting",EAST]`, `["Lat",
    /// "Lon"]` in a geographic CRS; nil when the WKT names none (EPSG:4326 in GDAL's WKT 1).
    static func axes(_ definition: String, geographic: Bool) -> [String]? {
        let directions = definition.uppercased().components(separatedBy: "AXIS[").dropFirst().compactMap { entry in
            entry.split(separator: ",").dropFirst().first.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " ]\"")) }
        }
        guard directions.count >= 2 else { return nil }
        let northing = ["NORTH", "SOUTH"].contains(directions[directions.count - 2])
        let (y, x) = geographic ? ("Lat", "Lon") : ("N", "E")
        return northing ? [y, x] : [x, y]
    }

    /// The table's grid: the built-in set it is at every zoom stored (same CRS, matrices, cell
    /// sizes and corner), else a set of its own named after the table, its zooms those stored.
    static func grid(_ db: SQLiteDatabase, table: String, path: String) throws -> TileMatrixSet {
        let t = try tables(db, table: table, path: path)
        for name in TileMatrixSet.builtInNames {
            guard let set = try? TileMatrixSet.named(name), code(of: set.crs) == code(of: t.crs), matches(set, t.rows, bounds: t.bounds) else {
                continue
            }
            return set
        }
        let metresPerUnit = t.geographic ? 2 * Double.pi * 6_378_137 / 360 : 1
        let northingFirst = t.axes.map { ["N", "Lat"].contains($0[0]) } ?? t.crs.hasSuffix("/EPSG/0/4326")
        let origin = northingFirst ? [t.bounds.top, t.bounds.left] : [t.bounds.left, t.bounds.top]
        let matrices = t.rows.map { r in
            TileMatrix(
                id: "\(r.zoom)", scaleDenominator: r.pixelX * metresPerUnit / 0.000_28, cellSize: r.pixelX, pointOfOrigin: origin,
                tileWidth: r.tileWidth, tileHeight: r.tileHeight, matrixWidth: r.matrixWidth, matrixHeight: r.matrixHeight)
        }
        do {
            return try TileMatrixSet(id: table, crs: t.crs, orderedAxes: t.axes, tileMatrices: matrices)
        } catch {
            throw TilesetError.corrupt(path: path, detail: "tiles table \(table)'s matrices are not one tile matrix set: \(error)")
        }
    }

    /// A CRS URI's authority and code, whichever of the two forms it has
    /// (`http://www.opengis.net/def/crs/EPSG/0/2193`, `urn:ogc:def:crs:EPSG::2193`): `EPSG 2193`.
    static func code(of uri: String) -> String {
        let parts = uri.split(whereSeparator: { $0 == "/" || $0 == ":" }).map { $0.uppercased() }
        guard let authority = parts.last(where: { $0 == "EPSG" || $0 == "OGC" }), let code = parts.last else { return uri }
        return "\(authority) \(code)"
    }

    /// True when `set` has each row's zoom with the same matrix size, tile size and cell size, and
    /// its top-left corner is the table's.
    static func matches(_ set: TileMatrixSet, _ rows: [MatrixRow], bounds: GridBounds) -> Bool {
        let close = { (a: Double, b: Double) in abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1) }
        let e = set.extent
        guard close(e.left, bounds.left), close(e.top, bounds.top) else { return false }
        return rows.allSatisfy { r in
            guard let m = try? set.matrix(zoom: r.zoom), m.variableMatrixWidths == nil else { return false }
            return m.matrixWidth == r.matrixWidth && m.matrixHeight == r.matrixHeight && m.tileWidth == r.tileWidth
                && m.tileHeight == r.tileHeight && close(m.cellSize, r.pixelX)
        }
    }

    /// Name (the table's identifier), format (its first tile's, sniffed), zooms (those with
    /// tiles), bounds in degrees from `gpkg_contents`: its box itself when the CRS is Web
    /// Mercator or geographic, else carried by `degrees` (the world without it).
    static func readMetadata(
        _ db: SQLiteDatabase, table: String, tms: TileMatrixSet, path: String, degrees: Degrees?
    ) throws -> TilesetMetadata {
        let c = try db.prepare("SELECT identifier, description, min_x, min_y, max_x, max_y FROM gpkg_contents WHERE table_name = '\(table)'")
        _ = try c.step()
        let name = c.text(0) ?? table
        let box = GridBounds(left: c.double(2), bottom: c.double(3), right: c.double(4), top: c.double(5))
        let z = try db.prepare("SELECT MIN(zoom_level), MAX(zoom_level) FROM \"\(table)\"")
        guard try z.step(), let zooms = ZoomRange(min: z.int(0), max: z.int(1)) else {
            throw TilesetError.corrupt(path: path, detail: "tiles table \(table) holds no tile")
        }
        let first = try db.prepare("SELECT tile_data FROM \"\(table)\" LIMIT 1")
        let format = try first.step() ? TileFormat(sniffing: first.blob(0)) ?? .png : .png
        var bounds = GeoBounds.world
        if tms.crs.hasSuffix("/EPSG/0/3857") {
            bounds = WebMercator.unproject(box)
        } else if tms.crs.hasSuffix("CRS84") || tms.crs.hasSuffix("/EPSG/0/4326") {
            bounds = GeoBounds(west: box.left, south: box.bottom, east: box.right, north: box.top)
        } else if let carried = degrees?(box, tms) {
            bounds = carried
        }
        return TilesetMetadata(name: name, format: format, bounds: bounds, zooms: zooms, tileSize: tms.tileMatrices[0].tileWidth)
    }
}
