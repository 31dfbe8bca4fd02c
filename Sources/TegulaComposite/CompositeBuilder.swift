import Foundation
import TegulaGeometry
import TegulaPyramid
import TegulaSupport
import TegulaTileset
import TegulaWarp

/// The blended pyramid of several scans, block by block. A block is one tile at the block zoom
/// (max − 2, as in ``PyramidPlan``): every layer that reaches it is warped at the max zoom,
/// later layers drawn over earlier ones (``Compositor``, straight alpha) or joined at their
/// seams by ``SeamBlender`` (``seam``), in the ``stacking`` order, and the blend is cut
/// into tiles from the max zoom down to the block zoom (``BlockTiles``), each layer corrected by
/// its ``tones`` first when tone matching is on. Zooms below the block zoom are made from those
/// tiles by ``ParentBuilder``. A tile depends only on its block and the layers, never on which
/// blocks are built together, so any split of the blocks over threads,
/// processes or machines gives the same tiles. In a tile matrix set other than WebMercatorQuad
/// (``grid``) the blocks are that set's tiles, warped in its CRS from sources reprojected there
/// (``WarpSource/reprojected(to:)``), its zooms one quadtree named by ``QuadtreeIDs``
/// (``gridRefusal(_:zooms:settings:output:)``).
public final class CompositeBuilder: @unchecked Sendable {
    /// One block to build: a tile at the block zoom, the layers that reach it (bottom first) and
    /// how many max-zoom tiles of it each covers (its cost).
    public struct Block: Sendable, Hashable {
        /// The block's tile at the block zoom.
        public var tile: Tile
        /// The layers (maps) that reach it, bottom first.
        public var layers: [Int]
        /// Max-zoom tiles covered, summed over its layers.
        public var cost: Int
    }

    /// What a build wrote.
    public struct Stats: Sendable {
        /// Tiles written and their bytes.
        public var tiles = 0
        public var bytes = 0
        /// Blocks built, and of those the ones where more than one layer was blended.
        public var blended = 0
        public var blocks = 0
    }

    /// The max zoom (warped at) and the block zoom (cut down to).
    public let maxZoom: Int
    public let blockZoom: Int
    /// Pixels per tile side (tile size × scale).
    public let tilePixels: Int
    /// The kernel the layers are warped with.
    public let resampling: Resampling
    /// Worker threads.
    public let jobs: Int
    /// The tiles' format, quality, auto-lossy format and WebP effort (``TileSettings/encoding``).
    public let encoding: TileEncoding
    /// How overlapping layers are joined (``SeamMode``; `over` by default).
    public let seam: SeamMode
    /// Each layer's place in the stacking order (bottom 0), nil for the layers' own order.
    public let stacking: [Int]?
    /// Each layer's tone correction (``ToneMatch``), applied to its warped pixels before any
    /// blend; nil leaves every layer's pixels as warped.
    public let tones: [ToneCorrection]?
    /// The tile matrix set the blocks are tiles of when it is not WebMercatorQuad (the layers'
    /// sources then map into its CRS); nil for EPSG:3857's grid.
    public let grid: TileMatrixSet?
    let sources: LayerSources

    /// - Parameter sources: the layers' scans, resolved on first use and shared by the threads.
    public init(
        maxZoom: Int, blockZoom: Int, tilePixels: Int, resampling: Resampling, jobs: Int,
        encoding: TileEncoding = .png, seam: SeamMode = .over, stacking: [Int]? = nil, tones: [ToneCorrection]? = nil,
        grid: TileMatrixSet? = nil, sources: LayerSources
    ) {
        self.grid = grid
        self.seam = seam
        self.tones = tones
        self.stacking = stacking
        self.maxZoom = maxZoom
        self.blockZoom = blockZoom
        self.tilePixels = tilePixels
        self.resampling = resampling
        self.jobs = max(1, jobs)
        self.encoding = encoding
        self.sources = sources
    }

    /// The block zoom for a max zoom and lowest zoom: 2 levels of 4 × 4 tiles per block, as the
    /// pyramid stage warps.
    public static func blockZoom(maxZoom: Int, minZoom: Int) -> Int { max(minZoom, maxZoom - 2) }

