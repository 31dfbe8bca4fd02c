import TegulaBundle
import TegulaGeometry

/// A tileset whose tiles are made when asked for (rendered from a scan, say) rather than read
/// from a bundle. The server stays a request → response core: it checks the route against the
/// metadata, answers `If-None-Match` from the version, and awaits ``tile(_:isCancelled:)`` off the
/// event loop; how tiles are made, kept and refreshed is the source's business.
public protocol DynamicTileSource: TileReader {
    /// A version of everything the tiles depend on (files, fit, render options); it changes
    /// whenever a tile could. Strong ETags and the `?v=` of TileJSON tile URLs are made from it.
    var version: String { get }
    /// A tile ready in memory, without waiting; nil when it would have to be made.
    func readyTile(_ tile: Tile) -> DynamicTile?
    /// The tile, made now if needed. `isCancelled` says whether the client has gone away; a
    /// source may drop the work unstarted when it does.
    func tile(_ tile: Tile, isCancelled: @escaping @Sendable () -> Bool) async -> DynamicTile
}

/// What a dynamic source answers for one tile.
public enum DynamicTile: Sendable, Equatable {
    /// The encoded tile, of the version it was made for, and how long making it took (nil when
    /// it came from memory).
    case image([UInt8], version: String, seconds: Double?)
    /// Nothing to draw here (a fully transparent tile), as a bundle has no such tile.
    case empty(version: String)
    /// Outside the source's footprint: known without making anything.
    case outside
    /// The client went away before the work started; nothing was made.
    case cancelled
    /// Making the tile failed (one line, for the log and the 500 body).
    case failed(String)
    /// The server the pixels come from failed (one line); asking again after `retryAfter`
    /// seconds may succeed (503 with `Retry-After`).
    case unavailable(String, retryAfter: Int)
}
