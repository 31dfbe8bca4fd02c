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
    public init(_ entries: [CatalogueEntry]) throws {
        var byID: [String: CatalogueEntry] = [:]
        for e in entries {
            if let first = byID[e.id] { throw ServerError.duplicateID(id: e.id, first: first.path, second: e.path) }
            byID[e.id] = e
        }
        self.entries = entries
        self.byID = byID
    }

    /// The entry with this id.
    public subscript(id: String) -> CatalogueEntry? { byID[id] }

    /// Opens every PATH: a tileset itself, or a folder whose children are tilesets (one level).
    public static func load(paths: [String]) throws -> Catalogue {
        var entries: [CatalogueEntry] = []
        let fm = FileManager.default
        for path in paths {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir) else {
                throw ServerError.noTileset(path: path, reason: "no such file or folder")
            }
            if isDir.boolValue && !fm.fileExists(atPath: path + "/tiles.json") {
                let children = ((try? fm.contentsOfDirectory(atPath: path)) ?? []).sorted()
                let found = children.map { path + "/" + $0 }.filter(isServable)
                guard !found.isEmpty else { throw ServerError.noTileset(path: path, reason: "no tiles.json and no tilesets inside") }
                for p in found { entries.append(try open(p)) }
            } else {
                entries.append(try open(path))
            }
        }
        guard !entries.isEmpty else { throw ServerError.emptyCatalogue }
        return try Catalogue(entries)
    }

    /// The id a path gets: its last component without extension.
    public static func id(for path: String) -> String {
        var name = (path as NSString).lastPathComponent
        if name.isEmpty || name == "." { name = (FileManager.default.currentDirectoryPath as NSString).lastPathComponent }
        let ext = (name as NSString).pathExtension.lowercased()
        return ext == "mbtiles" || ext == "pmtiles" ? (name as NSString).deletingPathExtension : name
    }

    static func isServable(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return false }
        if isDir.boolValue { return FileManager.default.fileExists(atPath: path + "/tiles.json") }
        return Tileset.form(of: path) != .folder
    }

    static func open(_ path: String) throws -> CatalogueEntry {
        do {
            return CatalogueEntry(id: id(for: path), path: path, reader: try Tileset.openReader(at: path))
        } catch let e as BundleError {
            throw ServerError.noTileset(path: path, reason: "\(e)")
        }
    }
}
