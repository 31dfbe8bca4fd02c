import Foundation
import TegulaGeometry
import TegulaScan
import TegulaSupport
import TegulaTileset
import TegulaWarp

/// Renders single tiles of the pyramid a ``TileJob`` would cut, on demand, with the pyramid's own
/// code: thread-safe, each call on the caller's thread.
///
/// - A tile at the max zoom is warped with the transform grid of the pyramid block it belongs to
///   (the same `BlockGrid`, kept for the block's other tiles), the same kernel and window rules,
///   and encoded by the same ``TileEncoder``: its bytes are exactly those `tegula tile` writes.
/// - A tile below the max zoom, once ``holdLowerZooms()`` has built the pyramid's lower zooms
///   (``HeldLevels``: when the renderer was made with `holdingLowerZooms` and they fit the
///   process's budget), is encoded from them: its bytes too are exactly those `tegula tile`
///   writes. Tiles asked for while they are built wait for them.
/// - Otherwise a tile `k` zooms lower is warped straight from the scan at its own size, each pixel the
///   mean of the 2^k × 2^k max-zoom pixels under it as the pyramid's halving makes it, by the
///   ``ReductionKernel`` reading box-reduced copies of the scan (``SourceOverviews``): 42.9–63.1 dB
///   against the pyramid on the test scans, at the cost of one 256² tile whatever the zoom. Alpha
///   is the pyramid's own (TegulaWarp's `PyramidCoverage`, the rule its halving follows): equal
///   to `tegula tile`'s at every pixel of the test scans, edges included.
/// - A tile outside the plan, or whose box misses the scan's footprint, is not rendered at all.
/// - A job cut in another tile matrix set (``TileJob/cutsInGrid``) is rendered from the scan
///   warped into the set's CRS (``TileJob/gridSource()``), with one plan per run of zooms that
///   nest (``gridPlans``, as `tegula tile --tms` cuts them): a tile at a run's max zoom has the
///   bytes `tegula tile --tms` writes; below it, the reduced warp above; no held levels.
public final class TileRenderer: @unchecked Sendable {
    /// The pyramid described: source, zooms, tile size, scale, format, kernel.
    public let job: TileJob
    /// The pyramid's plan (zooms, tile ranges, blocks).
    public let plan: PyramidPlan
    /// What `tegula tile` would store as the tileset's metadata.
    public let metadata: TilesetMetadata
    /// Reduced copies of the scan for the lower zooms.
    public let overviews: SourceOverviews
    /// The kernel below the max zoom: the job's.
    public let lowerZoomKernel: Resampling
    /// The zooms below the max, made by the pyramid and held (reserved at init, built by
    /// ``holdLowerZooms()``); nil when not asked for or over the budget.
    public let levels: HeldLevels?
    /// The tone correction applied to every tile's pixels after its warp (a pipeline map's
    /// `composite.tone`, as the composite applies it to the map's layer); nil for none.
    public let tone: ToneCorrection?
    /// For a job cut in another tile matrix set, a plan per run of zooms that nest, highest first
    /// (``plan`` is the first); empty for Web Mercator.
    public let gridPlans: [PyramidPlan]
    /// What is warped: the job's source, or for another set, the source in the set's CRS.
    let warpSource: WarpSource
    /// Block grids kept for the other tiles of a block (each costs 1 of the cache's budget).
    static let gridCacheEntries = 64
    /// The revision of what ``render(_:)`` makes, raised with every change that gives other bytes
    /// for the same job, so that a source's version (ETags, TileJSON's `?v=`) changes with it and
    /// no cache keeps the old tiles. 2: below the max zoom, alpha follows the pyramid's coverage
    /// rule along the footprint's edge (issue 28 item 10).
    public static let revision = 2

    private let idle = Locked<[Worker]>([])
    private let grids = LRUCache<Tile, BlockGrid>(byteBudget: gridCacheEntries)

