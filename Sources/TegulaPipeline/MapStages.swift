import Foundation
import TegulaBundle
import TegulaGeometry
import TegulaPyramid
import TegulaWarp

/// What one stage did.
public struct StageOutcome: Sendable, Equatable {
    /// Which stage.
    public var stage: Stage
    /// True when the stage's hash matched the manifest and its outputs existed.
    public var skipped: Bool
    /// One line: what was written, or why nothing was.
    public var detail: String
}

/// Runs the stages of one map in its work folder, each reading the previous stage's recorded
/// output and skipping itself when its inputs and options are unchanged.
public final class MapStages: @unchecked Sendable {
    /// The map, paths absolute.
    public let map: MapSpec
    /// `<work>/<map name>`.
    public let folder: String
    /// Max zoom to warp at when `warp.zoom` is not given (the tile or composite max zoom).
    let defaultWarpZoom: Int?
    let jobs: Int
    let log: @Sendable (String) -> Void
    let progress: (@Sendable (String, Int, Int) -> Void)?
    /// What the work folder records (reloaded at creation, saved after each stage).
    public private(set) var manifest: Manifest
    let georeference: GeoreferenceStep

    var warpedPath: String { folder + "/warped.tif" }
    var compositeTilesPath: String { folder + "/composite-tiles" }

    init(map: MapSpec, folder: String, defaultWarpZoom: Int?, jobs: Int,
         log: @escaping @Sendable (String) -> Void, progress: (@Sendable (String, Int, Int) -> Void)?) {
        self.map = map
        self.folder = folder
        self.defaultWarpZoom = defaultWarpZoom
        self.jobs = jobs
        self.log = log
        self.progress = progress
        manifest = Manifest.load(folder: folder)
        georeference = GeoreferenceStep(map: map, folder: folder)
    }

    // MARK: georeference

    /// Write `georef.vrt` (and mask, report, residual picture) unless unchanged.
    func runGeoreference(force: Bool) throws -> StageOutcome {
        let hash = georeference.hash()
        if !force && manifest.isCurrent(.georeference, hash: hash) {
            return StageOutcome(stage: .georeference, skipped: true, detail: georeference.summary())
        }
        let outputs = try georeference.run()
        try record(.georeference, hash: hash, outputs: outputs)
        let written = outputs.isEmpty ? "nothing to write" : outputs.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")
        let fit = map.georeference?.gcps == nil ? "" : GCPGeoreferencing.recordedReport(step: georeference).map { "; fitted " + GCPGeoreferencing.describe($0) } ?? ""
        return StageOutcome(stage: .georeference, skipped: false, detail: "\(georeference.summary())\(fit) → \(written)")
    }

