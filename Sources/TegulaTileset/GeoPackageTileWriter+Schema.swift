import Foundation
import TegulaGeometry

/// The GeoPackage's tables and the rows that describe the grid (OGC 12-128r19 §1.1, §2.2).
extension GeoPackageTileWriter {
    /// The application id `GPKG` (§1.1.1.1.1) and version 1.3.0 (the tables are 1.4's too; GDAL 3.6,
    /// Debian 12's, warns on every open of a 1.4 file), the core tables, the tiles table and
    /// `gpkg_extensions`; opens the one transaction the whole file is written in.
    static func schema(table: String) -> String {
        """
        PRAGMA application_id = 1196444487;
        PRAGMA user_version = 10300;
        BEGIN;
        CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL,
          organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
        CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
          description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
          min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER,
          CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
        CREATE TABLE gpkg_tile_matrix_set (table_name TEXT NOT NULL PRIMARY KEY, srs_id INTEGER NOT NULL,
          min_x DOUBLE NOT NULL, min_y DOUBLE NOT NULL, max_x DOUBLE NOT NULL, max_y DOUBLE NOT NULL,
          CONSTRAINT fk_gtms_table_name FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
          CONSTRAINT fk_gtms_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
        CREATE TABLE gpkg_tile_matrix (table_name TEXT NOT NULL, zoom_level INTEGER NOT NULL, matrix_width INTEGER NOT NULL,
          matrix_height INTEGER NOT NULL, tile_width INTEGER NOT NULL, tile_height INTEGER NOT NULL,
          pixel_x_size DOUBLE NOT NULL, pixel_y_size DOUBLE NOT NULL,
          CONSTRAINT pk_ttm PRIMARY KEY (table_name, zoom_level),
          CONSTRAINT fk_tmm_table_name FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name));
        CREATE TABLE "\(table)" (id INTEGER PRIMARY KEY AUTOINCREMENT, zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL,
          tile_row INTEGER NOT NULL, tile_data BLOB NOT NULL, UNIQUE (zoom_level, tile_column, tile_row));
        CREATE TABLE gpkg_extensions (table_name TEXT, column_name TEXT, extension_name TEXT NOT NULL, definition TEXT NOT NULL,
          scope TEXT NOT NULL, CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name));

        """
    }

    /// The rows: the three CRSs every GeoPackage has (§1.1.2.1.2) and the set's, the contents
    /// entry (bounds set by `contents`) and the matrix set's bounds.
    static func rows(_ tms: TileMatrixSet, srs: SpatialReference, table: String) -> String {
        let e = tms.extent
        return """
            INSERT INTO gpkg_spatial_ref_sys VALUES ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', 'undefined cartesian coordinate reference system');
            INSERT INTO gpkg_spatial_ref_sys VALUES ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', 'undefined geographic coordinate reference system');
            INSERT OR REPLACE INTO gpkg_spatial_ref_sys VALUES ('WGS 84 geodetic', 4326, 'EPSG', 4326, \(quoted(wgs84)), 'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid');
            INSERT OR REPLACE INTO gpkg_spatial_ref_sys VALUES (\(quoted(srs.name)), \(srs.id), \(quoted(srs.organization)), \(srs.code), \(quoted(srs.definition)), NULL);
            INSERT INTO gpkg_contents (table_name, data_type, identifier, description, srs_id) VALUES (\(quoted(table)), 'tiles', \(quoted(table)), \(quoted(tms.title ?? tms.id)), \(srs.id));
            INSERT INTO gpkg_tile_matrix_set VALUES (\(quoted(table)), \(srs.id), \(e.left), \(e.bottom), \(e.right), \(e.top));

            """
    }