    /// A renderer for `job`'s pyramid; `overviewBudget` bounds the reduced copies' memory;
    /// `lowerZoomKernel` overrides the kernel below the max zoom; `holdingLowerZooms` reserves
    /// room for ``levels`` (a local scan only: a remote one would be fetched whole at start-up)
    /// out of `levelBudget`, shared by every renderer of the process.
    public init(
        job: TileJob, overviewBudget: Int = SourceOverviews.defaultBudgetBytes,
        lowerZoomKernel: Resampling? = nil, tone: ToneCorrection? = nil,
        holdingLowerZooms: Bool = false, levelBudget: Int = HeldLevels.budgetBytes
    ) throws {
        self.job = job
        self.tone = tone
        let zooms = try job.zoomRange()
        if job.cutsInGrid {
            (warpSource, gridPlans) = try Self.gridPlans(job, zooms: zooms)
            plan = gridPlans[0]
            metadata = job.metadata(zooms: zooms)
        } else {
            guard let bounds = job.source.bounds else { throw PyramidError(.emptyFootprint, at: job.source.path, "empty footprint") }
            plan = try PyramidPlan(bounds: bounds, zooms: zooms, tilePixels: job.settings.tilePixels)
            metadata = job.metadata(plan: plan)
            warpSource = job.source
            gridPlans = []
        }
        overviews = try SourceOverviews(
            scan: job.source.scan, shared: job.source.shared, budgetBytes: overviewBudget,
            removal: job.source.removal)
        self.lowerZoomKernel = lowerZoomKernel ?? job.settings.resampling
        levels =
            holdingLowerZooms && lowerZoomKernel == nil && !job.source.scan.isRemote && !job.cutsInGrid
            ? HeldLevels(plan: plan, budget: levelBudget) : nil
    }

    /// The source in the set's CRS and the plans `tegula tile --tms` cuts (``TileJob/runInGrid(progress:)``),
    /// after the same refusals.
    static func gridPlans(_ job: TileJob, zooms: ZoomRange) throws -> (WarpSource, [PyramidPlan]) {
        let grid = try job.gridSource()
        if let refusal = job.gridRefusal(zooms: zooms) { throw PyramidError(.gridNotHeld, at: job.source.path, refusal) }
        guard let bounds = job.gridBounds(of: grid) else {
            throw PyramidError(.emptyFootprint, at: job.source.path, "the scan lies outside \(job.tms.id)'s extent")
        }
        let plans = try PyramidPlan.quadtreeRuns(of: job.tms, zooms: zooms).map {
            try PyramidPlan(grid: job.tms, bounds: bounds, zooms: $0, tilePixels: job.settings.tilePixels)
        }
        return (grid, plans)
    }

    /// The plan a tile's zoom belongs to: ``plan``, or for another set the run's.
    func plan(of t: Tile) -> PyramidPlan? {
        gridPlans.isEmpty ? plan : gridPlans.first { $0.zooms.levels.contains(t.z) }
    }

    /// A tile's box in the CRS it is warped in (EPSG:3857, or the set's).
    func box(of t: Tile) -> ProjectedBounds {
        guard job.cutsInGrid else { return t.projectedBounds }
        let b = job.tms.bounds(of: t)
        return ProjectedBounds(left: b.left, bottom: b.bottom, right: b.right, top: b.top)
    }

    /// Make what the zooms below the max are rendered from, off the request path: the held
    /// levels when reserved (the pyramid's own lower zooms), else the reduced copies of the scan.
    /// Returns a line for the log: what was made, its size and time.
    public func holdLowerZooms() throws -> String {
        let start = Date()
        if let levels {
            try levels.build(job: job, plan: plan, jobs: job.jobs)
            return String(
                format: "lower zooms warped by the pyramid and held (%.1f MiB in %.2f s)",
                Double(levels.byteCount) / 1_048_576, Date().timeIntervalSince(start))
        }
        try overviews.prepare()
        guard overviews.byteCount > 0 else { return "" }
        return String(
            format: "reduced copies for the lower zooms ready (%.1f MiB in %.2f s)",
            Double(overviews.byteCount) / 1_048_576, Date().timeIntervalSince(start))
    }

    /// Pixels per tile side.
    public var tilePixels: Int { plan.tilePixels }

    /// True when the tile may hold pixels: inside the pyramid's plan (for the max zoom, inside a
    /// planned block) and touching the footprint. Tiles for which this is false are empty and
    /// cost no render.
    public func covers(_ t: Tile) -> Bool {
        guard job.cutsInGrid ? job.tms.contains(t) : t.isValid, let plan = plan(of: t) else { return false }
        guard t.z >= plan.zooms.min, t.z <= plan.zooms.max else { return false }
        if t.z >= plan.blockZoom { guard plan.block(of: t) != nil else { return false } } else { guard plan.contains(t) else { return false } }
        let b = box(of: t)
        // A scan border mapped through the fit bends between the footprint's vertices: test a box
        // grown by a quarter tile unless the mask (exactly that polygon) clips the pixels.
        let pad = warpSource.maskFootprint == nil ? b.width / 4 : 0
        return FootprintTest.touches(
            warpSource.footprint,
            ProjectedBounds(left: b.left - pad, bottom: b.bottom - pad, right: b.right + pad, top: b.top + pad))
    }

