import TegulaGeometry
import TegulaScan

/// Warps rectangular blocks of an EPSG:3857 pixel grid from a scan: the core that both the warp
/// stage (whole images) and the pyramid stage (blocks of max-zoom tiles) run, one per worker.
public final class BlockWarper {
    public let mapping: SourceMapping
    public let resampling: Resampling
    let raster: any ScanReader
    let evaluator: MappingEvaluator
    let kernel: WarpKernel
    let maskFootprint: [ProjectedPoint]?
    let shared: SourceWindow?
    /// Reduced copies of the scan that ``warpReduced(_:samples:into:)`` reads.
    let overviews: SourceOverviews?
    /// Largest approximation error of the transform grids used so far, in source pixels.
    public private(set) var worstGridError = 0.0

    /// - Parameters:
    ///   - maskFootprint: the mask polygon already mapped to EPSG:3857 (see ``WarpSource``).
    ///   - shared: the whole scan already in memory (small scans), shared read-only by workers.
    ///   - overviews: reduced copies for ``warpReduced(_:samples:into:)`` (tiles on demand); nil
    ///     reads reduced windows from the file, through its own overviews when it has them.
    ///   - mapped: the scan mapped from its file (see ``WarpSource/mapped``), for full-resolution windows.
    ///   - decoded: the scan's decoded blocks (see ``WarpSource/decoded``), for full-resolution windows.
    ///   - removal: the paper colour taken out of the windows it reads (see ``WarpSource/removal``).
    public init(
        scan: OpenedScan, mapping: SourceMapping, resampling: Resampling,
        maskFootprint: [ProjectedPoint]?, shared: SourceWindow?, overviews: SourceOverviews? = nil,
        mapped: MappedScan? = nil, decoded: DecodedScan? = nil, removal: ColorRemoval? = nil
    ) throws {
        self.mapping = mapping
        self.resampling = resampling
        raster = try scan.reader(mapped: mapped, decoded: decoded, removal: removal)
        evaluator = try mapping.makeEvaluator()
        kernel = WarpKernel(resampling: resampling, sourceWidth: raster.width, sourceHeight: raster.height)
        self.maskFootprint = maskFootprint
        self.shared = shared
        self.overviews = overviews
    }

    /// Warp the block whose top-left corner is (`left`, `top`) in EPSG:3857 metres, `width` ×
    /// `height` pixels of `resolution` metres, into `out` (RGBA8, straight alpha).
    public func warp(
        left: Double, top: Double, resolution: Double, width: Int, height: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) throws {
        try warp(
            grid(left: left, top: top, resolution: resolution, width: width, height: height),
            columns: 0..<width, rows: 0..<height, into: out)
    }

    /// The transform grid of a block (see ``warp(left:top:resolution:width:height:into:)``),
    /// to warp parts of it with ``warp(_:columns:rows:into:)``; it may be kept and shared.
    /// `tolerance` is the transform grid's accepted interpolation error in source pixels (0.01 by
    /// default; a warp that shrinks the scan a lot can afford more).
    public func grid(
        left: Double, top: Double, resolution: Double, width: Int, height: Int,
        tolerance: Double = 0.01
    ) -> BlockGrid {
        BlockGrid(
            grid: MappingGrid(
                evaluator: evaluator, left: left, top: top, resolution: resolution,
                width: width, height: height, tolerance: tolerance),
            left: left, top: top, resolution: resolution)
    }

