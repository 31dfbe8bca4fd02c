import TegulaGeometry

/// Receives encoded tiles and commits them into a bundle (folder, MBTiles or PMTiles).
///
/// `write` is thread-safe: the pyramid calls it from several encoder threads at once.
public protocol TileWriter: AnyObject, Sendable {
    /// Stores one tile's encoded bytes (rewriting it if already present).
    func write(_ tile: Tile, data: [UInt8]) throws
    /// Commits everything written and stores the metadata and TileJSON; the writer is done after.
    func finish(metadata: TilesetMetadata) throws
}

/// Reads tiles and metadata from a finished bundle. Thread-safe.
public protocol TileReader: Sendable {
    /// The tileset's metadata.
    var metadata: TilesetMetadata { get }
    /// The encoded bytes of a tile, or nil when the tileset has no such tile.
    func tile(_ t: Tile) throws -> [UInt8]?
}

/// Checks a tile lies on the pyramid (z 0…30, x and y below 2^z) before it is stored; in `grid`
/// (a tile matrix set other than WebMercatorQuad), within its matrices.
func validate(_ tile: Tile, path: String, in grid: TileMatrixSet? = nil) throws {
    if let grid {
        guard grid.contains(tile) else {
            throw TilesetError.badTile(path: path, detail: "tile z=\(tile.z) x=\(tile.x) y=\(tile.y) is off the grid of \(grid.id)")
        }
        return
    }
    guard tile.isValid else {
        throw TilesetError.badTile(
            path: path,
            detail: "tile z=\(tile.z) x=\(tile.x) y=\(tile.y) is off the pyramid; "
                + "need 0 ≤ z ≤ 30 and 0 ≤ x, y < 2^z")
    }
}
