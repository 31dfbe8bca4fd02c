import Foundation
import TegulaGeometry
import TegulaHTTP
import TegulaTileset

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
    /// The sheet index a pipeline wrote beside the tileset (`Tileset.sheetIndexPath(of:)`), or for
    /// a map of a pipeline rendered on demand that pipeline's, as read at start-up; nil when there
    /// is none. Served at `/{id}.index.geojson`.
    public let sheetIndex: [UInt8]?
    /// The tile matrix set of a folder cut in one (its `tms.json`), or that tiles made on request
    /// are made in (`tegula serve --tms`); nil: WebMercatorQuad, as every MBTiles and PMTiles is.
    /// ``ServedGrid`` serves it.
    public let tileMatrixSet: TileMatrixSet?
    /// With ``tileMatrixSet``, the columns and rows the folder has tiles in, zoom by zoom.
    public let tileLimits: [TileMatrixLimits]?
    /// ``tileMatrixSet`` unless it is WebMercatorQuad: a tileset in it has no XYZ tiles and no
    /// TileJSON, which name Web Mercator tiles.
    public var otherTileMatrixSet: TileMatrixSet? { tileMatrixSet.flatMap { $0 == .webMercatorQuad ? nil : $0 } }
    private let fixedFootprint: Footprint?

    /// The tileset's metadata.
    public var metadata: TilesetMetadata { reader.metadata }

    /// Its coverage for `/maps` (a dynamic source's may change when it is re-read).
    public var footprint: Footprint { fixedFootprint ?? Footprint(reader.metadata) }

    /// An entry for an opened reader, with the sheet index beside it when there is one, and the
    /// tile matrix set it is cut in with the limits of its tiles when it is not WebMercatorQuad.
    public init(
        id: String, path: String, reader: any TileReader, sheetIndex: [UInt8]? = nil,
        tileMatrixSet: (TileMatrixSet, [TileMatrixLimits])? = nil
    ) {
        self.id = id
        self.path = path
        self.reader = reader
        self.sheetIndex = sheetIndex
        self.tileMatrixSet = tileMatrixSet?.0
        tileLimits = tileMatrixSet?.1
        dynamic = nil
        fixedFootprint = Footprint(reader.metadata)
    }

    /// An entry whose tiles are made on request, with the sheet index of the pipeline it is a map
    /// of, and the tile matrix set they are made in with the limits of its tiles when it is not
    /// WebMercatorQuad.
    public init(
        id: String, path: String, source: any DynamicTileSource, sheetIndex: [UInt8]? = nil,
        tileMatrixSet: (TileMatrixSet, [TileMatrixLimits])? = nil
    ) {
        self.id = id
        self.path = path
        reader = source
        dynamic = source
        self.sheetIndex = sheetIndex
        self.tileMatrixSet = tileMatrixSet?.0
        tileLimits = tileMatrixSet?.1
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
    public init(_ entries: [CatalogueEntry]) throws(TileServerError) {
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
    /// What counts as a tileset, and its id, is `Tileset`'s rule (`Tileset.isServable`: the
    /// readable forms and GeoPackages of tiles; `Tileset.name`), so the server names files
    /// exactly as the bundle module writes them.
    public static func load(paths: [String]) throws(TileServerError) -> Catalogue {
        var entries: [CatalogueEntry] = []
        let fm = FileManager.default
        for path in paths {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir) else {
                throw .noTileset(path: path, reason: "no such file or folder")
            }
            if isDir.boolValue && !Tileset.isReadable(at: path) {
                let children = ((try? fm.contentsOfDirectory(atPath: path)) ?? []).sorted()
                let found = children.map { path + "/" + $0 }.filter(Tileset.isServable)
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

    static func open(_ path: String) throws(TileServerError) -> CatalogueEntry {
        if Tileset.form(of: path) == .geopackage { return try openGeoPackage(path) }
        let reader: any TileReader
        do { reader = try Tileset.openReader(at: path) } catch {
            throw .noTileset(path: path, reason: "\(error)")
        }
        let zooms = reader.metadata.zooms.levels
        return CatalogueEntry(
            id: Tileset.name(of: path), path: path, reader: reader, sheetIndex: try sheetIndex(besideTileset: path),
            tileMatrixSet: try tileMatrixSet(besideTileset: path, zooms: zooms))
    }

    /// The bytes of the sheet index beside a tileset, nil when there is none; one that exists but
    /// cannot be read refuses the start, as an unreadable tileset does.
    static func sheetIndex(besideTileset path: String) throws(TileServerError) -> [UInt8]? {
        let index = Tileset.sheetIndexPath(of: path)
        guard FileManager.default.fileExists(atPath: index) else { return nil }
        guard let data = FileManager.default.contents(atPath: index) else {
            throw .noTileset(path: path, reason: "its sheet index \(index) cannot be read (a folder, or no permission)")
        }
        return Array(data)
    }
}