    /// Warp the pixels `columns` × `rows` of a block into `out` (that rectangle, RGBA8): byte for
    /// byte what warping the whole block gives there.
    public func warp(
        _ block: BlockGrid, columns: Range<Int>, rows: Range<Int>,
        into out: UnsafeMutablePointer<UInt8>
    ) throws {
        let grid = block.grid
        let count = columns.count * rows.count
        worstGridError = max(worstGridError, grid.checkedError)
        let ks = grid.kernelScale
        // Decimated by the shrink; for average by a quarter of it, so the footprint's edges cut
        // cells at most a quarter of it wide (average weighs what they cover: decimated 4× at
        // zoom 5 of ResamplingOracleTests, its edges were 36.0 dB from gdalwarp's; whole, 55.9 dB).
        let step = max(1, Int((min(ks.x, ks.y) / (resampling == .average ? 4 : 1)).rounded(.down)))
        // At full resolution a pixel's value does not depend on how far the window reaches beyond
        // its taps, so a part needs only its own cells' window; a decimated window is the block's,
        // since its averaging cells depend on where it starts.
        guard let b = step == 1 ? grid.sourceBounds(columns: columns, rows: rows) : grid.sourceBounds,
            b.maxX >= -2, b.maxY >= -2, b.minX <= Double(raster.width) + 2, b.minY <= Double(raster.height) + 2
        else {
            out.update(repeating: 0, count: count * 4)
            return
        }
        let window: SourceWindow
        if step == 1, let shared {
            window = shared
        } else {
            let margin = Int((resampling.radius * max(ks.x, ks.y)).rounded(.up)) + 2
            let x0 = Int(b.minX.rounded(.down)) - margin, y0 = Int(b.minY.rounded(.down)) - margin
            let x1 = Int(b.maxX.rounded(.up)) + margin, y1 = Int(b.maxY.rounded(.up)) + margin
            guard let read = try SourceWindow.read(raster, x0: x0, y0: y0, x1: x1, y1: y1, step: step) else {
                out.update(repeating: 0, count: count * 4)
                return
            }
            window = read
        }
        if let footprint = maskFootprint {
            let poly = footprint.map { (x: ($0.x - block.left) / block.resolution, y: (block.top - $0.y) / block.resolution) }
            let mask = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
            defer { mask.deallocate() }
            MaskRasterizer.fill(polygon: poly, width: grid.width, height: grid.height, into: mask, columns: columns, rows: rows)
            kernel.run(grid: grid, window: window, mask: mask, out: out, columns: columns, rows: rows)
        } else {
            kernel.run(grid: grid, window: window, mask: nil, out: out, columns: columns, rows: rows)
        }
    }
}

