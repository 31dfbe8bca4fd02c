import Foundation
import TegulaCrypto
import TegulaTileset

/// One digest for all the tiles of a tileset (folder, MBTiles or PMTiles): SHA-256 over each
/// tile's `z x y` and the SHA-256 of its bytes, tiles in (z, x, y) order; and the tile count.
/// Two tilesets with the same digest hold the same tiles, byte for byte. It throws on a tileset
/// that lists no tile, or lists one it cannot return: a digest of nothing would make two empty or
/// broken tilesets equal.
public enum TilesetDigest {
    public static func of(_ path: String) throws -> (digest: String, tiles: Int) {
        let reader = try Tileset.openReader(at: path)
        var h = ContentHash()
        let tiles = Tileset.existingTiles(at: path).sorted()
        guard !tiles.isEmpty else { throw NoTiles(path: path) }
        for t in tiles {
            guard let data = try reader.tile(t) else { throw MissingTile(path: path, tile: "\(t.z)/\(t.x)/\(t.y)") }
            h.update(Array("\(t)\n".utf8))
            h.update(ContentHash.digest(data))
        }
        return (h.finalize(), tiles.count)
    }

    /// The SHA-256 (hex) of each tile's bytes, by `z/x/y`: what golden files record, so that a
    /// difference names its tiles.
    public static func perTile(_ path: String) throws -> [String: String] {
        let reader = try Tileset.openReader(at: path)
        var out: [String: String] = [:]
        for t in Tileset.existingTiles(at: path) {
            guard let data = try reader.tile(t) else { throw MissingTile(path: path, tile: "\(t.z)/\(t.x)/\(t.y)") }
            out["\(t.z)/\(t.x)/\(t.y)"] = ContentHash.hex(data)
        }
        return out
    }

    /// A tileset that lists no tile.
    public struct NoTiles: Error, CustomStringConvertible {
        public var path: String
        public var description: String { "\(path): no tile to digest" }
    }

    /// A tile the tileset lists but does not return.
    public struct MissingTile: Error, CustomStringConvertible {
        public var path: String, tile: String
        public var description: String { "\(path): tile \(tile) is listed but cannot be read" }
    }
}
