import Foundation
import TegulaBundle
import TegulaGeometry
import TegulaServer

/// A PMTiles file on an HTTP server, served through the server's ``DynamicTileSource`` path:
/// tiles are awaited off the event loop, ETags and TileJSON's `?v=` carry the remote file's
/// version, so when the file is replaced on the server neither the server nor a browser mixes
/// tiles of the two files (the bundle path's tile cache assumes files that never change).
struct RemoteTileSource: DynamicTileSource {
    let reader: RemotePMTilesReader

    var metadata: TilesetMetadata { reader.metadata }
    var version: String { reader.version }

    func tile(_ t: Tile) throws -> [UInt8]? { try reader.tile(t) }

    /// Nothing is kept in memory but directories: every tile is one range read.
    func readyTile(_ tile: Tile) -> DynamicTile? { nil }

    func tile(_ tile: Tile, isCancelled: @escaping @Sendable () -> Bool) async -> DynamicTile {
        if isCancelled() { return .cancelled }
        let start = ContinuousClock.now
        do {
            let (bytes, version) = try await reader.versionedTile(tile)
            guard let bytes else { return .empty(version: version) }
            let d = (ContinuousClock.now - start).components
            return .image(bytes, version: version, seconds: Double(d.seconds) + Double(d.attoseconds) / 1e18)
        } catch {
            return .failed("\(error)")
        }
    }
}
