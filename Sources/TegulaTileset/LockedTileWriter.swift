import TegulaGeometry

/// A writer holding its output's lock: the lock is released once the writer has finished, or
/// after it is dropped unfinished (an interrupted tileset that `--resume` continues).
final class LockedTileWriter: TileWriter, @unchecked Sendable {
    private var inner: TileWriter?
    private let lock: OutputLock

    init(_ inner: TileWriter, lock: OutputLock) {
        self.inner = inner
        self.lock = lock
    }

    func write(_ tile: Tile, data: [UInt8]) throws { try inner!.write(tile, data: data) }

    func finish(metadata: TilesetMetadata) throws {
        try inner!.finish(metadata: metadata)
        lock.release()
    }

    deinit {
        inner = nil  // the writer's own deinit (MBTiles commits its queue) runs while the lock is held
        lock.release()
    }
}
