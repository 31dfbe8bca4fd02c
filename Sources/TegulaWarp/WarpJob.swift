import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaSupport

/// The warp stage: a scan onto the EPSG:3857 pixel grid of one zoom level, as a GeoTIFF whose
/// pixel size is exactly that zoom's resolution and whose origin lies on its pixel grid; or onto
/// the pixel grid of a zoom of another tile matrix set, in its CRS (``tms``).
public struct WarpJob: Sendable {
    public var source: WarpSource
    public var zoom: Int
    /// The set whose zoom's pixel grid to warp onto: WebMercatorQuad (the default, EPSG:3857 as
    /// always) or another, whose CRS the scan is warped into straight from its fit
    /// (``WarpSource/reprojected(to:)``), as `tegula tile --tms` warps it.
    public var tms: TileMatrixSet = .webMercatorQuad
    public var resampling: Resampling
    public var cog: Bool
    public var jobs: Int
    /// Block size in output pixels (one worker's unit of work).
    public var blockSize = 512
    /// Files whose deletion, replacement or rewriting during the run fails it rather than
    /// commit an output made of two versions (default: the scan).
    public var watchedInputs: [String]

    public init(
        source: WarpSource, zoom: Int, resampling: Resampling = .bilinear, cog: Bool = false,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.source = source
        watchedInputs = [source.path]
        self.zoom = zoom
        self.resampling = resampling
        self.cog = cog
        self.jobs = jobs
    }

    /// What was written.
    public struct Result: Sendable {
        public var width: Int
        public var height: Int
        public var geoTransform: [Double]
        public var worstGridError: Double
        public var clipped: Bool
    }

    /// True when the job warps into another set than WebMercatorQuad.
    public var warpsInGrid: Bool { tms != .webMercatorQuad }

    /// The source as the workers warp it: in ``tms``'s CRS when ``warpsInGrid``.
    public func outputSource() throws -> WarpSource {
        warpsInGrid ? try source.reprojected(to: try CRS(tms.crs)) : source
    }

    /// Zoom `auto` in ``tms``: the zoom whose cell size is nearest the scan's pixel size there
    /// (``WarpSource/nearestZoom(in:within:)``, as `tegula tile --tms` picks its max zoom).
    public static func autoZoom(of source: WarpSource, in tms: TileMatrixSet) throws -> Int {
        let grid = try source.reprojected(to: try CRS(tms.crs))
        guard let b = grid.gridBounds(in: tms) else { throw WarpError(.outsideWorld, at: source.path, "the scan lies outside \(tms.id)'s extent") }
        return try grid.nearestZoom(in: tms, within: b)
    }

    /// The output grid: the pixels of the zoom level covering the footprint of `warped` (the
    /// ``outputSource()``).
    public func grid(of warped: WarpSource) throws -> WarpGrid {
        guard warpsInGrid else { return WarpGrid(try pixelWindow()) }
        guard tms.zooms.contains(zoom) else {
            throw WarpError(.outsideWorld, at: source.path, "\(tms.id) has zooms \(tms.minZoom)-\(tms.maxZoom), not \(zoom): choose one of them")
        }
        let crs = try CRS(tms.crs)
        guard let b = warped.gridBounds(in: tms), let win = try WarpGrid(covering: b, zoom: zoom, in: tms, crs: crs) else {
            throw WarpError(.outsideWorld, at: source.path, "the scan lies outside \(tms.id)'s extent")
        }
        guard win.width <= 1 << 20, win.height <= 1 << 20 else {
            throw WarpError(
                .tooLarge, at: source.path, "zoom \(zoom) of \(tms.id) would make a \(win.width) × \(win.height) image; choose a lower --zoom")
        }
        return win
    }

    /// The Web Mercator output grid: the pixels of the zoom level covering the footprint.
    public func pixelWindow() throws -> PixelWindow {
        guard let b = source.bounds else { throw WarpError(.outsideWorld, at: source.path, "the scan lies outside the Web Mercator world") }
        guard let win = PixelWindow(covering: b, zoom: zoom) else {
            throw WarpError(.outsideWorld, at: source.path, "the scan covers no pixel at zoom \(zoom)")
        }
        guard win.width <= 1 << 20, win.height <= 1 << 20 else {
            throw WarpError(.tooLarge, at: source.path, "zoom \(zoom) would make a \(win.width) × \(win.height) image; choose a lower --zoom")
        }
        return win
    }

