import TegulaGeometry
import TegulaTileset

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