    /// One `gpkg_tile_matrix` row a zoom: the matrix's size, the tiles' pixels and the pixel size
    /// (the tile's span over `tilePixels`, so `@2x` tiles have half the set's cell size).
    static func matrices(_ tms: TileMatrixSet, zooms: ClosedRange<Int>, tilePixels: Int, table: String) -> String {
        var sql = ""
        for z in zooms {
            let m = tms.tileMatrices[z - tms.minZoom]
            let rows = tilePixels * m.tileHeight / m.tileWidth
            sql +=
                "INSERT INTO gpkg_tile_matrix VALUES (\(quoted(table)), \(z), \(m.matrixWidth), \(m.matrixHeight), \(tilePixels), "
                + "\(rows), \(m.tileSpanX / Double(tilePixels)), \(m.tileSpanY / Double(rows)));\n"
        }
        return sql
    }

    /// The content's bounds and the commit of the file's one transaction.
    static func contents(_ b: GridBounds, table: String) -> String {
        """
        UPDATE gpkg_contents SET min_x = \(b.left), min_y = \(b.bottom), max_x = \(b.right), max_y = \(b.top) WHERE table_name = \(quoted(table));
        COMMIT;

        """
    }

    /// The tile insert.
    static func insertSQL(table: String) -> String {
        "INSERT OR REPLACE INTO \"\(table)\" (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)"
    }

    /// Registers the WebP tiles extension for the tiles table (§F.5, `gpkg_webp`).
    static func webpExtension(table: String) -> String {
        "INSERT OR IGNORE INTO gpkg_extensions VALUES (\(quoted(table)), 'tile_data', 'gpkg_webp', "
            + "'http://www.geopackage.org/spec/#extension_tiles_webp', 'read-write');"
    }

    /// Refuses a grid a GeoPackage cannot hold: no zoom from 0, coalesced rows, or a zoom whose
    /// matrix does not span the first zoom's bounds from the same corner.
    static func check(_ tms: TileMatrixSet, path: String, table: String) throws {
        func refuse(_ why: String) -> TilesetError { .badTile(path: path, detail: "a GeoPackage cannot hold \(tms.id): \(why)") }
        guard tms.maxZoom >= 0 else { throw refuse("its zooms \(tms.minZoom)–\(tms.maxZoom) are all below 0") }
        let zooms = max(0, tms.minZoom)...tms.maxZoom
        guard !table.isEmpty, table.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            throw refuse("the table name '\(table)' must be letters, digits and _")
        }
        let e = tms.extent
        for z in zooms {
            let m = tms.tileMatrices[z - tms.minZoom], o = tms.origin(of: m)
            guard m.variableMatrixWidths == nil else { throw refuse("zoom \(z) has coalesced rows (variableMatrixWidths)") }
            let right = o.x + Double(m.matrixWidth) * m.tileSpanX
            let edge = m.corner == .topLeft ? o.y - Double(m.matrixHeight) * m.tileSpanY : o.y + Double(m.matrixHeight) * m.tileSpanY
            let tolerance = 1e-9 * max(e.width, e.height)
            let same = [o.x - e.left, right - e.right, (m.corner == .topLeft ? o.y : edge) - e.top, (m.corner == .topLeft ? edge : o.y) - e.bottom]
            guard same.allSatisfy({ abs($0) <= tolerance }) else { throw refuse("zoom \(z) does not cover the same bounds as zoom \(tms.minZoom)") }
        }
    }

    /// True when `path` is a GeoPackage holding one tile pyramid and nothing else, as this writer
    /// leaves it: the one GeoPackage `tegula tile` replaces (any other is refused and left untouched).
    static func looksLikeItsOwn(_ path: String) -> Bool {
        guard let db = try? SQLiteDatabase(path: path, readOnly: true),
            let id = try? db.prepare("PRAGMA application_id"), (try? id.step()) == true, id.int(0) == 1_196_444_487,
            let rows = try? db.prepare("SELECT count(*), sum(data_type = 'tiles') FROM gpkg_contents"), (try? rows.step()) == true
        else { return false }
        return rows.int(0) == 1 && rows.int(1) == 1
    }

    /// Text as an SQL literal.
    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    /// EPSG:4326's WKT as GeoPackages carry it (§1.1.2.1.2).
    static let wgs84 = """
        GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],\
        PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AUTHORITY["EPSG","4326"]]
        """
}
