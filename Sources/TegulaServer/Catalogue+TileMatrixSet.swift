import Foundation
import TegulaGeometry
import TegulaGeoreference
import TegulaHTTP
import TegulaSupport
import TegulaTileset

/// A tile folder cut in another tile matrix set than WebMercatorQuad: the set's TMS 2.0 document
/// beside its `tiles.json`, and the tiles the folder holds; or a GeoPackage, whose tables hold
/// its grid (``GeoPackageTileReader``).
extension Catalogue {
    /// The set of the folder at `path` and, zoom by zoom, the columns and rows of the tiles it
    /// holds; nil for a folder without `tms.json` or a file (Web Mercator). A document that
    /// exists but is not a tile matrix set refuses the start, as an unreadable tileset does.
    static func tileMatrixSet(besideTileset path: String, zooms: ClosedRange<Int>) throws(TileServerError) -> (
        TileMatrixSet, [TileMatrixLimits]
    )? {
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

    /// A GeoPackage's entry: its reader, with its bounds in degrees through PROJ when its CRS is
    /// neither Web Mercator's nor geographic (``degrees(of:in:)``), and its set with the columns
    /// and rows of its tiles unless it is WebMercatorQuad.
    static func openGeoPackage(_ path: String) throws(TileServerError) -> CatalogueEntry {
        do {
            let reader = try GeoPackageTileReader(path: path, degrees: degrees(of:in:))
            let limits = try reader.limits().map { TileMatrixLimits(zoom: $0.zoom, columns: $0.columns, rows: $0.rows) }
            return CatalogueEntry(
                id: Tileset.name(of: path), path: path, reader: reader, sheetIndex: try sheetIndex(besideTileset: path),
                tileMatrixSet: reader.tileMatrixSet == .webMercatorQuad ? nil : (reader.tileMatrixSet, limits))
        } catch let error as TileServerError {
            throw error
        } catch {
            throw .noTileset(path: path, reason: "\(error)")
        }
    }

    /// A box in `tms`'s CRS in degrees: the longitudes and latitudes of 21 points along each
    /// edge (as morecantile's `bbox` densifies); nil when PROJ cannot transform one.
    @Sendable static func degrees(of box: GridBounds, in tms: TileMatrixSet) -> GeoBounds? {
        guard let grid = try? GeographicGrid(tms) else { return nil }
        let steps = (0...20).map { Double($0) / 20 }
        let xs = steps.map { box.left + (box.right - box.left) * $0 }, ys = steps.map { box.bottom + (box.top - box.bottom) * $0 }
        let edge =
            xs.flatMap { [GridPoint(x: $0, y: box.bottom), GridPoint(x: $0, y: box.top)] }
            + ys.flatMap { [GridPoint(x: box.left, y: $0), GridPoint(x: box.right, y: $0)] }
        let c = edge.map(grid.coordinate(of:))
        guard c.allSatisfy({ $0.longitude.isFinite && $0.latitude.isFinite }) else { return nil }
        return GeoBounds(
            west: c.map(\.longitude).min()!, south: c.map(\.latitude).min()!, east: c.map(\.longitude).max()!,
            north: c.map(\.latitude).max()!)
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
