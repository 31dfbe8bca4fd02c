import Foundation
import TegulaBundle
import TegulaGeometry
import TegulaOverlay

/// A worked example of the data hook: an overlay reading straight from a tileset that
/// `tegula tile` wrote — an MBTiles file, a PMTiles file or a tiles folder — with no server.
///
/// It overrides `loadTile(at:)` (MapKit's hook for producing tile data yourself). Its zoom
/// range, tile size and `boundingMapRect` come from the tileset's metadata; pass
/// `overzoomTo:` to keep serving crops of the deepest native tiles past the tileset's max zoom.
/// An absent entry throws `.tileMissing`; a bundle that cannot be read throws `.loadFailed`.
public final class BundleTileOverlay: TileOverlay, @unchecked Sendable {
    /// The tileset's path.
    public let bundlePath: String
    /// The tileset's metadata (name, zooms, bounds, footprint, …).
    public let metadata: TilesetMetadata
    private let reader: any TileReader

    /// Opens the tileset at `bundle` (a file URL). With `overzoomTo`, `maximumZ` becomes that
    /// zoom and `maximumNativeZ` the tileset's own max zoom, so deeper tiles are upscaled crops.
    public init(bundle: URL, overzoomTo deepestZ: Int? = nil,
                cache: TileCache = TileCache(byteBudget: 32 << 20)) throws(TileOverlayError) {
        guard bundle.isFileURL else { throw .bundleFailed(path: bundle.absoluteString, reason: "not a file URL") }
        bundlePath = bundle.path
        do {
            reader = try Tileset.openReader(at: bundle.path)
        } catch {
            throw .bundleFailed(path: bundle.path, reason: "\(error)", underlying: error)
        }
        metadata = reader.metadata
        super.init(template: nil, cache: cache)
        minimumZ = metadata.minZoom
        maximumZ = max(metadata.maxZoom, deepestZ ?? metadata.maxZoom)
        if let deepestZ, deepestZ > metadata.maxZoom { maximumNativeZ = metadata.maxZoom }
        overzoomRenderer = PNGOverzoomRenderer()
        tileSize = TileSize(width: metadata.tileSize, height: metadata.tileSize)
        boundingMapRect = MapRect(metadata.bounds)
    }

    /// `file://BUNDLE#z/x/y` (XYZ row): names the entry; the bytes come from `loadTile(at:)`.
    override public func url(forTilePath path: TileOverlayPath) -> URL {
        let t = tile(for: path)
        var c = URLComponents(url: URL(fileURLWithPath: bundlePath), resolvingAgainstBaseURL: false)
        c?.fragment = "\(t.z)/\(t.x)/\(t.y)"
        return c?.url ?? URL(fileURLWithPath: bundlePath)
    }

    /// The entry's bytes from the bundle reader.
    override public func loadTile(at path: TileOverlayPath) async throws -> Data {
        let t = tile(for: path)
        let bytes: [UInt8]?
        do {
            bytes = try reader.tile(t)
        } catch {
            throw TileOverlayError.loadFailed(path: path, source: bundlePath, reason: "\(error)", underlying: error)
        }
        guard let bytes else { throw TileOverlayError.tileMissing(path: path, source: "\(bundlePath) entry \(t.z)/\(t.x)/\(t.y)") }
        return Data(bytes)
    }
}
