import Foundation
import TegulaBundle
import TegulaGeometry

/// One served tileset: its id (file or folder name without extension), reader and footprint.
public struct CatalogueEntry: Sendable {
    /// URL id: the file or folder name without extension.
    public let id: String
    /// Where it was found.
    public let path: String
    /// Reads its tiles and metadata.
    public let reader: any TileReader
    /// The same reader when its tiles are made on request (``DynamicTileSource``); nil for a bundle.
    public let dynamic: (any DynamicTileSource)?
    private let fixedFootprint: Footprint?

    /// The tileset's metadata.
    public var metadata: TilesetMetadata { reader.metadata }

    /// Its coverage for `/maps` (a dynamic source's may change when it is re-read).
    public var footprint: Footprint { fixedFootprint ?? Footprint(reader.metadata) }

    /// An entry for an opened reader.
    public init(id: String, path: String, reader: any TileReader) {
        self.id = id
        self.path = path
        self.reader = reader
        dynamic = nil
        fixedFootprint = Footprint(reader.metadata)
    }

    /// An entry whose tiles are made on request.
    public init(id: String, path: String, source: any DynamicTileSource) {
        self.id = id
        self.path = path
        reader = source
        dynamic = source
        fixedFootprint = nil
    }
}

/// The tilesets served, found once at start-up; URL paths are looked up here by id and never
/// mapped onto the file system.
public struct Catalogue: Sendable {
    /// Entries in the order given (the first base layer is the viewer's default).
    public let entries: [CatalogueEntry]
    private let byID: [String: CatalogueEntry]

    /// A catalogue of opened entries; ids must be unique.
    public init(_ entries: [CatalogueEntry]) throws(ServerError) {
        var byID: [String: CatalogueEntry] = [:]
        for e in entries {
            if let first = byID[e.id] { throw .duplicateID(id: e.id, first: first.path, second: e.path) }
            byID[e.id] = e
        }
        self.entries = entries
        self.byID = byID
    }

    /// The entry with this id.
    public subscript(id: String) -> CatalogueEntry? { byID[id] }

    /// Opens every PATH: a tileset itself, or a folder whose children are tilesets (one level).
    /// What counts as a tileset, and its id, is `Tileset`'s rule (`Tileset.isReadable`,
    /// `Tileset.name`), so the server names files exactly as the bundle module writes them.
    public static func load(paths: [String]) throws(ServerError) -> Catalogue {
        var entries: [CatalogueEntry] = []
        let fm = FileManager.default
        for path in paths {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir) else {
                throw .noTileset(path: path, reason: "no such file or folder")
            }
            if isDir.boolValue && !Tileset.isReadable(at: path) {
                let children = ((try? fm.contentsOfDirectory(atPath: path)) ?? []).sorted()
                let found = children.map { path + "/" + $0 }.filter(Tileset.isReadable)
                guard !found.isEmpty else {
                    throw .noTileset(path: path, reason: "no \(Tileset.folderDescriptionName) and no tilesets inside")
                }
                for p in found { entries.append(try open(p)) }
            } else {
                entries.append(try open(path))
            }
        }
        guard !entries.isEmpty else { throw .emptyCatalogue }
        return try Catalogue(entries)
    }

    /// The id a path gets: its tileset name (`Tileset.name`); `.` or an empty path is named
    /// after the current folder.
    public static func id(for path: String) -> String {
        let name = (path as NSString).lastPathComponent
        if name.isEmpty || name == "." { return (FileManager.default.currentDirectoryPath as NSString).lastPathComponent }
        return Tileset.name(of: name)
    }

    static func open(_ path: String) throws(ServerError) -> CatalogueEntry {
        do {
            return CatalogueEntry(id: id(for: path), path: path, reader: try Tileset.openReader(at: path))
        } catch {
            throw .noTileset(path: path, reason: "\(error)")
        }
    }
}
