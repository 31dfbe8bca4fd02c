import Foundation
import TegulaGeometry
import TegulaSupport

/// How tiles are named inside a folder: `z/x/y[@2x].ext`, rows flipped for TMS. In an `auto`
/// folder each file has the extension of its bytes (`.jpg` or `.png`), as MapTiler's hybrid does.
struct FolderNaming: Codable, Hashable, Sendable {
    var layout: TileOrigin
    var format: TileFormat
    var scale: Int

    /// The tile's path relative to the folder root, with extension `ext`.
    func relativePath(_ t: Tile, ext: String) -> String {
        let row = layout.row(forXYZRow: t.y, zoom: t.z)
        return "\(t.z)/\(t.x)/\(row)\(scale == 2 ? "@2x" : "").\(ext)"
    }

    /// The paths a tile may have: one, or one per extension in an `auto` folder (JPEG first).
    func relativePaths(_ t: Tile) -> [String] { format.tileFormats.map { relativePath(t, ext: $0.fileExtension) } }

    /// The URL templates relative to the folder (TileJSON `tiles`): none for `auto`, whose tiles
    /// have no single extension (TileJSON's endpoints are alternatives, not a choice per tile).
    var templates: [String] {
        format == .auto ? [] : ["{z}/{x}/{y}\(scale == 2 ? "@2x" : "").\(format.fileExtension)"]
    }

    /// The tile a file in `z/x/` names, or nil when the name is not `row[@2x].ext` with a row
    /// below `rows` (the matrix's height: 2^z in Web Mercator).
    func tile(z: Int, x: Int, fileName: String, rows: Int) -> Tile? {
        for f in format.tileFormats {
            let suffix = "\(scale == 2 ? "@2x" : "").\(f.fileExtension)"
            guard fileName.hasSuffix(suffix), let row = Int(fileName.dropLast(suffix.count)),
                row >= 0, row < rows
            else { continue }
            return Tile(x: x, y: layout.xyzRow(forRow: row, zoom: z), z: z)
        }
        return nil
    }
}

/// Writes a tile folder: each tile to a temp file then renamed (never a truncated tile), a
/// `.tegula-tileset` marker at once (so an interrupted folder is recognised for `--resume`), and
/// on `finish` its tile matrix set's `tms.json` (another set than WebMercatorQuad), then
/// `tiles.json` (TileJSON 3.0.0) plus `tilemapresource.xml` for TMS.
final class FolderTileWriter: TileWriter, @unchecked Sendable {
    static let markerName = ".tegula-tileset"
    let root: String
    let naming: FolderNaming
    private let madeDirs = Locked(Set<String>())
    private let done = Locked(false)
    /// The tile matrix set the tiles are in when it is not WebMercatorQuad: its matrices bound
    /// the tiles instead of Web Mercator's 2^z.
    let grid: TileMatrixSet?

    init(path: String, format: TileFormat, layout: TileOrigin, scale: Int, resume: Bool, grid: TileMatrixSet? = nil) throws {
        root = path
        self.grid = grid
        naming = FolderNaming(layout: layout, format: format, scale: scale)
        if !resume, Self.hasMarker(path) { try Tileset.removeFolder(path) }
        if resume, let old = Self.readMarker(path), old != naming {
            throw TilesetError.badTile(
                path: path,
                detail: "cannot resume: the folder holds \(old.layout.rawValue) "
                    + "\(old.format.rawValue) tiles at scale \(old.scale); rerun with the same --layout/--format/--scale")
        }
        if resume, let held = Self.finishedSet(path), held != grid ?? .webMercatorQuad {
            // A finished folder has no resume stamp to refuse another set: its tiles and tms.json would mix two grids.
            throw TilesetError.badTile(
                path: path, detail: "cannot resume: the folder holds \(held.id) tiles; rerun with --tms \(held.id), or without --resume")
        }
        try FileIO.makeDirectory(path)
        let marker = try JSONStyle.compact.encode(naming)
        try FileIO.writeAtomically(path + "/" + Self.markerName, [UInt8](marker))
    }

    func write(_ tile: Tile, data: [UInt8]) throws {
        try validate(tile, path: root, in: grid)
        guard !done.withLock({ $0 }) else { throw TilesetError.finished(path: root) }
        let zDir = "\(root)/\(tile.z)", xDir = "\(zDir)/\(tile.x)"
        if !madeDirs.withLock({ $0.contains(xDir) }) {
            try FileIO.makeDirectory(zDir)
            try FileIO.makeDirectory(xDir)
            madeDirs.withLock { _ = $0.insert(xDir) }
        }
        if naming.format == .auto {  // a tile that changed format must not leave its old file behind
            for old in naming.relativePaths(tile) where !old.hasSuffix("." + naming.format.fileExtension(of: data)) {
                if unlink(root + "/" + old) != 0 && errno != ENOENT {
                    throw TilesetError.io(FileError(path: root + "/" + old, operation: "remove the tile's other format", errno: errno))
                }
            }
        }
        try FileIO.writeAtomically(root + "/" + naming.relativePath(tile, ext: naming.format.fileExtension(of: data)), data)
    }

