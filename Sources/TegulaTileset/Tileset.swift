import Foundation
import TegulaGeometry
import TegulaSupport

/// Opening bundles by the form of their path: a folder, `*.mbtiles`, `*.pmtiles` or `*.gpkg`.
public enum Tileset {
    /// Where the sheet index of a tileset made from a pipeline's composite lies: beside it, its
    /// path without the extension plus `.index.geojson` (`out/all.pmtiles` → `out/all.index.geojson`,
    /// a folder `out/tiles` → `out/tiles.index.geojson`); written by the pipeline.
    public static func sheetIndexPath(of path: String) -> String {
        let p = path.hasSuffix("/") ? String(path.dropLast()) : path
        return (p as NSString).deletingPathExtension + ".index.geojson"
    }

    /// The bundle forms.
    public enum Form: String, Sendable, CaseIterable {
        case folder, mbtiles, pmtiles
        /// An OGC GeoPackage's tiles (``GeoPackageTileWriter``; read by ``GeoPackageTileReader``
        /// for serving).
        case geopackage = "gpkg"

        /// The file extension that names this form (`mbtiles`, `pmtiles`, `gpkg`); nil for a folder.
        public var fileExtension: String? { self == .folder ? nil : rawValue }

        /// True for the forms Tegula reads back wherever it takes a tileset (all but a GeoPackage,
        /// which `tegula serve` alone opens, given by its path or found in a folder of tilesets
        /// (``Tileset/isServable(at:)``), for it may hold another grid).
        public var isReadable: Bool { self != .geopackage }
    }

    /// The file inside a tile folder that describes it (TileJSON 3.0.0); a folder holding it can
    /// be read as a tileset, whichever tool wrote it.
    public static let folderDescriptionName = "tiles.json"

    /// The file a folder cut in a tile matrix set other than WebMercatorQuad carries the set in
    /// (TMS 2.0 JSON), beside its ``folderDescriptionName``: written by `tegula tile --tms`, read
    /// by `tegula serve`.
    public static let tileMatrixSetFileName = "tms.json"

    /// The form a path names: by extension for files, folder otherwise.
    public static func form(of path: String) -> Form {
        let ext = (path as NSString).pathExtension.lowercased()
        return Form.allCases.first { $0.fileExtension == ext } ?? .folder
    }

    /// A tileset's name, the id it is served under: ``ServedID`` of its path or URL, keeping any
    /// extension but a tileset file's, so `maps/Old Map.pmtiles` and the folder `maps/Old Map`
    /// are both "Old Map", `https://host/a.pmtiles?X-Amz-Expires=60` is "a" and `.` is the current
    /// folder's name.
    public static func name(of path: String) -> String {
        ServedID.of(path) { ext in !Form.allCases.contains { $0.fileExtension == ext.lowercased() } }
    }

