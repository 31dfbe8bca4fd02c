import TegulaGeometry

/// Warps rectangular blocks of an EPSG:3857 pixel grid from a scan: the core that both the warp
/// stage (whole images) and the pyramid stage (blocks of max-zoom tiles) run, one per worker.
public final class BlockWarper {
    public let mapping: SourceMapping
    public let resampling: Resampling
    let raster: SourceRaster
    let evaluator: MappingEvaluator
    let kernel: WarpKernel
    let maskFootprint: [ProjectedPoint]?
    let shared: SourceWindow?
    /// Reduced copies of the scan to read decimated windows from instead of the file.
    let overviews: SourceOverviews?
    /// Largest approximation error of the transform grids used so far, in source pixels.
    public private(set) var worstGridError = 0.0

    /// - Parameters:
    ///   - maskFootprint: the mask polygon already mapped to EPSG:3857 (see ``WarpSource``).
    ///   - shared: the whole scan already in memory (small scans), shared read-only by workers.
    ///   - overviews: reduced copies for windows read at a decimation (tiles on demand); nil reads
    ///     decimated windows from the file, through its own overviews when it has them.
    public init(path: String, mapping: SourceMapping, resampling: Resampling,
                maskFootprint: [ProjectedPoint]?, shared: SourceWindow?, overviews: SourceOverviews? = nil) throws {
        self.mapping = mapping
        self.resampling = resampling
        raster = try SourceRaster(path: path)
        evaluator = try mapping.makeEvaluator()
        kernel = WarpKernel(resampling: resampling, sourceWidth: raster.width, sourceHeight: raster.height)
        self.maskFootprint = maskFootprint
        self.shared = shared
        self.overviews = overviews
    }

    /// Warp the block whose top-left corner is (`left`, `top`) in EPSG:3857 metres, `width` ×
    /// `height` pixels of `resolution` metres, into `out` (RGBA8, straight alpha).
    public func warp(left: Double, top: Double, resolution: Double, width: Int, height: Int,
                     into out: UnsafeMutablePointer<UInt8>) throws {
        try warp(grid(left: left, top: top, resolution: resolution, width: width, height: height),
                 columns: 0..<width, rows: 0..<height, into: out)
    }

    /// The transform grid of a block (see ``warp(left:top:resolution:width:height:into:)``),
    /// to warp parts of it with ``warp(_:columns:rows:into:)``; it may be kept and shared.
    /// `tolerance` is the transform grid's accepted interpolation error in source pixels (0.01 by
    /// default; a warp that shrinks the scan a lot can afford more).
    public func grid(left: Double, top: Double, resolution: Double, width: Int, height: Int,
                     tolerance: Double = 0.01) -> BlockGrid {
        BlockGrid(grid: MappingGrid(evaluator: evaluator, left: left, top: top, resolution: resolution,
                                    width: width, height: height, tolerance: tolerance),
                  left: left, top: top, resolution: resolution)
    }

    /// Warp the pixels `columns` × `rows` of a block into `out` (that rectangle, RGBA8): byte for
    /// byte what warping the whole block gives there.
    public func warp(_ block: BlockGrid, columns: Range<Int>, rows: Range<Int>,
                     into out: UnsafeMutablePointer<UInt8>) throws {
        let grid = block.grid
        let count = columns.count * rows.count
        worstGridError = max(worstGridError, grid.checkedError)
        let ks = grid.kernelScale
        let step = max(1, Int(min(ks.x, ks.y).rounded(.down)))
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
            let read: SourceWindow?
            if step > 1, let overviews {
                read = try overviews.window(raster, x0: x0, y0: y0, x1: x1, y1: y1, step: step)
            } else {
                read = try SourceWindow.read(raster, x0: x0, y0: y0, x1: x1, y1: y1, step: step)
            }
            guard let read else {
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
    /// Warp a whole block cell by cell (the grid's 32-px cells), each with the kernel scale at its
    /// own centre and a window at its own decimation, so a pixel's value depends on where it is,
    /// not on the block it is rendered in: tiles rendered apart agree with one render of them all.
    /// Used where the warp shrinks the scan a lot and the scale varies across a block.
    public func warpByCell(_ block: BlockGrid, into out: UnsafeMutablePointer<UInt8>) throws {
        let grid = block.grid, w = grid.width, h = grid.height
        worstGridError = max(worstGridError, grid.checkedError)
        var mask: UnsafeMutablePointer<UInt8>?
        if let footprint = maskFootprint {
            let poly = footprint.map { (x: ($0.x - block.left) / block.resolution, y: (block.top - $0.y) / block.resolution) }
            mask = .allocate(capacity: w * h)
            MaskRasterizer.fill(polygon: poly, width: w, height: h, into: mask!)
        }
        defer { mask?.deallocate() }
        let size = grid.cellSize
        for cy in 0..<grid.cellRows {
            for cx in 0..<grid.cellColumns {
                let x0 = cx * size, y0 = cy * size
                let columns = x0..<(cx == grid.cellColumns - 1 ? w : x0 + size)
                let rows = y0..<(cy == grid.cellRows - 1 ? h : y0 + size)
                let o = out + (y0 * w + x0) * 4
                let ks = MappingGrid.centreScale(evaluator, left: block.left + Double(x0) * block.resolution,
                                                 top: block.top - Double(y0) * block.resolution, res: block.resolution,
                                                 width: size, height: size)
                let step = max(1, Int((min(ks.x, ks.y) / 2).rounded(.down)))
                guard let b = grid.sourceBounds(columns: columns, rows: rows),
                      b.maxX >= -2, b.maxY >= -2, b.minX <= Double(raster.width) + 2, b.minY <= Double(raster.height) + 2
                else {
                    for r in 0..<rows.count { (o + r * w * 4).update(repeating: 0, count: columns.count * 4) }
                    continue
                }
                let window: SourceWindow
                if step == 1, let shared {
                    window = shared
                } else {
                    let margin = Int((resampling.radius * max(ks.x, ks.y)).rounded(.up)) + 2
                    let x0 = Int(b.minX.rounded(.down)) - margin, y0 = Int(b.minY.rounded(.down)) - margin
                    let x1 = Int(b.maxX.rounded(.up)) + margin, y1 = Int(b.maxY.rounded(.up)) + margin
                    let read = try overviews.map { try $0.window(raster, x0: x0, y0: y0, x1: x1, y1: y1, step: step) }
                        ?? SourceWindow.read(raster, x0: x0, y0: y0, x1: x1, y1: y1, step: step)
                    guard let read else {
                        for r in 0..<rows.count { (o + r * w * 4).update(repeating: 0, count: columns.count * 4) }
                        continue
                    }
                    window = read
                }
                kernel.run(grid: grid, window: window, mask: mask.map { $0 + y0 * w + x0 }, out: o,
                           columns: columns, rows: rows, stride: w, kernelScale: ks)
            }
        }
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
