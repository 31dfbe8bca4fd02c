import Foundation
import TegulaCodec
import TegulaGeometry
import TegulaSupport
import TegulaTileset
import TegulaWarp

/// Builds a tile pyramid from a scan: max-zoom tiles warped straight from the source in blocks,
/// every lower zoom made in memory from its four children (never by re-reading written tiles).
///
/// Work is split across `jobs` threads by block; whichever thread delivers the last child of a
/// parent builds that parent, so memory holds only the parents still waiting for children.
public final class PyramidBuilder: @unchecked Sendable {
    public let source: WarpSource
    public let plan: PyramidPlan
    public let resampling: Resampling
    /// The tiles' format, quality, auto-lossy format and WebP effort.
    public let encoding: TileEncoding
    public let jobs: Int
    /// Tiles already in the output (``--resume``): computed as usual but not encoded or written.
    public let existing: Set<Tile>

    /// Counters for the report and the progress line.
    public struct Stats: Sendable {
        public var tilesWritten = 0
        public var bytesWritten = 0
        public var tilesEmpty = 0
        public var tilesSkipped = 0
        public var positionsDone = 0
        public var warpSeconds = 0.0
        public var downsampleSeconds = 0.0
        public var encodeSeconds = 0.0
        public var writeSeconds = 0.0
        /// The largest grid error of the blocks warped (NaN if any was), in source pixels.
        public var worstGridError: Double { gridErrors.value }
        var gridErrors = WorstError()
    }

    private let stats = Locked(Stats())
    private let pending = Locked([Tile: Pending]())
    /// Set by ``runLowerZoomPixels(_:grids:)``: where the pixels of the tiles below the max zoom
    /// go instead of being encoded (the max zoom's are dropped), and each block's transform grid.
    private var lowerPixels: (@Sendable (Tile, [UInt8]) -> Void)?
    private var blockGrids: (@Sendable (Tile, BlockGrid) -> Void)?

    struct Pending {
        var children: [[UInt8]?] = [nil, nil, nil, nil]
        var received = 0
    }

    /// A builder of `plan`'s tiles warped from `source` with `resampling` and encoded in
    /// `encoding`, on `jobs` threads, skipping the encoding of `existing` tiles.
    public init(
        source: WarpSource, plan: PyramidPlan, resampling: Resampling, encoding: TileEncoding = .png,
        jobs: Int, existing: Set<Tile> = []
    ) {
        self.source = source
        self.plan = plan
        self.resampling = resampling
        self.encoding = encoding
        self.jobs = max(1, jobs)
        self.existing = existing
    }

    /// Build every tile and hand each non-empty one to `emit` (called from worker threads).
    public func run(
        emit: @escaping @Sendable (Tile, [UInt8]) throws -> Void,
        progress: (@Sendable (Stats) -> Void)? = nil
    ) throws -> Stats {
        let plan = self.plan, src = source, resampling = self.resampling, encoding = self.encoding
        // A scan decoded in whole rows is warped a row of blocks at a time, top to bottom: the
        // units a row of blocks reads are then read again only by the next row, while still
        // cached. In Morton order the plain-JPEG benchmark scan decoded its 85 units 170 times
        // over at a 96 MB budget. The tiles are the same either way.
        let inRows = src.decoded?.decodesWholeRows == true
        let blocks = inRows ? plan.blocks.sorted { ($0.y, $0.x) < ($1.y, $1.x) } : plan.blocks
        if inRows { src.decoded?.readingInRows = true }
        defer { if inRows { src.decoded?.readingInRows = false } }
        try ParallelWork.run(
            jobs: jobs, count: blocks.count,
            makeState: { _ in
                Worker(
                    warper: try BlockWarper(
                        scan: src.scan, mapping: src.mapping, resampling: resampling,
                        maskFootprint: src.maskFootprint, shared: src.shared, mapped: src.mapped,
                        decoded: src.decoded, removal: src.removal),
                    encoder: encoding.encoder())
            },
            process: { [self] worker, index in
                try buildBlock(blocks[index], worker: worker, emit: emit)
                progress?(stats.withLock { $0 })
            })
        return stats.withLock { $0 }
    }

    /// Build every tile but encode none: hand the RGBA pixels of each non-empty tile below the
    /// max zoom to `keep` and each block's transform grid to `grids` (from worker threads), and
    /// drop the max zoom's pixels (``HeldLevels``).
    func runLowerZoomPixels(
        _ keep: @escaping @Sendable (Tile, [UInt8]) -> Void,
        grids: @escaping @Sendable (Tile, BlockGrid) -> Void
    ) throws -> Stats {
        lowerPixels = keep
        blockGrids = grids
        defer { lowerPixels = nil; blockGrids = nil }
        return try run(emit: { _, _ in })
    }

