import Foundation
import NIOCore
import TegulaGeometry

/// The server's one tile cache: tiles already read and tagged, kept in memory up to a byte budget
/// so a hot tile costs neither a file read nor an ETag hash again (the two largest costs per
/// request in the serving profile, BENCHMARKS.md). Each tile is held once, as the NIO buffer both
/// HTTP paths write to the socket without a copy, so the budget is the memory the tiles take.
///
/// Tilesets are fixed at start-up, so a cached tile never goes stale while the files are left
/// alone; restart the server after rewriting a tileset in place. Eviction is first in, first out:
/// cheap under a lock, and a tile server's working set is a map view's tiles, which arrive
/// together and age together.
final class TileResponseCache: @unchecked Sendable {
    struct Key: Hashable {
        var id: String
        var tile: Tile
    }

    /// A tile's bytes and strong ETag.
    struct Entry {
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

    let byteBudget: Int
    private let lock = NSLock()
    private var entries: [Key: Entry] = [:]
    private var order: [Key] = []
    private var head = 0
    private var bytes = 0

    /// A cache holding at most `byteBudget` bytes of tile bodies (0 turns it off).
    init(byteBudget: Int) {
        self.byteBudget = max(0, byteBudget)
    }

    /// The cached tile, if any.
    func entry(_ key: Key) -> Entry? {
        guard byteBudget > 0 else { return nil }
        lock.lock(); defer { lock.unlock() }
        return entries[key]
    }

    /// Remember a tile; tiles larger than the budget are not kept.
    func insert(_ entry: Entry, for key: Key) {
        let size = entry.buffer.readableBytes
        guard size <= byteBudget else { return }
        lock.lock(); defer { lock.unlock() }
        guard entries[key] == nil else { return }
        entries[key] = entry
        order.append(key)
        bytes += size
        while bytes > byteBudget, head < order.count {
            if let old = entries.removeValue(forKey: order[head]) { bytes -= old.buffer.readableBytes }
            head += 1
        }
        if head > 4096 && head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
    }

    /// Bytes held.
    var byteCount: Int { lock.lock(); defer { lock.unlock() }; return bytes }
    /// Tiles held.
    var count: Int { lock.lock(); defer { lock.unlock() }; return entries.count }
}