    /// The georeference stage's recorded hash; an error naming the stage to run when missing.
    func georeferenceRecord() throws -> Manifest.Record {
        guard let r = manifest[.georeference], r.outputs.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) else {
            throw StageError("no recorded georeference output in \(folder); run the georeference stage first (tegula run FILE --stage georeference)")
        }
        if r.hash != georeference.hash() {
            log("warning: map '\(map.name)': the georeference inputs changed since \(folder)/georef.vrt was written; using the recorded output")
        }
        return r
    }

    // MARK: warp

    /// The warp zoom: `warp.zoom`, else the tile max zoom, else the zoom nearest the native
    /// resolution.
    func warpZoom(source: WarpSource) throws -> (zoom: Int, auto: Bool) {
        if let z = map.warp.zoom ?? defaultWarpZoom { return (z, false) }
        return (try source.autoZoom(tileSize: map.tile.tileSize ?? 256), true)
    }

    func warpHash(georeferenceHash: String, zoom: Int) -> String {
        var h = ContentHash()
        h.update("warp/1")
        h.update(georeferenceHash)
        h.update("zoom \(zoom)")
        h.update(map.warp.resampling?.rawValue ?? "bilinear")
        return h.finalize()
    }

    /// Warp the recorded georeference onto the EPSG:3857 grid: `warped.tif`.
    func runWarp(force: Bool) throws -> StageOutcome {
        let g = try georeferenceRecord()
        let source = try georeference.recordedSource()
        let (zoom, auto) = try warpZoom(source: source)
        let hash = warpHash(georeferenceHash: g.hash, zoom: zoom)
        if !force && manifest.isCurrent(.warp, hash: hash) {
            return StageOutcome(stage: .warp, skipped: true, detail: "zoom \(zoom) → warped.tif")
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if source.exceedsMercatorLimit {
            log("warning: map '\(map.name)': the scan reaches beyond ±85.0511°; the warp is clipped there")
        }
        let label = "\(map.name) warp", progress = progress
        let result = try WarpJob(source: source, zoom: zoom, resampling: map.warp.resampling ?? .bilinear, jobs: jobs)
            .run(output: warpedPath) { done, total in progress?(label, done, total) }
        try record(.warp, hash: hash, outputs: [warpedPath], zoom: zoom)
        return StageOutcome(stage: .warp, skipped: false, detail: String(
            format: "zoom %d%@, %@ → warped.tif (%d × %d px, grid error ≤ %.3f px)", zoom, auto ? " (auto)" : "",
            map.warp.resampling?.rawValue ?? "bilinear", result.width, result.height, result.worstGridError))
    }

    /// The warp stage's record; an error naming the stage to run when missing.
    func warpRecord() throws -> Manifest.Record {
        guard let r = manifest[.warp], FileManager.default.fileExists(atPath: warpedPath) else {
            throw StageError("no recorded warp output (\(warpedPath)); run the warp stage first (tegula run FILE --stage warp)")
        }
        return r
    }

    // MARK: tile

    func tileHash(warpHash: String, options: TileOptions, output: String) -> String {
        var h = ContentHash()
        h.update("tile/1")
        h.update(warpHash)
        h.update(PipelineHashing.json(options))
        h.update(output)
        h.update(map.name)
        return h.finalize()
    }

    /// Cut the map's own tileset from `warped.tif`.
    func runTile(force: Bool) throws -> StageOutcome {
        guard let output = map.output else {
            return StageOutcome(stage: .tile, skipped: false, detail: "nothing to do: no output of its own (the map goes into the composite)")
        }
        return try tile(key: Stage.tile.rawValue, options: map.tile, output: output, force: force)
    }

    /// Cut the tiles this map contributes to a composite, into `composite-tiles/` (a PNG folder).
    func runCompositeTiles(options: TileOptions, force: Bool) throws -> StageOutcome {
        var o = options
        o.format = .png
        o.layout = .xyz
        return try tile(key: "composite-tiles", options: o, output: compositeTilesPath, force: force)
    }

    func tile(key: String, options: TileOptions, output: String, force: Bool) throws -> StageOutcome {
        let w = try warpRecord()
        let hash = tileHash(warpHash: w.hash, options: options, output: output)
        if !force, let r = manifest.stages[key], r.hash == hash, Tileset.isTileset(at: output) {
            return StageOutcome(stage: .tile, skipped: true, detail: "zooms \(r.minZoom ?? 0)-\(r.zoom ?? 0) → \(output)")
        }
        let source = try WarpInput(path: warpedPath).resolve()
        var job = TileJob(source: source, output: output, name: map.name)
        options.apply(to: &job, defaultMaxZoom: w.zoom)
        job.jobs = jobs
        if map.georeference?.gcps != nil, let report = GCPGeoreferencing.recordedReport(step: georeference) {
            // warped.tif only knows its rectangle; the fit knows the scan's outline and its pins.
            job.addGCPPins(report.pins)
            job.setFootprint(report.footprint)
        }
        let zooms = try job.zoomRange()
        if let z = w.zoom, zooms.max > z {
            log("warning: map '\(map.name)': tiles up to zoom \(zooms.max) from a warp at zoom \(z) are upsampled; set warp.zoom to \(zooms.max)")
        }
        try FileManager.default.createDirectory(atPath: (output as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        let label = "\(map.name) tile", progress = progress
        let stats = try job.run { s, total in progress?(label, s.positionsDone, total) }
        manifest.stages[key] = Manifest.Record(hash: hash, outputs: [output], zoom: zooms.max, minZoom: zooms.min,
                                               finished: Manifest.now())
        try manifest.save(folder: folder)
        return StageOutcome(stage: .tile, skipped: false, detail: String(
            format: "zooms %d-%d, %d tiles (%.1f MB), %d empty skipped → %@", zooms.min, zooms.max,
            stats.tilesWritten, Double(stats.bytesWritten) / 1e6, stats.tilesEmpty, output))
    }

    // MARK: manifest

    func record(_ stage: Stage, hash: String, outputs: [String], zoom: Int? = nil) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        manifest[stage] = Manifest.Record(hash: hash, outputs: outputs, zoom: zoom, minZoom: nil, finished: Manifest.now())
        try manifest.save(folder: folder)
    }
}
