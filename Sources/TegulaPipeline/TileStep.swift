import Foundation
import TegulaCrypto
import TegulaPyramid
import TegulaSupport
import TegulaTileset
import TegulaWarp

/// The tile stage of one map: `warped.tif` cut into the map's own tileset. The GCP pins and
/// outline come from `warped.tif` itself, where the warp stage stored them. A map cut in another
/// tile matrix set (`tile.tms:`) is cut from its scan through the recorded fit instead, straight
/// into the set's CRS (`source(in:)`), and follows the georeference stage with no warp stage.
struct TileStep: MapStage {
    let options: TileOptions
    /// The tileset.
    let output: String
    var key: String { Stage.tile.rawValue }

    var stage: Stage { .tile }

    func plan(after previous: PlannedStage?, in work: MapWork) throws -> PlannedStage {
        guard let w = previous else { throw PipelineError(.notPlanned, "the tile stage needs the warp stage's plan") }
        let map = work.map
        let inGrid = options.tileMatrixSet != .webMercatorQuad
        // In another set the stage follows the georeference (MapWork.steps): its hash chains on
        // the fit's, with the kernel and paper colour the warp's hash would have carried.
        let upstream = inGrid ? WarpStep.scanHash(georeference: w.hash, map: map) : w.hash
        let hash = Self.hash(warp: upstream, options: options, output: output, name: map.name)
        let recorded = work.manifest.stages[key]
        let current = w.current && recorded?.hash == hash && Tileset.isTileset(at: output)
        var detail = "→ \(output)"
        if inGrid {
            let source = try w.current ? work.georeference.recordedSource() : work.georeference.sourceInMemory()
            let job = self.job(source: source, output: output, maxZoom: nil, of: map)
            let zooms = try job.zoomRange()
            return PlannedStage(
                stage: .tile, key: key, hash: hash, current: current,
                detail: "zooms \(zooms) of \(job.tms.id) from the scan, "
                    + "\(job.settings.encoding.format.name) \(job.settings.tilePixels) px → \(output)",
                skippedDetail: "zooms \(recorded?.zooms.map(String.init(describing:)) ?? "0-0") → \(output)", zoom: w.zoom)
        }
        if let source = w.source {
            let job = self.job(source: source, output: output, maxZoom: w.zoom, of: map)
            let zooms = try job.zoomRange()
            guard let bounds = source.bounds else { throw PipelineError(.notGeoreferenced, "\(map.input): empty footprint") }
            let pyramid = try PyramidPlan(bounds: bounds, zooms: zooms, tilePixels: job.settings.tilePixels)
            let perZoom = zooms.levels.map { z in
                let r = pyramid.range(z)
                return "z\(z): \(r.x.count * r.y.count)"
            }.joined(separator: ", ")
            detail =
                "zooms \(zooms), \(pyramid.tilePositions) tile positions (\(perZoom)), "
                + "\(job.settings.encoding.format.name) \(job.settings.tilePixels) px \(job.settings.layout.name) → \(output)"
        }
        return PlannedStage(
            stage: .tile, key: key, hash: hash, current: current, detail: detail,
            skippedDetail: "zooms \(recorded?.zooms.map(String.init(describing:)) ?? "0-0") → \(output)", zoom: w.zoom)
    }

    func run(_ plan: PlannedStage, in work: MapWork) throws -> String {
        let map = work.map
        let source = try self.source(in: work)
        var job = self.job(source: source, output: output, maxZoom: plan.zoom, of: map)
        job.jobs = work.jobs
        let zooms = try job.zoomRange()
        if let z = plan.zoom, zooms.max > z, !job.cutsInGrid {
            work.log(
                "warning: map '\(map.name)': tiles up to zoom \(zooms.max) from a warp at zoom \(z) are upsampled; set warp.zoom to \(zooms.max)")
        }
        try FileManager.default.createDirectory(
            atPath: output.parentPath,
            withIntermediateDirectories: true)
        let label = "\(map.name) tile", progress = work.progress
        let stats = try job.run { s, total in progress?(label, s.positionsDone, total) }
        try work.record(key: key, hash: plan.hash, outputs: [output], zooms: zooms)
        return String(
            format: "zooms %d-%d, %d tiles (%.1f MB), %d empty skipped → %@", zooms.min, zooms.max,
            stats.tilesWritten, Double(stats.bytesWritten) / 1e6, stats.tilesEmpty, output)
    }

    /// What the tiles are cut from: `warped.tif` in WebMercatorQuad; in another set the scan
    /// itself through its recorded fit (the paper colour taken out as the warp takes it), so its
    /// pixels are resampled once, straight into the set's CRS, as `tegula tile --tms` does.
    func source(in work: MapWork) throws -> WarpSource {
        guard options.tileMatrixSet != .webMercatorQuad else { return try WarpInput(path: work.warpedPath).resolve() }
        return try work.georeference.recordedSource(readingPixels: true).removingColor(work.map.removeColor)
    }

    /// The pyramid job these options describe for `map`, its max zoom defaulting to the warp zoom;
    /// in another set, which is cut from the scan, its kernel defaulting to the warp's. Tiles on
    /// demand make a map's job here too (``Pipeline/tileJob(for:)``), so they are in its set.
    func job(source: WarpSource, output: String, maxZoom: Int?, of map: MapSpec) -> TileJob {
        let inGrid = options.tileMatrixSet != .webMercatorQuad
        var job = TileJob(
            source: source, output: output, name: options.name ?? map.name,
            settings: inGrid
                ? options.settings(defaultMaxZoom: nil, defaultResampling: map.warp.resampling)
                : options.settings(defaultMaxZoom: maxZoom))
        job.attribution = options.attribution
        // Another set's zooms are not the warp's (Web Mercator's): its max zoom, unless given, is
        // its own auto (TileJob's gridZoomRange).
        job.tms = options.tileMatrixSet
        // It reads the work folder's warped.tif, which a duplicated shard may rename over with
        // the same bytes (stages are deterministic); the scan itself is watched by the warp. In
        // another set it reads the scan, watched as the warp watches it.
        job.watchedInputs = inGrid ? [map.input] : []
        return job
    }

    /// The stage hash: the warp's hash (which covers the fit, the warp kernel and the paper
    /// colour), the options (the set by its content, `TileOptions.hashText`), the output and the
    /// map's name.
    static func hash(warp: String, options: TileOptions, output: String, name: String) -> String {
        var h = ContentHash()
        h.update("tile/1")
        h.update(warp)
        h.update(options.hashText)
        h.update(output)
        h.update(name)
        return h.finalize()
    }
}
