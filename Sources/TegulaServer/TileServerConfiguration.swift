/// What shapes the tile server's answers, beside the HTTP core's ``ServerConfiguration`` (CORS,
/// the base URL, the longest target) and the IIIF image server's configuration: the caching of
/// tiles, in the client and in memory, and the answer for a tile the tileset lacks.
public struct TileServerConfiguration: Sendable, Equatable {
    /// Status for an in-range tile the tileset lacks: 404 (MapLibre falls back to the parent) or 204.
    public enum MissingTile: Int, Sendable {
        case notFound = 404
        case noContent = 204
    }

    /// `Cache-Control` for tiles.
    public var cacheControl: String
    /// Answer for missing in-range tiles.
    public var missingTile: MissingTile
    /// Bytes of tiles kept in memory once read (0: read every request from the tileset).
    public var tileCacheBytes: Int

    /// The defaults of `tegula serve`.
    public init(cacheControl: String = "public, max-age=3600", missingTile: MissingTile = .notFound, tileCacheBytes: Int = 64 << 20) {
        self.cacheControl = cacheControl
        self.missingTile = missingTile
        self.tileCacheBytes = tileCacheBytes
    }
}
