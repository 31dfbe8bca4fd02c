import Foundation
import TegulaGeometry
import TegulaOverlay
import TegulaTileset

/// A worked example of the data hook: an overlay reading straight from a tileset that
/// `tegula tile` wrote — an MBTiles file, a PMTiles file or a tiles folder — with no server.
///
/// It overrides `loadTile(at:)` (MapKit's hook for producing tile data yourself). Its zoom
/// range, tile size and `boundingMapRect` come from the tileset's metadata; pass
/// `overzoomTo:` to keep serving crops of the deepest native tiles past the tileset's max zoom.
/// An absent entry throws `.tileMissing`; a tileset that cannot be read throws `.loadFailed`.
public final class TilesetOverlay: TileOverlay, @unchecked Sendable {
    /// The tileset's path.
    public let tilesetPath: String
    /// The tileset's metadata (name, zooms, bounds, footprint, …).
    public let metadata: TilesetMetadata
    private let reader: any TileReader

    /// Opens the tileset at `tileset` (a file URL). With `overzoomTo`, `maximumZ` becomes that
    /// zoom and `maximumNativeZ` the tileset's own max zoom, so deeper tiles are upscaled crops.
    public init(
        tileset: URL, overzoomTo deepestZ: Int? = nil,
        cache: TileCache = TileCache(byteBudget: 32 << 20)
    ) throws(TileOverlayError) {
        guard tileset.isFileURL else { throw .bundleFailed(path: tileset.absoluteString, reason: "not a file URL") }
        tilesetPath = tileset.path
        do {
            reader = try Tileset.openReader(at: tileset.path)
        } catch {
            throw .bundleFailed(path: tileset.path, reason: "\(error)", underlying: error)
        }
        if let g = reader as? GeoPackageTileReader, g.tileMatrixSet != .webMercatorQuad {
            throw .bundleFailed(path: tileset.path, reason: "its tiles are in \(g.tileMatrixSet.id), not WebMercatorQuad, the overlay's grid")
        }
        metadata = reader.metadata
        super.init(template: nil, cache: cache)
        minimumZ = metadata.zooms.min
        maximumZ = max(metadata.zooms.max, deepestZ ?? metadata.zooms.max)
        if let deepestZ, deepestZ > metadata.zooms.max { maximumNativeZ = metadata.zooms.max }
        overzoomRenderer = PNGOverzoomRenderer()
        tileSize = TileSize(width: metadata.tileSize, height: metadata.tileSize)
        boundingMapRect = MapRect(metadata.bounds)
    }

    /// `file://TILESET#z/x/y` (XYZ row): names the entry; the bytes come from `loadTile(at:)`.
    override public func url(forTilePath path: TileOverlayPath) -> URL {
        let t = tile(for: path)
        var c = URLComponents(url: URL(fileURLWithPath: tilesetPath), resolvingAgainstBaseURL: false)
        c?.fragment = "\(t.z)/\(t.x)/\(t.y)"
        return c?.url ?? URL(fileURLWithPath: tilesetPath)
    }

    /// The entry's bytes from the tileset's reader.
    override public func loadTile(at path: TileOverlayPath) async throws -> Data {
        let t = tile(for: path)
        let bytes: [UInt8]?
        do {
            bytes = try reader.tile(t)
        } catch {
            throw TileOverlayError.loadFailed(path: path, source: tilesetPath, reason: "\(error)", underlying: error)
        }
        guard let bytes else { throw TileOverlayError.tileMissing(path: path, source: "\(tilesetPath) entry \(t.z)/\(t.x)/\(t.y)") }
        return Data(bytes)
    }
}

extension TilesetOverlay {
    /// The name ``TilesetOverlay/init(tileset:overzoomTo:cache:)`` had before the tileset was called
    /// a tileset everywhere (issue 41).
    @available(*, deprecated, renamed: "init(tileset:overzoomTo:cache:)")
    public convenience init(
        bundle: URL, overzoomTo deepestZ: Int? = nil,
        cache: TileCache = TileCache(byteBudget: 32 << 20)
    ) throws(TileOverlayError) {
        try self.init(tileset: bundle, overzoomTo: deepestZ, cache: cache)
    }

    /// The name ``tilesetPath`` had before (issue 41).
    @available(*, deprecated, renamed: "tilesetPath")
    public var bundlePath: String { tilesetPath }
}

/// The name ``TilesetOverlay`` had before the tileset was called a tileset everywhere (issue 41).
@available(*, deprecated, renamed: "TilesetOverlay")
public typealias BundleTileOverlay = TilesetOverlay
