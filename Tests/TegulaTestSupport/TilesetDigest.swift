import Crypto
import Foundation
import TegulaBundle

/// One digest for all the tiles of a tileset (folder, MBTiles or PMTiles): SHA-256 over each
/// tile's `z x y` and the SHA-256 of its bytes, tiles in (z, x, y) order; and the tile count.
/// Two tilesets with the same digest hold the same tiles, byte for byte.
public enum TilesetDigest {
    public static func of(_ path: String) throws -> (digest: String, tiles: Int) {
        let reader = try Tileset.openReader(at: path)
        var h = SHA256()
        let tiles = Tileset.existingTiles(at: path).sorted()
        for t in tiles {
            guard let data = try reader.tile(t) else { continue }
            h.update(data: Array("\(t)\n".utf8))
            h.update(data: Array(SHA256.hash(data: data)))
        }
        return (h.finalize().map { String(format: "%02x", $0) }.joined(), tiles.count)
    }
}