    /// The encoded tile, or nil when it is empty (fully transparent: `tegula tile` writes no file).
    public func render(_ t: Tile) throws -> [UInt8]? {
        guard covers(t) else { return nil }
        return try withWorker { worker in
            // Read, not written: held levels' pixels are encoded where they are, not copied first.
            let px = try pixels(t, worker: worker)
            return try px.withUnsafeBufferPointer { try worker.encoder.encode($0.baseAddress!, size: plan.tilePixels) }
        }
    }

    /// The tile's RGBA pixels (straight alpha, `tilePixels`² × 4), all zero outside the footprint.
    public func pixels(_ t: Tile) throws -> [UInt8] {
        guard covers(t) else { return [UInt8](repeating: 0, count: plan.tilePixels * plan.tilePixels * 4) }
        return try withWorker { try pixels(t, worker: $0) }
    }

    /// The pixels of a square of `span` × `span` tiles at the tile's zoom whose top-left tile is
    /// `t`, warped in one piece as each of them would be (at the max zoom as part of their
    /// pyramid block, which must hold them all; below it cell by cell from the reduced copies),
    /// for seam tests: tiles rendered apart must agree with this along shared edges.
    public func pixels(spanning span: Int, from t: Tile) throws -> [UInt8] {
        try withWorker { worker in
            let plan = self.plan(of: t) ?? self.plan
            guard t.z == plan.zooms.max, let block = plan.block(of: t) else { return try lowerPixels(t, span: span, worker: worker) }
            return try blockPixels(t, block: block, span: span, worker: worker, in: plan)
        }
    }

    func pixels(_ t: Tile, worker: Worker) throws -> [UInt8] {
        var out: [UInt8]
        let plan = self.plan(of: t) ?? self.plan
        if t.z == plan.zooms.max, let block = plan.block(of: t) {
            out = try blockPixels(t, block: block, span: 1, worker: worker, in: plan)
        } else if let levels {
            out = try levels.pixels(t) ?? [UInt8](repeating: 0, count: plan.tilePixels * plan.tilePixels * 4)
        } else {
            out = try lowerPixels(t, span: 1, worker: worker)
        }
        if let tone { out.withUnsafeMutableBufferPointer { tone.apply(to: $0.baseAddress!, count: $0.count / 4) } }
        return out
    }

    /// `span` × `span` max-zoom tiles from `t`: the block's region under them, warped with the
    /// block's grid as the pyramid warps the block (`plan`: the run of zooms the block is in).
    func blockPixels(_ t: Tile, block: Tile, span: Int, worker: Worker, in plan: PyramidPlan) throws -> [UInt8] {
        let n = plan.blockTiles, p = plan.tilePixels, side = p * span
        let cx = (t.x - block.x * n) * p, cy = (t.y - block.y * n) * p
        guard cx + side <= p * n, cy + side <= p * n else {
            throw PyramidError(.badZooms, "tiles \(t) and \(span - 1) beyond reach past their block \(block)")
        }
        let grid = blockGrid(block, worker: worker, in: plan)
        var out = [UInt8](repeating: 0, count: side * side * 4)
        try out.withUnsafeMutableBufferPointer {
            try worker.max.warp(grid, columns: cx..<(cx + side), rows: cy..<(cy + side), into: $0.baseAddress!)
        }
        return out
    }

    /// `span` × `span` tiles from `t` warped in one piece below the max zoom, each pixel the mean
    /// of the 2^k × 2^k max-zoom pixels under it (``BlockWarper/warpReduced(_:samples:into:)``),
    /// cell by cell, so tiles rendered apart agree with one render.
    func lowerPixels(_ t: Tile, span: Int, worker: Worker) throws -> [UInt8] {
        let side = plan.tilePixels * span, k = (self.plan(of: t) ?? self.plan).zooms.max - t.z
        let b = box(of: t)
        // The grid's error in tile pixels stays that of the max zoom's (0.01 source pixel there).
        let grid = worker.lower.grid(
            left: b.left, top: b.top, resolution: b.width / Double(plan.tilePixels),
            width: side, height: side, tolerance: 0.01 * Double(1 << k))
        var image = [UInt8](repeating: 0, count: side * side * 4)
        try image.withUnsafeMutableBufferPointer { try worker.lower.warpReduced(grid, samples: 1 << k, into: $0.baseAddress!) }
        return image
    }

