import Foundation
import TegulaGeometry
import TegulaRemote
import TegulaTileset

/// A PMTiles file on an HTTP server (TegulaRemote's reader), served through the server's
/// ``DynamicTileSource`` path: tiles are awaited off the event loop, ETags and TileJSON's `?v=`
/// carry the remote file's version, so when the file is replaced on the server neither the server
/// nor a browser mixes tiles of the two files (the bundle path's tile cache assumes files that
/// never change).
public struct RemoteTileSource: DynamicTileSource {
    /// The remote file's reader.
    public let reader: RemotePMTilesReader

    /// A source serving the tiles of `reader`.
    public init(reader: RemotePMTilesReader) { self.reader = reader }

    /// The tileset's metadata, of the file version read last.
    public var metadata: TilesetMetadata { reader.metadata }
    /// The file version the tiles come from.
    public var version: String { reader.version }

    /// Refused: a remote file's bytes are awaited (``tile(_:isCancelled:)``), never waited for on
    /// a parked thread.
    public func tile(_ t: Tile) throws -> [UInt8]? {
        throw RemoteError(
            .awaitedOnly, at: reader.source.location,
            "tile \(t) was asked for synchronously; a remote file's tiles are awaited (tile(_:isCancelled:))")
    }

    /// Nothing is kept in memory but directories: every tile is one range read.
    public func readyTile(_ tile: Tile) -> DynamicTile? { nil }

    /// The tile by range reads, with the version of the file it was read from.
    public func tile(_ tile: Tile, isCancelled: @escaping @Sendable () -> Bool) async -> DynamicTile {
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