    /// Warp to `output` (a temporary file beside it, renamed at the end; nothing left on failure).
    public func run(output: String, progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> Result {
        let warped = try outputSource()
        let win = try grid(of: warped)
        let inputs = watchedInputs.map { ($0, FileIdentity(path: $0)) }
        let res = win.resolution
        let gt = win.geoTransform
        // The warp writes each block once: a large block cache only holds memory (GDAL's default
        // is 5 % of RAM). A user's own GDAL_CACHEMAX wins.
        if GDALRuntime.configOption("GDAL_CACHEMAX") == nil { GDALRuntime.setConfigOption("GDAL_CACHEMAX", "64") }
        let worst = Locked(WorstError())
        // What a killed warp of the same output left beside it goes first.
        AtomicFile.removeAbandoned(of: output)
        let file: AtomicFile
        do { file = try AtomicFile(replacing: output) } catch {
            throw WarpError(.writeFailed, at: output, "cannot create a temporary file beside it: \(error)")
        }
        // A COG is copied from a plain GeoTIFF written first beside it.
        let tmp = cog ? file.temporaryPath + ".tif" : file.temporaryPath
        defer { if cog { try? FileManager.default.removeItem(atPath: tmp) } }
        do {
            let ds = try Dataset.create(
                path: tmp, driver: "GTiff", width: win.width, height: win.height, bands: 4,
                options: [
                    "TILED=YES", "BLOCKXSIZE=256", "BLOCKYSIZE=256", "COMPRESS=DEFLATE",
                    "PREDICTOR=2", "BIGTIFF=IF_SAFER", "ALPHA=YES", "PHOTOMETRIC=RGB",
                ])
            try ds.setGeoTransform(GeoTransform(gt))
            try ds.setSpatialReference(warpsInGrid ? win.crs.makeReference() : .webMercator())
            ds.setColorInterpretation(band: 4, .alpha)
            try ds.setMetadataItem("TEGULA_ZOOM", "\(zoom)")
            if warpsInGrid { try ds.setMetadataItem("TEGULA_TMS", tms.id) }
            // The fit's pins and outline travel with the pixels to the tile stage.
            for (key, value) in (source.summary?.metadataItems ?? [:]).sorted(by: { $0.key < $1.key }) {
                try ds.setMetadataItem(key, value)
            }
            let shared = Locked(ds)
            let bs = blockSize
            let bx = (win.width + bs - 1) / bs, by = (win.height + bs - 1) / bs
            let total = bx * by
            let done = Locked(0)
            let src = warped, resampling = resampling
            try ParallelWork.run(
                jobs: jobs, count: total,
                makeState: { _ in
                    try BlockWarper(
                        scan: src.scan, mapping: src.mapping, resampling: resampling,
                        maskFootprint: src.maskFootprint, shared: src.shared, mapped: src.mapped, decoded: src.decoded,
                        removal: src.removal)
                },
                process: { warper, index in
                    let ox = (index % bx) * bs, oy = (index / bx) * bs
                    let w = min(bs, win.width - ox), hh = min(bs, win.height - oy)
                    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: w * hh * 4)
                    defer { buffer.deallocate() }
                    try warper.warp(
                        left: gt[0] + Double(ox) * res, top: gt[3] - Double(oy) * res, resolution: res,
                        width: w, height: hh, into: buffer)
                    worst.withLock { $0.add(warper.worstGridError) }
                    try shared.withLock { try $0.writeBytes(x: ox, y: oy, width: w, height: hh, bands: [1, 2, 3, 4], from: buffer) }
                    let n = done.withLock {
                        $0 += 1; return $0
                    }
                    progress?(n, total)
                })
            if cog {
                try ds.flush()
                try ds.copy(
                    to: file.temporaryPath, driver: "COG",
                    options: [
                        "COMPRESS=DEFLATE", "PREDICTOR=2", "BLOCKSIZE=256",
                        "OVERVIEW_RESAMPLING=AVERAGE", "BIGTIFF=IF_SAFER",
                    ])
            }
        }
        for (path, identity) in inputs {
            if let change = identity?.change(at: path) {
                throw WarpError(.unreadable, at: path, "\(change) during the warp; nothing was written to \(output): run it again")
            }
        }
        do { try file.commit() } catch {
            throw WarpError(.writeFailed, at: output, "cannot move the finished file into place: \(error)")
        }
        return Result(
            width: win.width, height: win.height, geoTransform: gt,
            worstGridError: worst.withLock { $0.value }, clipped: !warpsInGrid && source.exceedsMercatorLimit)
    }
}
