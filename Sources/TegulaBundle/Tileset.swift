import Foundation
import TegulaGeometry

/// Opening bundles by the form of their path: a folder, `*.mbtiles` or `*.pmtiles`.
public enum Tileset {
    /// The three bundle forms.
    public enum Form: String, Sendable, CaseIterable {
        case folder, mbtiles, pmtiles

        /// The file extension that names this form (`mbtiles`, `pmtiles`); nil for a folder.
        public var fileExtension: String? { self == .folder ? nil : rawValue }
    }

    /// The file inside a tile folder that describes it (TileJSON 3.0.0); a folder holding it can
    /// be read as a tileset, whichever tool wrote it.
    public static let folderDescriptionName = "tiles.json"

    /// The form a path names: by extension for files, folder otherwise.
    public static func form(of path: String) -> Form {
        let ext = (path as NSString).pathExtension.lowercased()
        return Form.allCases.first { $0.fileExtension == ext } ?? .folder
    }

    /// A tileset's name: the path's last component without the extension of its form, so
    /// `maps/Old Map.pmtiles` and the folder `maps/Old Map` are both "Old Map".
    public static func name(of path: String) -> String {
        let last = (path as NSString).lastPathComponent
        return form(of: last) == .folder ? last : (last as NSString).deletingPathExtension
    }

    /// True when `openReader(at:)` can be tried on `path`: a folder holding
    /// `folderDescriptionName`, or a file named as an MBTiles or PMTiles.
    public static func isReadable(at path: String) -> Bool {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return false }
        if isDir.boolValue { return FileManager.default.fileExists(atPath: path + "/" + folderDescriptionName) }
        return form(of: path) != .folder
    }

    /// Opens a writer for OUT. An existing OUT that is not a tileset is refused and left untouched;
    /// an existing tileset is replaced unless `resume` is set, in which case its tiles are kept.
    ///
    /// Folder: tiles land as `z/x/y[@2x].ext` (rows flipped with `.tms`), each via temp + rename.
    /// MBTiles: written in place, one transaction per 500 tiles, so after a kill every committed
    /// batch survives and `resume` continues. PMTiles: tiles go to `OUT.data.tmp` and an index
    /// journal `OUT.index.tmp`; `finish` writes the clustered file to `OUT.tmp` and renames it.
    public static func openWriter(at path: String, format: TileFormat = .png, layout: FolderLayout = .xyz,
                                  scale: Int = 1, resume: Bool = false) throws -> TileWriter {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        let exists = fm.fileExists(atPath: path, isDirectory: &isDir)
        let form = form(of: path)
        if exists {
            let emptyDir = isDir.boolValue && ((try? fm.contentsOfDirectory(atPath: path))?.isEmpty ?? false)
            if !emptyDir && !isTileset(at: path) {
                throw BundleError.notATileset(path: path, found: isDir.boolValue ? "a folder without a tileset marker"
                                              : "a file that is not a \(form == .folder ? "folder" : form.rawValue)")
            }
            if form == .folder && !isDir.boolValue { throw BundleError.notATileset(path: path, found: "a file") }
        }
        switch form {
        case .folder: return try FolderTileWriter(path: path, format: format, layout: layout, scale: scale, resume: resume)
        case .mbtiles: return try MBTilesWriter(path: path, format: format, scale: scale, resume: resume)
        case .pmtiles: return try PMTilesWriter(path: path, format: format, resume: resume)
        }
    }

    /// Opens a finished tileset for reading.
    public static func openReader(at path: String) throws -> TileReader {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw BundleError.io(path: path, operation: "open", errno: ENOENT)
        }
        if isDir.boolValue { return try FolderTileReader(path: path) }
        switch form(of: path) {
        case .mbtiles: return try MBTilesReader(path: path)
        case .pmtiles: return try PMTilesReader(path: path)
        case .folder: throw BundleError.unknownForm(path: path)
        }
    }

    /// True when `path` holds a tileset (finished or in progress) that tegula may write into.
    public static func isTileset(at path: String) -> Bool {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return false }
        if isDir.boolValue { return FolderTileWriter.hasMarker(path) }
        switch form(of: path) {
        case .mbtiles: return MBTilesReader.looksLikeMBTiles(path)
        case .pmtiles: return PMTilesReader.looksLikePMTiles(path)
        case .folder: return false
        }
    }

    /// The tiles already stored at `path` (finished or interrupted), for `--resume`; empty when none.
    public static func existingTiles(at path: String) -> Set<Tile> {
        var isDir: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDir)
        switch form(of: path) {
        case .folder: return exists && isDir.boolValue ? FolderTileWriter.scanTiles(path) : []
        case .mbtiles: return exists ? ((try? MBTilesReader.storedTiles(path)) ?? []) : []
        case .pmtiles: return PMTilesWriter.storedTiles(path)
        }
    }
}
