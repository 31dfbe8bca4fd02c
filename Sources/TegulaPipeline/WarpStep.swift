import Foundation
import TegulaCrypto
import TegulaWarp

/// The warp stage of one map: the recorded georeference onto the EPSG:3857 grid of one zoom,
/// `warped.tif`, with the fit's pins and outline stored in it for the tile stage. Only a map cut
/// in WebMercatorQuad has one (``MapWork/steps``): in another set the tiles come from the scan.
struct WarpStep: MapStage {
    var stage: Stage { .warp }

    func plan(after previous: PlannedStage?, in work: MapWork) throws -> PlannedStage {
        guard let g = previous else { throw PipelineError(.notPlanned, "the warp stage needs the georeference stage's plan") }
        let map = work.map
        // Once the georeference is current its recorded output is what the warp reads; before,
        // the same fit is made in memory.
        let source = try g.current ? work.georeference.recordedSource() : work.georeference.sourceInMemory()
        let (zoom, auto) = try warpZoom(source: source, in: work)
        let hash = Self.hash(georeference: g.hash, zoom: zoom, resampling: map.warp.resampling ?? .default, removeColor: map.removeColor)
        let window = try WarpJob(source: source, zoom: zoom).pixelWindow()
        let resampling = (map.warp.resampling ?? .default).name
        return PlannedStage(
            stage: .warp, key: Stage.warp.rawValue, hash: hash,
            current: g.current && work.manifest.isCurrent(.warp, hash: hash),
            detail: "zoom \(zoom)\(auto ? " (auto)" : ""), \(resampling) → warped.tif (\(window.width) × \(window.height) px)",
            skippedDetail: "zoom \(zoom) → warped.tif", source: source, sourceIsRecorded: g.current, zoom: zoom)
    }

    func run(_ plan: PlannedStage, in work: MapWork) throws -> String {
        guard plan.source != nil, let zoom = plan.zoom else { throw PipelineError(.notPlanned, "the warp stage was not planned") }
        let map = work.map
        // The plan read only the scan's header: the same source again, now with its pixels
        // (checked to decode, held in memory when small) and the fit's pins.
        let source = try
            (plan.sourceIsRecorded
            ? work.georeference.recordedSource(readingPixels: true)
            : work.georeference.sourceInMemory(readingPixels: true)).removingColor(map.removeColor)
        try FileManager.default.createDirectory(atPath: work.folder, withIntermediateDirectories: true)
        for warning in source.warnings(making: .warp) { work.log("warning: map '\(map.name)': \(warning)") }
        let label = "\(map.name) warp", progress = work.progress
        let resampling = map.warp.resampling ?? .default
        var job = WarpJob(source: source, zoom: zoom, resampling: resampling, jobs: work.jobs)
        // The scan, not the georef.vrt a duplicated shard may rename over with the same bytes.
        job.watchedInputs = [map.input]
        let result = try job.run(output: work.warpedPath) { done, total in progress?(label, done, total) }
        try work.record(key: plan.key, hash: plan.hash, outputs: [work.warpedPath], zoom: zoom)
        let auto = map.warp.zoom == nil && work.defaultWarpZoom == nil
        let paper = source.removal.map { ", paper \($0.color.hex) removed" } ?? ""
        return String(
            format: "zoom %d%@, %@%@ → warped.tif (%d × %d px, grid error ≤ %.3f px)", zoom, auto ? " (auto)" : "",
            resampling.name, paper, result.width, result.height, result.worstGridError)
    }

    /// The warp zoom: `warp.zoom`, else the tile max zoom, else the zoom nearest the native
    /// resolution.
    func warpZoom(source: WarpSource, in work: MapWork) throws -> (zoom: Int, auto: Bool) {
        if let z = work.map.warp.zoom ?? work.defaultWarpZoom { return (z, false) }
        return (try source.autoZoom(tileSize: work.map.tile.settings.tileSize), true)
    }

    /// What a map cut from its scan in another tile matrix set depends on before its tile
    /// options, in place of this stage's hash (it has no warp stage, ``MapWork/steps``): the
    /// georeference's hash, the warp kernel (its tiles' default) and `remove_color:`.
    static func scanHash(georeference: String, map: MapSpec) -> String {
        var h = ContentHash()
        h.update("scan/1")
        h.update(georeference)
        h.update((map.warp.resampling ?? .default).name)
        if let removeColor = map.removeColor { h.update("remove_color " + PipelineHashing.json(removeColor)) }
        return h.finalize()
    }

    /// The stage hash: the georeference's hash, the zoom and the kernel, and `remove_color:`
    /// when there is one (a map without it keeps the hash it had before the section existed).
    static func hash(georeference: String, zoom: Int, resampling: Resampling, removeColor: RemoveColorOptions? = nil) -> String {
        var h = ContentHash()
        h.update("warp/1")
        h.update(georeference)
        h.update("zoom \(zoom)")
        h.update(resampling.name)
        if let removeColor { h.update("remove_color " + PipelineHashing.json(removeColor)) }
        return h.finalize()
    }
}