    func finish(metadata: TilesetMetadata) throws {
        try done.withLock { d in
            guard !d else { throw TilesetError.finished(path: root) }
            d = true
        }
        var m = metadata
        m.format = naming.format
        m.scale = naming.scale
        // tms.json lands before tiles.json, the mark of a finished folder: a kill between the two
        // must not leave a folder that looks finished in WebMercatorQuad.
        if let grid {
            try FileIO.writeAtomically(root + "/" + Tileset.tileMatrixSetFileName, Array(try JSONStyle.readable.encode(grid) + Data("\n".utf8)))
        }
        try FileIO.writeAtomically(root + "/" + Tileset.folderDescriptionName, m.tileJSON(tiles: naming.templates, scheme: naming.layout))
        if naming.layout == .bottomLeft {
            try FileIO.writeAtomically(root + "/tilemapresource.xml", Array(tileMapResource(m).utf8))
        }
    }

    /// The TMS `tilemapresource.xml` (as gdal2tiles writes for the mercator profile).
    func tileMapResource(_ m: TilesetMetadata) -> String {
        let b = WebMercator.project(m.bounds)
        let px = m.tileSize
        let sets = m.zooms.levels.map { z in
            let upp = 2 * WebMercator.halfCircumference / (Double(px) * pow(2, Double(z)))
            return "    <TileSet href=\"\(z)\" units-per-pixel=\"\(String(format: "%.14f", upp))\" order=\"\(z)\"/>"
        }.joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <TileMap version="1.0.0" tilemapservice="http://tms.osgeo.org/1.0.0">
              <Title>\(XMLText.escape(m.name))</Title>
              <Abstract>\(XMLText.escape(m.description ?? ""))</Abstract>
              <SRS>EPSG:3857</SRS>
              <BoundingBox minx="\(b.left)" miny="\(b.bottom)" maxx="\(b.right)" maxy="\(b.top)"/>
              <Origin x="\(-WebMercator.halfCircumference)" y="\(-WebMercator.halfCircumference)"/>
              <TileFormat width="\(px)" height="\(px)" mime-type="\(m.format.contentType)" extension="\(m.format.fileExtension)"/>
              <TileSets profile="mercator">
            \(sets)
              </TileSets>
            </TileMap>

            """
    }

    // MARK: Recognising folders

    /// The naming recorded in a folder's marker, or nil when it has none.
    static func readMarker(_ path: String) -> FolderNaming? {
        guard let bytes = try? FileIO.readFile(path + "/" + markerName) else { return nil }
        return try? JSONDecoder().decode(FolderNaming.self, from: Data(bytes))
    }

    /// True when the folder carries the tegula marker.
    static func hasMarker(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path + "/" + markerName)
    }

    /// Every tile file present in a marked folder, within the matrices of `grid` (the set the
    /// caller cuts in), else of the set in the folder's `tms.json`, else of Web Mercator (2^z × 2^z).
    static func scanTiles(_ path: String, grid: TileMatrixSet? = nil) -> Set<Tile> {
        guard let naming = readMarker(path) else { return [] }
        let grid = grid ?? readTileMatrixSet(path)
        let fm = FileManager.default
        var out = Set<Tile>()
        for zName in (try? fm.contentsOfDirectory(atPath: path)) ?? [] {
            guard let z = Int(zName), grid?.zooms.contains(z) ?? (0...WebMercator.maxZoom).contains(z) else { continue }
            let size = grid.map { $0.limits(zoom: z) }.map { (columns: $0.x.count, rows: $0.y.count) } ?? (columns: 1 << z, rows: 1 << z)
            for xName in (try? fm.contentsOfDirectory(atPath: "\(path)/\(zName)")) ?? [] {
                guard let x = Int(xName), x >= 0, x < size.columns else { continue }
                for f in (try? fm.contentsOfDirectory(atPath: "\(path)/\(zName)/\(xName)")) ?? [] {
                    if let t = naming.tile(z: z, x: x, fileName: f, rows: size.rows) { out.insert(t) }
                }
            }
        }
        return out
    }

    /// The set a finished folder's tiles are in: its `tms.json`'s (which lands first, so a run killed
    /// as it finished has it too), else WebMercatorQuad when it has its `tiles.json`; nil for a
    /// folder not finished (its resume stamp says what it was begun in).
    static func finishedSet(_ path: String) -> TileMatrixSet? {
        if let set = readTileMatrixSet(path) { return set }
        return FileManager.default.fileExists(atPath: path + "/" + Tileset.folderDescriptionName) ? .webMercatorQuad : nil
    }

    /// The tile matrix set a folder carries (``Tileset/tileMatrixSetFileName``), or nil when it
    /// has none (Web Mercator) or it cannot be read as one.
    static func readTileMatrixSet(_ path: String) -> TileMatrixSet? {
        guard let bytes = try? FileIO.readFile(path + "/" + Tileset.tileMatrixSetFileName) else { return nil }
        return try? TileMatrixSet(json: Data(bytes))
    }
}
