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
    /// Largest approximation error of the transform grids used so far, in source pixels.
    public private(set) var worstGridError = 0.0

    /// - Parameters:
    ///   - maskFootprint: the mask polygon already mapped to EPSG:3857 (see ``WarpSource``).
    ///   - shared: the whole scan already in memory (small scans), shared read-only by workers.
    public init(path: String, mapping: SourceMapping, resampling: Resampling,
                maskFootprint: [ProjectedPoint]?, shared: SourceWindow?) throws {
        self.mapping = mapping
        self.resampling = resampling
        raster = try SourceRaster(path: path)
        evaluator = try mapping.makeEvaluator()
        kernel = WarpKernel(resampling: resampling, sourceWidth: raster.width, sourceHeight: raster.height)
        self.maskFootprint = maskFootprint
        self.shared = shared
    }

    /// Warp the block whose top-left corner is (`left`, `top`) in EPSG:3857 metres, `width` ×
    /// `height` pixels of `resolution` metres, into `out` (RGBA8, straight alpha).
    public func warp(left: Double, top: Double, resolution: Double, width: Int, height: Int,
                     into out: UnsafeMutablePointer<UInt8>) throws {
        let grid = MappingGrid(evaluator: evaluator, left: left, top: top, resolution: resolution,
                               width: width, height: height)
        worstGridError = max(worstGridError, grid.checkedError)
        guard let b = grid.sourceBounds,
              b.maxX >= -2, b.maxY >= -2, b.minX <= Double(raster.width) + 2, b.minY <= Double(raster.height) + 2
        else {
            out.update(repeating: 0, count: width * height * 4)
            return
        }
        let ks = grid.kernelScale
        let step = max(1, Int(min(ks.x, ks.y).rounded(.down)))
        let window: SourceWindow
        if step == 1, let shared {
            window = shared
        } else {
            let margin = Int((resampling.radius * max(ks.x, ks.y)).rounded(.up)) + 2
            guard let w = try SourceWindow.read(raster, x0: Int(b.minX.rounded(.down)) - margin,
                                                y0: Int(b.minY.rounded(.down)) - margin,
                                                x1: Int(b.maxX.rounded(.up)) + margin,
                                                y1: Int(b.maxY.rounded(.up)) + margin, step: step)
            else {
                out.update(repeating: 0, count: width * height * 4)
                return
            }
            window = w
        }
        if let footprint = maskFootprint {
            let poly = footprint.map { (x: ($0.x - left) / resolution, y: (top - $0.y) / resolution) }
            let mask = UnsafeMutablePointer<UInt8>.allocate(capacity: width * height)
            defer { mask.deallocate() }
            MaskRasterizer.fill(polygon: poly, width: width, height: height, into: mask)
            kernel.run(grid: grid, window: window, mask: mask, out: out)
        } else {
            kernel.run(grid: grid, window: window, mask: nil, out: out)
        }
    }
}