    /// True when `openReader(at:)` can be tried on `path`: a folder holding
    /// `folderDescriptionName`, or a file named as an MBTiles or PMTiles.
    public static func isReadable(at path: String) -> Bool {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return false }
        if isDir.boolValue { return FileManager.default.fileExists(atPath: path + "/" + folderDescriptionName) }
        return form(of: path) != .folder && form(of: path).isReadable
    }

    /// True when a folder of tilesets given to `tegula serve` serves `path`: what
    /// ``isReadable(at:)`` takes, or a GeoPackage whose `gpkg_contents` names a tiles table (one
    /// of features alone is passed over), in whatever tile matrix set it holds.
    public static func isServable(at path: String) -> Bool {
        isReadable(at: path) || (form(of: path) == .geopackage && GeoPackageTileReader.looksLikeGeoPackageTiles(path))
    }

    /// Opens a writer for OUT. An existing OUT that is not a tileset is refused and left untouched;
    /// an existing tileset is replaced unless `resume` is set, in which case its tiles are kept.
    ///
    /// Folder: tiles land as `z/x/y[@2x].ext` (rows flipped with `.tms`), each via temp + rename.
    /// MBTiles: written in place, one transaction per 500 tiles, so after a kill every committed
    /// batch survives and `resume` continues. PMTiles: tiles go to `OUT.data.tmp` and an index
    /// journal `OUT.index.tmp`; `finish` writes the clustered file to `OUT.tmp` and renames it.
    ///
    /// GeoPackage: built whole beside OUT in one transaction and renamed into place by `finish`
    /// (``GeoPackageTileWriter``), in `tms` with `geoPackageCRS` as its CRS row and tiles of
    /// `tilePixels` across; nothing to resume, so `resume` is refused.
    ///
    /// One writer per OUT at a time (`OUT.lock`, see `OutputLock`): a second is refused with the
    /// holder's pid, and what a killed run left (its lock, temporary files) is taken over and
    /// swept before writing. With `waitForOtherWriter` a second writer waits for the first to
    /// finish instead of being refused.
    public static func openWriter(
        at path: String, format: TileFormat = .png, layout: TileOrigin = .topLeft,
        scale: Int = 1, resume: Bool = false, waitForOtherWriter: Bool = false,
        tms: TileMatrixSet = .webMercatorQuad, tilePixels: Int = 256,
        geoPackageCRS: GeoPackageTileWriter.SpatialReference? = nil
    ) throws -> TileWriter {
        let fm = FileManager.default
        let lock = try OutputLock(for: path, wait: waitForOtherWriter)
        var isDir: ObjCBool = false
        let exists = fm.fileExists(atPath: path, isDirectory: &isDir)
        let form = form(of: path)
        if let found = refusal(at: path) { throw TilesetError.notATileset(path: path, found: found) }
        let format = format.stored  // containers declare what the bytes are: PNG8 tiles are PNGs
        if format == .auto && (form == .mbtiles || form == .pmtiles) {
            // MBTiles 1.3 has one `format`, PMTiles v3 one tile type; MapTiler refuses the mix there too.
            throw TilesetError.formatNotHeld(path: path, format: format.name, container: form == .mbtiles ? "MBTiles" : "PMTiles")
        }
        if form == .geopackage && resume { throw TilesetError.nothingToResume(path: path) }
        removeLeftovers(of: path, inside: exists && isDir.boolValue)
        let writer: TileWriter
        switch form {
        case .folder:
            writer = try FolderTileWriter(
                path: path, format: format, layout: layout, scale: scale, resume: resume, grid: tms == .webMercatorQuad ? nil : tms)
        case .mbtiles: writer = try MBTilesWriter(path: path, format: format, scale: scale, resume: resume)
        case .pmtiles: writer = try PMTilesWriter(path: path, format: format, resume: resume)
        case .geopackage:
            guard let geoPackageCRS else { throw TilesetError.badTile(path: path, detail: "a GeoPackage needs its CRS's row (geoPackageCRS)") }
            writer = try GeoPackageTileWriter(path: path, tms: tms, srs: geoPackageCRS, tilePixels: tilePixels)
        }
        return LockedTileWriter(writer, lock: lock)
    }

    /// Removes the temporary files a killed writer of OUT left (the caller holds OUT's lock, so
    /// no live writer owns them): `AtomicFile` temporaries of OUT beside it (a PMTiles killed
    /// while finishing, a replaced tile folder killed while being removed) and, with `inside`,
    /// within the tile folder up to `z/x/` (a tile or `tiles.json` killed mid-write); an MBTiles
    /// creation killed before its rename. The PMTiles journal (`OUT.data.tmp`, `OUT.index.tmp`)
    /// is not a leftover: `--resume` continues it.
    static func removeLeftovers(of path: String, inside: Bool) {
        let fm = FileManager.default
        var out = path
        while out.count > 1 && out.hasSuffix("/") { out.removeLast() }
        let parent = out.parentPath, name = (out as NSString).lastPathComponent
        let folder = parent.isEmpty ? "." : parent
        for f in (try? fm.contentsOfDirectory(atPath: folder)) ?? []
        where f == name + ".new.tmp" || f == name + ".new.tmp-journal" || isAtomicTemporary(f, of: name) {
            // A folder is a replaced tileset moved aside (`FolderTileWriter`) and killed mid-removal.
            if unlink(folder + "/" + f) != 0 && errno == EISDIR { try? fm.removeItem(atPath: folder + "/" + f) }
        }
        guard inside else { return }
        var level = [out]
        for _ in 0..<3 {
            var next: [String] = []
            for dir in level {
                for f in (try? fm.contentsOfDirectory(atPath: dir)) ?? [] {
                    if isAtomicTemporary(f, of: nil) { unlink(dir + "/" + f) } else if Int(f) != nil { next.append(dir + "/" + f) }
                }
            }
            level = next
        }
    }

    /// What is at `path` when a tileset may not be written there, or nil when one may. An output
    /// may be written when it does not exist, is a folder that is empty or holds only what a
    /// killed writer left, or is a tileset of its form; anything else is refused and left
    /// untouched. The one rule for an existing output: ``openWriter(at:format:layout:scale:resume:waitForOtherWriter:)``,
    /// `tegula run`'s check before any stage and ``replace(_:with:)`` all apply it.
    public static func refusal(at path: String) -> String? {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDir) else { return nil }
        // Only what a killed writer left counts as empty: a run killed between making the folder
        // and renaming its marker into place left `..tegula-tileset.PID-RANDOM.tmp` alone in it,
        // and the rerun with `--resume` refused the folder as not a tileset (FaultTests, once in
        // a full run).
        if isDir.boolValue, (try? fm.contentsOfDirectory(atPath: path))?.allSatisfy({ isAtomicTemporary($0, of: nil) }) ?? false {
            return nil
        }
        if isTileset(at: path) { return nil }
        let form = form(of: path)
        return isDir.boolValue ? "a folder without a tileset marker" : "a file that is not a \(form == .folder ? "folder" : form.rawValue)"
    }

    /// Moves the finished tileset at `finished` (a file or folder of `path`'s form, written beside
    /// it) to `path`, replacing the tileset there: a file in one `rename(2)`; a folder first moved
    /// aside in one rename (see ``removeFolder(_:)``). What ``refusal(at:)`` refuses is left
    /// untouched, and so is `finished`.
    public static func replace(_ path: String, with finished: String) throws {
        if let found = refusal(at: path) { throw TilesetError.notATileset(path: path, found: found) }
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue { try removeFolder(path) }
        guard rename(finished, path) == 0 else {
            throw TilesetError.io(FileError(path: path, operation: "move \(finished) into place at", errno: errno))
        }
    }

    /// Removes a tile folder: moved aside in one rename, then removed. A kill while removing
    /// leaves `.NAME.PID-RANDOM.tmp` beside it, which the next writer sweeps, where removing in
    /// place could leave a folder of tiles without its marker, which the next run refuses.
    static func removeFolder(_ path: String) throws {
        let aside = AtomicFile.temporaryName(beside: path)
        guard rename(path, aside) == 0 else {
            throw TilesetError.io(FileError(path: path, operation: "move the previous tileset aside", errno: errno))
        }
        try? FileManager.default.removeItem(atPath: aside)
    }

    /// True for `.NAME.PID-RANDOM.tmp`, the name `AtomicFile` writes NAME under (any NAME when nil).
    static func isAtomicTemporary(_ file: String, of name: String?) -> Bool {
        AtomicFile.temporaryWriter(file, of: name) != nil
    }

    /// Opens a finished tileset for reading.
    public static func openReader(at path: String) throws -> TileReader {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw TilesetError.io(FileError(path: path, operation: "open", errno: ENOENT))
        }
        if isDir.boolValue { return try FolderTileReader(path: path) }
        switch form(of: path) {
        case .mbtiles: return try MBTilesReader(path: path)
        case .pmtiles: return try PMTilesReader(path: path)
        case .geopackage: return try GeoPackageTileReader(path: path)
        case .folder: throw TilesetError.unknownForm(path: path)
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
        case .geopackage: return GeoPackageTileWriter.looksLikeItsOwn(path)
        case .folder: return false
        }
    }

    /// The tiles already stored at `path` (finished or interrupted), for `--resume`; empty when none.
    /// A folder's are those within the matrices of `tms` when given (a run killed before `finish`
    /// left no `tms.json`), else of the set its `tms.json` names, else of Web Mercator.
    public static func existingTiles(at path: String, tms: TileMatrixSet? = nil) -> Set<Tile> {
        var isDir: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDir)
        switch form(of: path) {
        case .folder: return exists && isDir.boolValue ? FolderTileWriter.scanTiles(path, grid: tms) : []
        case .mbtiles: return exists ? ((try? MBTilesReader.storedTiles(path)) ?? []) : []
        case .pmtiles: return PMTilesWriter.storedTiles(path)
        case .geopackage: return []
        }
    }
}
