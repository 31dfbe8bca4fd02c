import Foundation
import TegulaGeometry
import TegulaHTTP
import TegulaSupport
import TegulaTileset

/// A tile folder cut in another tile matrix set than WebMercatorQuad: the set's TMS 2.0 document
/// beside its `tiles.json`, and the tiles the folder holds; or a GeoPackage, whose tables hold
/// its grid (``GeoPackageTileReader``).
extension Catalogue {
    /// The set of the folder at `path` and, zoom by zoom, the columns and rows of the tiles it
    /// holds; nil for a folder without `tms.json`, a GeoPackage in WebMercatorQuad or another
    /// file (Web Mercator). A document that exists but is not a tile matrix set refuses the start,
    /// as an unreadable tileset does.
    static func tileMatrixSet(besideTileset path: String, zooms: ClosedRange<Int>) throws(TileServerError) -> (
        TileMatrixSet, [TileMatrixLimits]
    )? {
        if Tileset.form(of: path) == .geopackage { return try tileMatrixSet(ofGeoPackage: path) }
        let file = path + "/" + Tileset.tileMatrixSetFileName
        guard Tileset.form(of: path) == .folder, FileManager.default.fileExists(atPath: file) else { return nil }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw .noTileset(path: path, reason: "its \(Tileset.tileMatrixSetFileName) cannot be read (a folder, or no permission)")
        }
        let tms: TileMatrixSet
        do { tms = try TileMatrixSet(json: data) } catch {
            throw .noTileset(path: path, reason: "its \(Tileset.tileMatrixSetFileName) is not a tile matrix set: \(error)")
        }
        return (tms, folderLimits(path, zooms: zooms.clamped(to: tms.zooms)))
    }

    /// A GeoPackage's set and the columns and rows of its tiles; nil in WebMercatorQuad.
    static func tileMatrixSet(ofGeoPackage path: String) throws(TileServerError) -> (TileMatrixSet, [TileMatrixLimits])? {
        do {
            let reader = try GeoPackageTileReader(path: path)
            guard reader.tileMatrixSet != .webMercatorQuad else { return nil }
            return (reader.tileMatrixSet, try reader.limits().map { TileMatrixLimits(zoom: $0.zoom, columns: $0.columns, rows: $0.rows) })
        } catch {
            throw .noTileset(path: path, reason: "\(error)")
        }
    }

    /// The columns and rows of the tiles in a folder laid out `z/x/y[@2x].ext` (`x` the column,
    /// `y` the row from the set's corner), zoom by zoom; zooms without a tile are left out.
    static func folderLimits(_ path: String, zooms: ClosedRange<Int>) -> [TileMatrixLimits] {
        zooms.compactMap { z in
            var columns: ClosedRange<Int>?, rows: ClosedRange<Int>?
            for column in numbers(in: "\(path)/\(z)") {
                for row in numbers(in: "\(path)/\(z)/\(column)", stem: true) {
                    columns = columns.map { min($0.lowerBound, column)...max($0.upperBound, column) } ?? column...column
                    rows = rows.map { min($0.lowerBound, row)...max($0.upperBound, row) } ?? row...row
                }
            }
            guard let columns, let rows else { return nil }
            return TileMatrixLimits(zoom: z, columns: columns, rows: rows)
        }
    }

    /// The plain decimal names in a folder (with `stem`, the part of each file name before its
    /// first `.` or `@`).
    static func numbers(in folder: String, stem: Bool = false) -> [Int] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap { name in
            let n = stem ? String(name.prefix { $0 != "." && $0 != "@" }) : name
            return RequestTarget.number(n, maxDigits: 10)
        }
    }
}