extension BlockWarper {
    /// Warp a block of pixels each `samples` × `samples` max-zoom pixels wide (a tile `k` zooms
    /// above the pyramid's max zoom, samples = 2^k) as the pyramid makes them by halving, with
    /// the ``ReductionKernel`` reading box-reduced copies of the scan (`overviews`). Cell by cell
    /// (the grid's 32-px cells), each with the footprint at its own centre and the copy at its own
    /// factor, so a pixel's value depends on where it is, not on the block it is rendered in:
    /// tiles rendered apart agree with one render of them all. Alpha follows the pyramid's
    /// coverage rule (``PyramidCoverage``): the halving's mean over the max-zoom centres inside
    /// the scan and the mask.
    public func warpReduced(_ block: BlockGrid, samples: Int, into out: UnsafeMutablePointer<UInt8>) throws {
        let grid = block.grid, w = grid.width, h = grid.height
        worstGridError = max(worstGridError, grid.checkedError)
        out.update(repeating: 0, count: w * h * 4)
        guard let all = grid.sourceBounds,
            all.maxX >= -2, all.maxY >= -2, all.minX <= Double(raster.width) + 2, all.minY <= Double(raster.height) + 2
        else { return }
        // Alpha by the pyramid's coverage rule, from the max-zoom centres under each pixel.
        let mask = maskFootprint.map { ring in ring.map { p in (x: (p.x - block.left) / block.resolution, y: (block.top - p.y) / block.resolution) } }
        let coverage = UnsafeMutablePointer<UInt8>.allocate(capacity: w * h)
        defer { coverage.deallocate() }
        PyramidCoverage(grid: grid, sourceWidth: raster.width, sourceHeight: raster.height, mask: mask)
            .alphas(samples: samples, into: coverage)
        let kernel = ReductionKernel(
            resampling: resampling, sourceWidth: raster.width, sourceHeight: raster.height,
            opaque: raster.isOpaque, tables: ReductionKernel.Tables())
        let levels = overviews?.levelFactors ?? []
        // Each cell's footprint and copy factor first, then one window per factor for the block.
        let size = grid.cellSize
        var cells: [(columns: Range<Int>, rows: Range<Int>, extents: [(x: Double, y: Double)], factor: Int)] = []
        var reach: [Int: Double] = [:]
        for cy in 0..<grid.cellRows {
            for cx in 0..<grid.cellColumns {
                let x0 = cx * size, y0 = cy * size
                let columns = x0..<(cx == grid.cellColumns - 1 ? w : x0 + size)
                let rows = y0..<(cy == grid.cellRows - 1 ? h : y0 + size)
                guard let b = grid.sourceBounds(columns: columns, rows: rows),
                    b.maxX >= -2, b.maxY >= -2, b.minX <= Double(raster.width) + 2, b.minY <= Double(raster.height) + 2
                else { continue }
                let left = block.left + Double(x0) * block.resolution
                let ks = MappingGrid.centreScale(
                    evaluator, left: left, top: block.top - Double(y0) * block.resolution,
                    res: block.resolution, width: size, height: size)
                // The footprint at each row's centre (the copy's factor from the cell's centre).
                let extents = rows.map { j in
                    MappingGrid.centreScale(
                        evaluator, left: left, top: block.top - Double(j) * block.resolution,
                        res: block.resolution, width: size, height: 1)
                }
                let f = Self.reductionFactor(shrink: min(ks.x, ks.y), levels: levels)
                cells.append((columns, rows, extents, f))
                let widest = max(extents.map(\.x).max() ?? 1, extents.map(\.y).max() ?? 1)
                reach[f] = max(reach[f] ?? 0, widest / 2 + resampling.radius * max(1, widest / Double(samples)) + 2 + Double(f))
            }
        }
        var windows: [Int: SourceWindow] = [:]
        for (f, r) in reach {
            let m = Int(r.rounded(.up))
            let x0 = Int(all.minX.rounded(.down)) - m, y0 = Int(all.minY.rounded(.down)) - m
            let x1 = Int(all.maxX.rounded(.up)) + m, y1 = Int(all.maxY.rounded(.up)) + m
            let read: SourceWindow?
            if let overviews {
                read = try overviews.window(raster, factor: f, x0: x0, y0: y0, x1: x1, y1: y1)
            } else if f == 1, let shared {
                read = shared
            } else {
                read = try SourceWindow.read(raster, x0: x0 / f * f, y0: y0 / f * f, x1: x1, y1: y1, step: f)
            }
            windows[f] = read
        }
        for cell in cells {
            guard let window = windows[cell.factor] else { continue }
            let first: Int = cell.rows.lowerBound * w + cell.columns.lowerBound
            kernel.run(
                grid: grid, window: window, extents: cell.extents, samples: samples,
                coverage: UnsafePointer(coverage + first),
                out: out + first * 4, columns: cell.columns, rows: cell.rows, stride: w)
        }
    }

    /// The copy to read for output pixels `shrink` source pixels wide: the largest power of two
    /// at most a quarter of it (a pixel then spans 4–8 cells; at half of it the copy's own box
    /// blurs the real Schagen scan to 39.8 dB at z0), the coarsest built level when that is
    /// coarser still.
    static func reductionFactor(shrink: Double, levels: [Int]) -> Int {
        var f = 1
        while Double(f * 2) <= shrink / 4 { f *= 2 }
        if let coarsest = levels.last, f > coarsest { f = coarsest }
        return f
    }
}

/// The exact transform of one block, interpolated on a refined grid (see `MappingGrid`): made
/// once by ``BlockWarper/grid(left:top:resolution:width:height:)``, read-only afterwards, so one
/// block's tiles can be warped one at a time, on any thread, with the block's own grid.
public struct BlockGrid: @unchecked Sendable {
    let grid: MappingGrid
    /// The block's top-left corner in EPSG:3857 metres and its pixel size.
    public let left: Double
    public let top: Double
    public let resolution: Double
    /// Block size in pixels.
    public var width: Int { grid.width }
    public var height: Int { grid.height }
    /// Largest interpolation error found when checking the grid, in source pixels.
    public var checkedError: Double { grid.checkedError }
    /// Source pixels per output pixel near the block's centre (at least 1 on each axis).
    public var kernelScale: (x: Double, y: Double) { grid.kernelScale }
    /// Bytes the grid holds, for cache budgets.
    public var byteCount: Int { grid.cells.reduce(0) { $0 + 16 * $1.nodeX.count } + 64 * grid.cells.count }
}
