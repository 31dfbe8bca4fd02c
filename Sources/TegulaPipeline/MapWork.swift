import Foundation
import TegulaGeometry
import TegulaGeoreference
import TegulaPyramid
import TegulaScan
import TegulaTileset

/// What one stage did.
public struct StageOutcome: Sendable, Equatable {
    /// Which stage.
    public var stage: Stage
    /// True when the stage's hash matched the manifest and its outputs existed.
    public var skipped: Bool
    /// One line: what was written, or why nothing was.
    public var detail: String
}

/// One map's work folder and what the stages share there: the map, its manifest (loaded once,
/// saved after each stage), threads, the log and progress.
final class MapWork: @unchecked Sendable {
    /// The map, paths absolute.
    let map: MapSpec
    /// `<work>/<map name>`.
    let folder: String
    /// How its scan is opened (the pipeline's resolver).
    let scans: any ScanOpener
    /// Max zoom to warp at when `warp.zoom` is not given (the tile or composite max zoom).
    let defaultWarpZoom: Int?
    let jobs: Int
    let log: @Sendable (String) -> Void
    let progress: (@Sendable (String, Int, Int) -> Void)?
    /// What the work folder records.
    private(set) var manifest: Manifest
    /// Digests of input files, by stamp (saved in the manifest).
    let digests: FileDigests
    /// The map's part of the joint fit, when it is tied to others.
    var tied: SheetFit?

    var warpedPath: String { folder + "/warped.tif" }

    init(
        map: MapSpec, folder: String, scans: any ScanOpener, defaultWarpZoom: Int?, jobs: Int,
        log: @escaping @Sendable (String) -> Void, progress: (@Sendable (String, Int, Int) -> Void)?
    ) {
        self.map = map
        self.folder = folder
        self.scans = scans
        self.defaultWarpZoom = defaultWarpZoom
        self.jobs = jobs
        self.log = log
        self.progress = progress
        manifest = Manifest.load(folder: folder)
        digests = FileDigests(stamps: manifest.files ?? [:])
    }

    /// The georeference stage of this map.
    var georeference: GeoreferenceStep { GeoreferenceStep(map: map, folder: folder, digests: digests, scans: scans, tied: tied) }

    /// The map's own stages, in order. A map without an output of its own is only
    /// georeferenced (its fit report): the composite warps it from the scan. A map cut in
    /// another tile matrix set (`tile.tms:`) has no warp stage: its tiles are cut from the scan
    /// (``TileStep/source(in:)``), so a Web Mercator `warped.tif` would be read by nothing.
    var steps: [any MapStage] {
        guard let output = map.output else { return [georeference] }
        let tile = TileStep(options: map.tile, output: output)
        return map.tile.tileMatrixSet == .webMercatorQuad ? [georeference, WarpStep(), tile] : [georeference, tile]
    }

    /// Run `steps`, each only when selected: unchanged stages are skipped (unless `force`); a
    /// stage run alone reads its predecessors' recorded outputs. A stage's error is thrown as a
    /// ``MapFailure`` naming the map and the stage.
    func run(_ steps: [any MapStage], only: Stage?, force: Bool, report: (StageOutcome) -> Void) throws {
        var previous: PlannedStage?
        for (i, step) in steps.enumerated() {
            let active = only ?? step.stage
            do {
                guard only == nil || only == step.stage else {
                    if let only, i + 1 < steps.count, steps[i + 1].stage == only {
                        previous = try recordedPlan(step.stage)
                    }
                    continue
                }
                var plan = try step.plan(after: previous, in: self)
                if plan.current && !force {
                    report(StageOutcome(stage: step.stage, skipped: true, detail: plan.skippedDetail))
                } else {
                    let line = try step.run(plan, in: self)
                    plan.current = true
                    // A plan may leave the hash to the run (see GeoreferenceStep); the next
                    // stage chains on the hash that was recorded.
                    plan.hash = manifest.stages[plan.key]?.hash ?? plan.hash
                    report(StageOutcome(stage: step.stage, skipped: false, detail: line))
                }
                previous = plan
            } catch {
                throw MapFailure(map: map.name, stage: active, message: "\(error)", underlying: error)
            }
        }
    }

    /// A finished stage as the next one sees it: its recorded hash and zoom. An error naming the
    /// stage to run when it has no record or its outputs are gone; a warning when its inputs
    /// changed since.
    func recordedPlan(_ stage: Stage) throws -> PlannedStage {
        switch stage {
        case .georeference:
            guard let r = manifest[.georeference], r.outputs.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) else {
                throw PipelineError(
                    .missingRecord,
                    "no recorded georeference output in \(folder); run the georeference stage first (tegula run FILE --stage georeference)")
            }
            if r.hash != georeference.hash() {
                log("warning: map '\(map.name)': the georeference inputs changed since \(folder)/georef.vrt was written; using the recorded output")
            }
            return PlannedStage(stage: stage, key: stage.rawValue, hash: r.hash, current: true, detail: "", skippedDetail: "")
        case .warp, .tile:
            guard let r = manifest[.warp], FileManager.default.fileExists(atPath: warpedPath) else {
                throw PipelineError(
                    .missingRecord, "no recorded warp output (\(warpedPath)); run the warp stage first (tegula run FILE --stage warp)")
            }
            return PlannedStage(stage: .warp, key: Stage.warp.rawValue, hash: r.hash, current: true, detail: "", skippedDetail: "", zoom: r.zoom)
        }
    }

    /// Record a finished stage and save the manifest.
    func record(key: String, hash: String, outputs: [String], zoom: Int? = nil, zooms: ZoomRange? = nil) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        manifest.stages[key] = Manifest.Record(hash: hash, outputs: outputs, zoom: zoom, zooms: zooms, finished: Manifest.now())
        manifest.files = digests.all
        try manifest.save(folder: folder)
    }
}