    final class Worker {
        let warper: BlockWarper
        let encoder: TileEncoder
        init(warper: BlockWarper, encoder: TileEncoder) {
            self.warper = warper
            self.encoder = encoder
        }
    }

    /// Warp one block at the max zoom, cut and encode its tiles, then halve it down to the block
    /// zoom, and deliver the block's own tile to its parent.
    func buildBlock(_ block: Tile, worker: Worker, emit: (Tile, [UInt8]) throws -> Void) throws {
        let p = plan.tilePixels
        let geometry = plan.blockGeometry(block)
        let side = geometry.side
        let t0 = Date()
        let image = try BlockTiles.uninitialized(side * side * 4) {
            if let blockGrids {
                // The same warp, its grid kept (the tiles served on demand reuse it).
                let g = worker.warper.grid(
                    left: geometry.left, top: geometry.top, resolution: geometry.resolution,
                    width: side, height: side)
                try worker.warper.warp(g, columns: 0..<side, rows: 0..<side, into: $0)
                blockGrids(block, g)
            } else {
                try worker.warper.warp(
                    left: geometry.left, top: geometry.top, resolution: geometry.resolution,
                    width: side, height: side, into: $0)
            }
        }
        let grid = worker.warper.worstGridError
        stats.withLock {
            $0.warpSeconds += Date().timeIntervalSince(t0); $0.gridErrors.add(grid)
        }
        let lowest = plan.zooms.min
        let top = try BlockTiles.walk(
            image: image, block: block, maxZoom: plan.zooms.max, tilePixels: p,
            halved: { seconds in
                stats.withLock { $0.downsampleSeconds += seconds }
            }
        ) { t, pixels in
            guard t.z >= lowest else { return }
            try output(t, pixels: pixels, worker: worker, emit: emit)
        }
        try deliver(
            block, pixels: AlphaCoverage(rgba: top, pixelCount: p * p) == .empty ? nil : top,
            worker: worker, emit: emit)
    }

    /// Encode and emit one tile (unless empty or already present). Blocks reach past the
    /// planned range at their edges; tiles there are empty and do not count as positions.
    func output(_ t: Tile, pixels: [UInt8], worker: Worker, emit: (Tile, [UInt8]) throws -> Void) throws {
        let position = plan.contains(t) ? 1 : 0
        if let lowerPixels {
            if t.z < plan.zooms.max, AlphaCoverage(rgba: pixels, pixelCount: plan.tilePixels * plan.tilePixels) != .empty {
                lowerPixels(t, pixels)
            }
            stats.withLock { $0.positionsDone += position }
            return
        }
        if existing.contains(t) {
            stats.withLock {
                $0.tilesSkipped += 1; $0.positionsDone += position
            }
            return
        }
        let t0 = Date()
        let data = try pixels.withUnsafeBufferPointer { try worker.encoder.encode($0.baseAddress!, size: plan.tilePixels) }
        let t1 = Date()
        if let data { try emit(t, data) }
        let t2 = Date()
        stats.withLock {
            $0.encodeSeconds += t1.timeIntervalSince(t0)
            $0.writeSeconds += t2.timeIntervalSince(t1)
            $0.positionsDone += position
            if let data { $0.tilesWritten += 1; $0.bytesWritten += data.count } else if position == 1 { $0.tilesEmpty += 1 }
        }
    }

    /// Hand a finished tile's pixels (nil = empty) to its parent; the thread that completes a
    /// parent builds it, and so on up to the min zoom.
    func deliver(_ t: Tile, pixels: [UInt8]?, worker: Worker, emit: (Tile, [UInt8]) throws -> Void) throws {
        guard t.z > plan.zooms.min, let parent = t.parent else { return }
        let slot = (t.y & 1) * 2 + (t.x & 1)
        let expected = parent.children.filter { plan.contains($0) }.count
        let complete: Pending? = pending.withLock { table in
            var entry = table[parent] ?? Pending()
            entry.children[slot] = pixels
            entry.received += 1
            if entry.received == expected {
                table[parent] = nil
                return entry
            }
            table[parent] = entry
            return nil
        }
        guard let complete else { return }
        let p = plan.tilePixels
        var merged: [UInt8]? = nil
        if complete.children.contains(where: { $0 != nil }) {
            let t0 = Date()
            let out = Downsampler.parent(of: complete.children, tilePixels: p)
            stats.withLock { $0.downsampleSeconds += Date().timeIntervalSince(t0) }
            try output(parent, pixels: out, worker: worker, emit: emit)
            merged = AlphaCoverage(rgba: out, pixelCount: p * p) == .empty ? nil : out
        } else {
            stats.withLock {
                $0.positionsDone += 1; $0.tilesEmpty += 1
            }
        }
        try deliver(parent, pixels: merged, worker: worker, emit: emit)
    }
}
