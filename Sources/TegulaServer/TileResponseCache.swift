import NIOCore
import TegulaGeometry
import TegulaSupport

/// The server's one tile cache: tiles already read and tagged, kept in memory up to a byte budget
/// so a hot tile costs neither a file read nor an ETag hash again (the two largest costs per
/// request in the serving profile, BENCHMARKS.md). Each tile is held once, as the NIO buffer both
/// HTTP paths write to the socket without a copy, so the budget is the memory the tiles take.
///
/// Tilesets are fixed at start-up, so a cached tile never goes stale while the files are left
/// alone; restart the server after rewriting a tileset in place. The least recently used tiles
/// go first (``LRUCache``).
final class TileResponseCache: Sendable {
    struct Key: Hashable, Sendable {
        var id: String
        var tile: Tile
    }

    /// A tile's bytes and strong ETag.
    struct Entry: Sendable {
        /// The tile's bytes, as written to sockets.
        let buffer: ByteBuffer
        /// Its strong ETag (`EntityTag.of` the bytes).
        let etag: String

        /// An entry holding `body` (copied once into a NIO buffer).
        init(body: [UInt8], etag: String) {
            buffer = ByteBuffer(bytes: body)
            self.etag = etag
        }

        /// The tile's bytes (a copy).
        var body: [UInt8] { Array(buffer.readableBytesView) }
    }

    private let cache: LRUCache<Key, Entry>

    /// Bytes the tile bodies may hold together (0 turns the cache off).
    var byteBudget: Int { cache.byteBudget }

    /// A cache holding at most `byteBudget` bytes of tile bodies (0 turns it off).
    init(byteBudget: Int) {
        cache = LRUCache(byteBudget: byteBudget)
    }

    /// The cached tile, if any, now the most recently used.
    func entry(_ key: Key) -> Entry? { cache.value(for: key) }

    /// Remember a tile; tiles larger than the budget are not kept.
    func insert(_ entry: Entry, for key: Key) {
        cache.insert(entry, cost: entry.buffer.readableBytes, for: key)
    }

    /// Bytes held.
    var byteCount: Int { cache.byteCount }
    /// Tiles held.
    var count: Int { cache.count }
}