    /// Every block some layer reaches, in id (Hilbert) order of `ids` (``QuadtreeIDs``, the
    /// numbering of `grid`'s tiles), with its layers in order. A layer reaches the max-zoom tiles
    /// its bounds touch (``TileGrid/tileRange(covering:zoom:)``, as ``PyramidPlan``; in `grid`,
    /// its boxes in the set's CRS, the set's ``TileMatrixSet/tileRange(covering:zoom:)``); nil
    /// bounds reach nothing.
    public static func blocks(
        layerBounds: [ProjectedBounds?], maxZoom: Int, blockZoom: Int, grid: TileMatrixSet? = nil, ids: QuadtreeIDs
    ) -> [Block] {
        var index: [Tile: Int] = [:]
        var blocks: [Block] = []
        let d = maxZoom - blockZoom
        func range(_ b: ProjectedBounds) -> (x: ClosedRange<Int>, y: ClosedRange<Int>)? {
            guard let grid else { return TileGrid.tileRange(covering: b, zoom: maxZoom) }
            return grid.tileRange(covering: b, zoom: maxZoom)
        }
        for (layer, bounds) in layerBounds.enumerated() {
            guard let b = bounds, let r = range(b) else { continue }
            for by in (r.y.lowerBound >> d)...(r.y.upperBound >> d) {
                let ys = max(r.y.lowerBound, by << d)...min(r.y.upperBound, ((by + 1) << d) - 1)
                for bx in (r.x.lowerBound >> d)...(r.x.upperBound >> d) {
                    let xs = max(r.x.lowerBound, bx << d)...min(r.x.upperBound, ((bx + 1) << d) - 1)
                    let t = Tile(x: bx, y: by, z: blockZoom)
                    if let i = index[t] {
                        blocks[i].layers.append(layer)
                        blocks[i].cost += xs.count * ys.count
                    } else {
                        index[t] = blocks.count
                        blocks.append(Block(tile: t, layers: [layer], cost: xs.count * ys.count))
                    }
                }
            }
        }
        return blocks.sorted { ids.id(of: $0.tile) < ids.id(of: $1.tile) }
    }

    /// Build `blocks` on `jobs` threads and hand every non-empty tile (max zoom down to the
    /// block zoom) to `emit`, from worker threads.
    public func build(_ blocks: [Block], emit: @escaping @Sendable (Tile, [UInt8]) throws -> Void) throws -> Stats {
        let stats = Locked(Stats())
        let p = tilePixels, side = p << (maxZoom - blockZoom), maxZoom = self.maxZoom
        let sources = self.sources, resampling = self.resampling, encoding = self.encoding, seam = self.seam, stacking = self.stacking,
            tones = self.tones, grid = self.grid
        try ParallelWork.run(
            jobs: jobs, count: blocks.count,
            makeState: { _ in
                Worker(encoder: encoding.encoder(), side: side)
            },
            process: { worker, i in
                let block = blocks[i]
                let g =
                    grid.map { PyramidPlan.blockGeometry(block.tile, side: side, in: $0) } ?? PyramidPlan.blockGeometry(block.tile, side: side)
                let layers = stacking.map { rank in block.layers.sorted { rank[$0] < rank[$1] } } ?? block.layers
                if seam != .over, layers.count > 1 {
                    // Every layer apart, then joined pixel by pixel with its distance to its mask edge.
                    let buffers = worker.buffers(layers.count, side: side)
                    var distances: [EdgeDistance] = []
                    for (k, layer) in layers.enumerated() {
                        let warper = try worker.warper(layer, sources: sources, resampling: resampling)
                        try warper.warp(left: g.left, top: g.top, resolution: g.resolution, width: side, height: side, into: buffers[k])
                        tones?[layer].apply(to: buffers[k], count: side * side)
                        let cap: Double
                        if case .feather(let px) = seam { cap = px } else { cap = .infinity }
                        distances.append(
                            EdgeDistance(
                                ring: try sources.source(layer).footprint, left: g.left, top: g.top,
                                resolution: g.resolution, side: side, cap: cap))
                    }
                    worker.image.withUnsafeMutableBufferPointer {
                        SeamBlender.blend(buffers.map { UnsafePointer($0) }, distances: distances, mode: seam, side: side, into: $0.baseAddress!)
                    }
                }
                for (k, layer) in layers.enumerated() where seam == .over || layers.count == 1 {
                    let warper = try worker.warper(layer, sources: sources, resampling: resampling)
                    if k == 0 {
                        try worker.image.withUnsafeMutableBufferPointer {
                            try warper.warp(left: g.left, top: g.top, resolution: g.resolution, width: side, height: side, into: $0.baseAddress!)
                            tones?[layer].apply(to: $0.baseAddress!, count: side * side)
                        }
                    } else {
                        try worker.layer.withUnsafeMutableBufferPointer { l in
                            try warper.warp(left: g.left, top: g.top, resolution: g.resolution, width: side, height: side, into: l.baseAddress!)
                            tones?[layer].apply(to: l.baseAddress!, count: side * side)
                            worker.image.withUnsafeMutableBufferPointer {
                                Compositor.over(l.baseAddress!, onto: $0.baseAddress!, pixels: side * side)
                            }
                        }
                    }
                }
                var written = 0, bytes = 0
                _ = try BlockTiles.walk(image: worker.image, block: block.tile, maxZoom: maxZoom, tilePixels: p) { t, pixels in
                    guard let data = try pixels.withUnsafeBufferPointer({ try worker.encoder.encode($0.baseAddress!, size: p) }) else { return }
                    try emit(t, data)
                    written += 1
                    bytes += data.count
                }
                stats.withLock {
                    $0.tiles += written; $0.bytes += bytes; $0.blocks += 1
                    if block.layers.count > 1 { $0.blended += 1 }
                }
            })
        return stats.withLock { $0 }
    }