    /// The block's grid: the held levels' build's, from the cache, or made now (two threads may
    /// both make it; either is kept).
    func blockGrid(_ block: Tile, worker: Worker, in plan: PyramidPlan) -> BlockGrid {
        if let g = levels?.grid(block) { return g }
        if let g = grids.value(for: block) { return g }
        let geo = plan.blockGeometry(block)
        let g = worker.max.grid(left: geo.left, top: geo.top, resolution: geo.resolution, width: geo.side, height: geo.side)
        grids.insert(g, cost: 1, for: block)
        return g
    }

    /// Per-thread state: GDAL datasets and PROJ handles must not be shared.
    final class Worker {
        let max: BlockWarper
        let lower: BlockWarper
        let encoder: TileEncoder
        init(max: BlockWarper, lower: BlockWarper, encoder: TileEncoder) {
            self.max = max
            self.lower = lower
            self.encoder = encoder
        }
    }

    /// Runs `body` with an idle worker (made when none is idle), returned afterwards.
    func withWorker<R>(_ body: (Worker) throws -> R) throws -> R {
        let worker: Worker
        if let w = idle.withLock({ $0.popLast() }) {
            worker = w
        } else {
            let s = warpSource
            worker = Worker(
                max: try BlockWarper(
                    scan: s.scan, mapping: s.mapping, resampling: job.settings.resampling,
                    maskFootprint: s.maskFootprint, shared: s.shared, mapped: s.mapped, removal: s.removal),
                lower: try BlockWarper(
                    scan: s.scan, mapping: s.mapping, resampling: lowerZoomKernel,
                    maskFootprint: s.maskFootprint, shared: s.shared, overviews: overviews, mapped: s.mapped, removal: s.removal),
                encoder: job.settings.encoding.encoder())
        }
        defer { idle.withLock { $0.append(worker) } }
        return try body(worker)
    }
}

/// Whether a polygon (EPSG:3857 ring) and a box share any point: a vertex inside the box, a box
/// corner inside the polygon (even–odd), or an edge crossing the box.
enum FootprintTest {
    static func touches(_ ring: [ProjectedPoint], _ b: ProjectedBounds) -> Bool {
        guard ring.count >= 3 else { return false }
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for p in ring {
            if p.x >= b.left && p.x <= b.right && p.y >= b.bottom && p.y <= b.top { return true }
            minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        guard maxX >= b.left, minX <= b.right, maxY >= b.bottom, minY <= b.top else { return false }
        if inside(ring, b.left, b.top) { return true }
        let corners = [(b.left, b.top), (b.right, b.top), (b.right, b.bottom), (b.left, b.bottom)]
        for i in ring.indices {
            let a = ring[i], c = ring[(i + 1) % ring.count]
            for k in 0..<4 {
                let p = corners[k], q = corners[(k + 1) % 4]
                if segmentsCross(a.x, a.y, c.x, c.y, p.0, p.1, q.0, q.1) { return true }
            }
        }
        return false
    }

    static func inside(_ ring: [ProjectedPoint], _ x: Double, _ y: Double) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in ring.indices {
            let a = ring[i], b = ring[j]
            if (a.y > y) != (b.y > y), x < (b.x - a.x) * (y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
        return inside
    }

    static func segmentsCross(
        _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
        _ cx: Double, _ cy: Double, _ dx: Double, _ dy: Double
    ) -> Bool {
        func orient(_ px: Double, _ py: Double, _ qx: Double, _ qy: Double, _ rx: Double, _ ry: Double) -> Double {
            (qx - px) * (ry - py) - (qy - py) * (rx - px)
        }
        let d1 = orient(cx, cy, dx, dy, ax, ay), d2 = orient(cx, cy, dx, dy, bx, by)
        let d3 = orient(ax, ay, bx, by, cx, cy), d4 = orient(ax, ay, bx, by, dx, dy)
        return ((d1 > 0) != (d2 > 0) || d1 == 0 || d2 == 0) && ((d3 > 0) != (d4 > 0) || d3 == 0 || d4 == 0)
    }
}
