import Foundation
import TegulaPyramid

/// How to run a pipeline: one stage or all, forced or incremental, how many threads.
public struct RunOptions: Sendable {
    /// Only this stage (reading the previous stage's recorded output); nil = all stages.
    public var stage: Stage?
    /// Rerun stages even when unchanged.
    public var force: Bool
    /// Worker threads per stage.
    public var jobs: Int

    public init(stage: Stage? = nil, force: Bool = false, jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.stage = stage
        self.force = force
        self.jobs = jobs
    }
}

/// What happened to one map.
public struct MapResult: Sendable {
    /// The map's name.
    public var name: String
    /// Each stage run, in order.
    public var outcomes: [StageOutcome]
}

/// Runs every map of a pipeline, then the composite. Maps run one after another, each stage on
/// all `jobs` threads; a map that fails is reported and the others still run, and the run
/// throws ``BatchFailure`` at the end.
public final class PipelineRunner: Sendable {
    /// The loaded pipeline.
    public let pipeline: Pipeline
    /// Stage, force, threads.
    public let options: RunOptions
    let log: @Sendable (String) -> Void
    let progress: (@Sendable (String, Int, Int) -> Void)?

    /// - Parameters: log: one line per stage and per warning; progress: (label, done, total).
    public init(pipeline: Pipeline, options: RunOptions, log: @escaping @Sendable (String) -> Void,
                progress: (@Sendable (String, Int, Int) -> Void)? = nil) {
        self.pipeline = pipeline
        self.options = options
        self.log = log
        self.progress = progress
    }

    /// The work folder of one map, with its manifest loaded.
    func work(for map: MapSpec) -> MapWork {
        let composite = pipeline.spec.composite
        let warpDefault = map.output != nil ? (map.tile.maxZoom ?? composite?.tile.maxZoom) : composite?.tile.maxZoom
        return MapWork(map: map, folder: pipeline.workFolder(for: map), defaultWarpZoom: warpDefault,
                       jobs: options.jobs, log: log, progress: progress)
    }

    /// Run. Returns each map's outcomes; throws ``BatchFailure`` when any map (or the composite) failed.
    @discardableResult
    public func run() throws -> [MapResult] {
        var results: [MapResult] = []
        var failures: [MapFailure] = []
        let composite = pipeline.spec.composite
        var works: [String: MapWork] = [:]
        for map in pipeline.spec.maps {
            let work = work(for: map)
            works[map.name] = work
            var outcomes: [StageOutcome] = []
            do {
                try work.run(work.steps, only: options.stage, force: options.force) { o in
                    report(map, o)
                    outcomes.append(o)
                }
                results.append(MapResult(name: map.name, outcomes: outcomes))
            } catch {
                let f = MapFailure(map: map.name, stage: (error as? StageFailure)?.stage, message: "\(error)")
                log("error: \(f)")
                failures.append(f)
            }
        }
        if let composite, options.stage == nil || options.stage == .tile {
            if failures.isEmpty {
                let tileOptions = compositeOptions(composite.tile, maps: pipeline.spec.maps, works: works)
                for map in pipeline.spec.maps {
                    do {
                        let work = works[map.name]!
                        let step = work.compositeStep(options: TileOptionsForComposite(tileOptions))
                        try work.run([WarpStep(), step], only: .tile, force: options.force) { c in
                            report(map, StageOutcome(stage: .tile, skipped: c.skipped, detail: "(for the composite) " + c.detail))
                        }
                    } catch {
                        let f = MapFailure(map: map.name, stage: .tile, message: "composite tiles: \(error)")
                        log("error: \(f)")
                        failures.append(f)
                    }
                }
            }
            if failures.isEmpty {
                do { try runComposite(composite, works: works) } catch {
                    let f = MapFailure(map: "composite", stage: .tile, message: "\(error)")
                    log("error: \(f)")
                    failures.append(f)
                }
            } else {
                log("composite \(composite.output) not written: \(failures.count) map(s) failed")
            }
        }
        if !failures.isEmpty {
            let failed = Set(failures.map(\.map))
            throw BatchFailure(failures: failures, finished: results.map(\.name).filter { !failed.contains($0) })
        }
        return results
    }

    func report(_ map: MapSpec, _ o: StageOutcome) {
        let pad = o.stage.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)
        log("\(map.name): \(pad) \(o.skipped ? "skipped (unchanged): " : "")\(o.detail)")
    }

    /// The composite's tile options with the max zoom filled in: given, else the highest warp
    /// zoom among the maps (read from their manifests).
    func compositeOptions(_ t: TileOptions, maps: [MapSpec], works: [String: MapWork]) -> TileOptions {
        var o = t
        if o.maxZoom == nil {
            o.maxZoom = maps.compactMap { works[$0.name]?.manifest[.warp]?.zoom }.max()
        }
        return o
    }

    /// Blend the maps' composite tiles into the composite output, unless unchanged.
    func runComposite(_ composite: CompositeSpec, works: [String: MapWork]) throws {
        let folder = pipeline.workFolder + "/.composite"
        let manifest = Manifest.load(folder: folder)
        var h = ContentHash()
        h.update("composite/1")
        h.update(PipelineHashing.json(composite.tile))
        h.update(composite.output)
        var layers: [String] = []
        for map in pipeline.spec.maps {
            let s = works[map.name]!
            guard let r = s.manifest.stages["composite-tiles"] else {
                throw StageError(.missingRecord, "map '\(map.name)' has no composite tiles; run the tile stage")
            }
            h.update(r.hash)
            layers.append(s.compositeTilesPath)
        }
        let hash = h.finalize()
        if !options.force, manifest.stages["composite"]?.hash == hash, FileManager.default.fileExists(atPath: composite.output) {
            log("composite:  skipped (unchanged) → \(composite.output)")
            return
        }
        let label = "composite", progress = progress
        let name = ((pipeline.file as NSString).lastPathComponent as NSString).deletingPathExtension
        let r = try Compositor.run(layers: layers, output: composite.output, name: name, options: composite.tile,
                                   jobs: options.jobs) { done, total in progress?(label, done, total) }
        var m = manifest
        m.stages["composite"] = Manifest.Record(hash: hash, outputs: [composite.output], zoom: nil, minZoom: nil, finished: Manifest.now())
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try m.save(folder: folder)
        log(String(format: "composite:  %d maps, %d tiles (%d blended, %.1f MB) → %@", layers.count, r.tiles, r.blended,
                   Double(r.bytes) / 1e6, composite.output))
    }
}