    /// One thread's encoder, block buffers and warpers (a warper owns a GDAL dataset, which is
    /// never shared between threads).
    final class Worker {
        let encoder: TileEncoder
        var image: [UInt8]
        var layer: [UInt8]
        /// One RGBA buffer per layer of a block whose seams are blended, made on first need.
        private var stack: [UnsafeMutablePointer<UInt8>] = []
        private var warpers: [Int: BlockWarper] = [:]

        init(encoder: TileEncoder, side: Int) {
            self.encoder = encoder
            image = [UInt8](repeating: 0, count: side * side * 4)
            layer = image
        }

        deinit { for b in stack { b.deallocate() } }

        /// `count` buffers of `side` × `side` RGBA pixels.
        func buffers(_ count: Int, side: Int) -> [UnsafeMutablePointer<UInt8>] {
            while stack.count < count { stack.append(.allocate(capacity: side * side * 4)) }
            return Array(stack.prefix(count))
        }

        func warper(_ layer: Int, sources: LayerSources, resampling: Resampling) throws -> BlockWarper {
            if let w = warpers[layer] { return w }
            if warpers.count >= 32 { warpers.removeAll() }  // bound the open datasets per thread
            let s = try sources.source(layer)
            let w = try BlockWarper(
                scan: s.scan, mapping: s.mapping, resampling: resampling,
                maskFootprint: s.maskFootprint, shared: s.shared, mapped: s.mapped, removal: s.removal)
            warpers[layer] = w
            return w
        }
    }
}

/// The scans of a composite by layer index, resolved once on first use (a thread asking for a
/// layer another thread is resolving waits for it) and kept while their in-memory pixels fit a
/// byte budget, least recently used dropped first.
public final class LayerSources: @unchecked Sendable {
    private let resolve: @Sendable (Int) throws -> WarpSource
    private let budget: Int
    private let lock = NSCondition()
    private var entries: [Int: (source: WarpSource, bytes: Int, used: Int)] = [:]
    private var loading: Set<Int> = []
    private var clock = 0
    private var bytes = 0

    /// - Parameters: budgetBytes: in-memory scan pixels kept between uses.
    public init(budgetBytes: Int = 1 << 30, resolve: @escaping @Sendable (Int) throws -> WarpSource) {
        self.resolve = resolve
        budget = budgetBytes
    }

    /// The layer's scan, with its pixels in memory when small (``WarpSource/withSharedPixels()``).
    public func source(_ layer: Int) throws -> WarpSource {
        lock.lock()
        while loading.contains(layer) { lock.wait() }
        clock += 1
        if let e = entries[layer] {
            entries[layer]!.used = clock
            lock.unlock()
            return e.source
        }
        loading.insert(layer)
        lock.unlock()
        let result = Result { try resolve(layer) }
        lock.lock()
        defer { lock.broadcast(); lock.unlock() }
        loading.remove(layer)
        let source = try result.get()
        let size = source.shared.map { $0.width * $0.height * 4 } ?? 0
        entries[layer] = (source, size, clock)
        bytes += size
        while bytes > budget, entries.count > 1,
            let oldest = entries.filter({ $0.key != layer }).min(by: { $0.value.used < $1.value.used })
        {
            bytes -= oldest.value.bytes
            entries[oldest.key] = nil
        }
        return source
    }
}
