import Foundation
import TegulaCluster
import TegulaComposite
import TegulaGDAL
import TegulaGeometry
import TegulaPyramid
import TegulaTileset
import TegulaWarp

/// How to run a pipeline: one stage or all, forced or incremental, how many threads, and which
/// shard of the collection.
public struct RunOptions: Sendable {
    /// Only this stage (reading the previous stage's recorded output); nil = all stages.
    public var stage: Stage?
    /// Rerun stages even when unchanged.
    public var force: Bool
    /// Worker threads per stage.
    public var jobs: Int
    /// Run only this shard's maps and composite part (the reduce merges the parts later); nil =
    /// the whole collection here, composite included.
    public var shard: Shard?

    public init(
        stage: Stage? = nil, force: Bool = false, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        shard: Shard? = nil
    ) {
        self.stage = stage
        self.force = force
        self.jobs = jobs
        self.shard = shard
    }
}

/// What happened to one map.
public struct MapResult: Sendable {
    /// The map's name.
    public var name: String
    /// Each stage run, in order.
    public var outcomes: [StageOutcome]
}

/// Runs the maps of a pipeline, then its composite. Maps run one after another, each stage on
/// all `jobs` threads; a map that fails is reported and the others still run, and the run
/// throws ``BatchFailure`` at the end. With a shard (``RunOptions/shard``) it runs only the maps
/// and the composite part the ``ShardPlan`` gives that shard; ``reduce(shards:)`` merges the
/// parts. Without one it runs everything, the composite as one part then its reduce, the very
/// code the shards run, so the tiles are the same.
public final class PipelineRunner: Sendable {
    /// The loaded pipeline.
    public let pipeline: Pipeline
    /// Stage, force, threads, shard.
    public let options: RunOptions
    let log: @Sendable (String) -> Void
    let progress: (@Sendable (String, Int, Int) -> Void)?

    /// Composite blocks per committed pack (what a killed shard can lose).
    let blocksPerPack: Int

    /// - Parameters: log: one line per stage and per warning; progress: (label, done, total).
    public convenience init(
        pipeline: Pipeline, options: RunOptions, log: @escaping @Sendable (String) -> Void,
        progress: (@Sendable (String, Int, Int) -> Void)? = nil
    ) {
        self.init(pipeline: pipeline, options: options, log: log, progress: progress, blocksPerPack: 64)
    }

    init(
        pipeline: Pipeline, options: RunOptions, log: @escaping @Sendable (String) -> Void,
        progress: (@Sendable (String, Int, Int) -> Void)?, blocksPerPack: Int
    ) {
        self.pipeline = pipeline
        self.options = options
        self.log = log
        self.progress = progress
        self.blocksPerPack = blocksPerPack
    }

    /// The work folder of one map, with its manifest loaded.
    func work(for map: MapSpec) -> MapWork {
        let composite = pipeline.spec.composite
        let warpDefault = map.output != nil ? (map.tile.settings.zooms.max ?? composite?.tile.settings.zooms.max) : composite?.tile.settings.zooms.max
        let work = MapWork(
            map: map, folder: pipeline.workFolder(for: map), scans: pipeline.inputs, defaultWarpZoom: warpDefault,
            jobs: options.jobs, log: log, progress: progress)
        work.tied = pipeline.series.tied[map.name]
        return work
    }

    /// The composite's folder: its manifest and the shards' parts.
    var compositeFolder: String { pipeline.workFolder + "/.composite" }

    /// With `--stage`, why nothing ran when none of `maps` has the stage chosen (and, for the
    /// tile stage, no composite draws them); nil when one has.
    func noneHas(_ stage: Stage, among maps: [Int]) -> String? {
        guard !maps.contains(where: { i in work(for: pipeline.spec.maps[i]).steps.contains { $0.stage == stage } }) else { return nil }
        if stage == .tile, pipeline.spec.composite != nil { return nil }
        let composite =
            pipeline.spec.composite == nil
            ? "" : ": maps without an output: are drawn into the composite, which warps and tiles them in --stage tile"
        return "--stage \(stage.rawValue): none of the maps has a \(stage.rawValue) stage of its own\(composite); nothing was run"
    }

    /// Run. Returns each map's outcomes; throws ``BatchFailure`` when any map (or the composite) failed.
    @discardableResult
    public func run() throws -> [MapResult] {
        let shard = options.shard ?? .single
        let composite = pipeline.spec.composite
        let plan =
            shard.count > 1 || composite != nil
            ? ShardPlan(pipeline: pipeline, survey: CollectionSurvey(runner: self, jobs: options.jobs), count: shard.count) : nil
        // The tone of the whole collection, before any stage (the index reports it), unless the
        // quality gate stops the run.
        var tone: CompositeTone?
        var toneFailure: MapFailure?
        let stops = pipeline.spec.quality.flatMap { pipeline.series.gateStop($0) } != nil
        if let composite, let split = plan?.composite, !stops, options.stage == nil || options.stage == .tile,
            Self.gridRefusal(composite, layout: split.layout) == nil
        {
            do { tone = try self.tone(composite, split: split, announce: true) } catch {
                toneFailure = MapFailure(map: "composite", stage: .tile, message: "tone matching: \(error)", underlying: error)
            }
        }
        let index = try writeIndexAndGate(tone: tone)
        let mine = plan?.maps(of: shard.index) ?? Array(pipeline.spec.maps.indices)
        if let plan, options.shard != nil {
            log(
                "shard \(shard): \(mine.count) of \(pipeline.spec.maps.count) maps"
                    + (plan.composite.map { ", composite part \(CompositeParts.name(shard)) (\($0.blockRange(of: shard.index).count) blocks)" } ?? "")
            )
        }
        var results: [MapResult] = []
        var failures: [MapFailure] = []
        for i in mine {
            let map = pipeline.spec.maps[i]
            let work = work(for: map)
            var outcomes: [StageOutcome] = []
            do {
                try work.run(work.steps, only: options.stage, force: options.force) { o in
                    report(map, o)
                    outcomes.append(o)
                }
                results.append(MapResult(name: map.name, outcomes: outcomes))
            } catch {
                let f = error as? MapFailure ?? MapFailure(map: map.name, stage: nil, message: "\(error)", underlying: error)
                log("error: \(f)")
                failures.append(f)
            }
        }
        if let only = options.stage, let why = noneHas(only, among: mine) { log(why) }
        if let composite, let plan, options.stage == nil || options.stage == .tile {
            if let toneFailure {
                log("error: \(toneFailure)")
                failures.append(toneFailure)
            } else if let split = plan.composite {
                do {
                    try runComposite(composite, split: split, shard: shard, tones: tone?.corrections, reduce: options.shard == nil)
                    if options.shard == nil { try index.write(to: SheetIndex.path(besideComposite: composite.output)) }
                } catch {
                    let f = MapFailure(map: "composite", stage: .tile, message: "\(error)", underlying: error)
                    log("error: \(f)")
                    failures.append(f)
                }
            } else {
                log("composite \(composite.output) not written: \(plan.failures.count) map(s) failed")
                let others = plan.failures.filter { !mine.contains($0.index) }
                if !others.isEmpty {
                    failures.append(
                        MapFailure(
                            map: "composite", stage: .tile,
                            message: "cannot plan "
                                + others.map { "map '\(pipeline.spec.maps[$0.index].name)': \($0.message)" }.joined(separator: "; ")))
                }
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

    /// This shard's part of the composite, then (on one machine) the reduce; nothing when the
    /// composite was already reduced from the same inputs (by any number of shards).
    func runComposite(_ composite: CompositeSpec, split: CompositeSplit, shard: Shard, tones: [ToneCorrection]?, reduce: Bool) throws {
        if let why = Self.gridRefusal(composite, layout: split.layout) {
            throw pipeline.document.error([.key("composite"), .key("tile"), .key("tms")], why)
        }
        let manifest = Manifest.load(folder: compositeFolder)
        if !options.force, manifest.stages["composite"]?.hash == split.inputsHash, Tileset.isTileset(at: composite.output) {
            log("composite:  skipped (unchanged) → \(composite.output)")
            return
        }
        let parts = CompositeParts(workFolder: pipeline.workFolder)
        let label = "composite part", progress = progress
        let line = try CompositePartBuilder(
            split: split, shard: shard, parts: parts, builder: compositeBuilder(composite, split: split, tones: tones),
            blocksPerPack: blocksPerPack, force: options.force,
            progress: { d, t in progress?(label, d, t) }
        ).run()
        log("composite:  " + line)
        if reduce {
            try self.reduce(composite, split: split, parts: parts, records: CompositeReduce.check(parts.records(), split: split, parts: parts))
        }
    }

    /// Why the composite cannot be cut in its tile matrix set at the layout's zooms, in one line,
    /// or nil (always nil in WebMercatorQuad).
    static func gridRefusal(_ composite: CompositeSpec, layout: CompositeLayout) -> String? {
        guard let grid = layout.grid else { return nil }
        return layout.gridProblem
            ?? CompositeBuilder.gridRefusal(grid, zooms: layout.zooms, settings: composite.tile.settings, output: composite.output)
    }

    /// The composite's builder: the maps' scans fitted in memory, pixels read on first use, each
    /// map's warped pixels corrected by its `tones` entry (nil: as warped).
    func compositeBuilder(_ composite: CompositeSpec, split: CompositeSplit, tones: [ToneCorrection]?) -> CompositeBuilder {
        let maps = pipeline.spec.maps, grid = split.layout.grid
        let sources = LayerSources { [self] i in
            let source = try work(for: maps[i]).georeference.sourceInMemory().withSharedPixels().removingColor(maps[i].removeColor)
            // In another set each scan is warped straight into the set's CRS, as a map's own tiles are.
            return try grid.map { try source.reprojected(to: try CRS($0.crs)) } ?? source
        }
        let l = split.layout, settings = composite.tile.settings
        return CompositeBuilder(
            maxZoom: l.zooms.max, blockZoom: l.blockZoom, tilePixels: l.tilePixels,
            resampling: settings.resampling, jobs: options.jobs, encoding: settings.encoding, seam: composite.seam,
            stacking: composite.order.ranks(of: maps.map(\.name)), tones: tones, grid: grid, sources: sources)
    }

    /// `--stage reduce`: merge the shards' parts into the composite. The shard count comes from
    /// `shards`, else from the parts found (all must agree).
    @discardableResult
    public func reduce(shards: Int?) throws -> String {
        let (composite, split, parts, records) = try reducible(shards: shards)
        let line = try reduce(composite, split: split, parts: parts, records: records)
        // The tone the shards blended with (stored by shard 0, else solved again: the same).
        let tone = try tone(composite, split: split, announce: false)
        try SheetIndex(figures: try SheetIndex.figures(pipeline, tone: tone), pipeline: pipeline)
            .write(to: SheetIndex.path(besideComposite: composite.output))
        return line
    }

    /// The composite, its split for the parts' shard count, and the checked parts.
    func reducible(shards: Int?) throws -> (CompositeSpec, CompositeSplit, CompositeParts, [PartRecord]) {
        guard let composite = pipeline.spec.composite else {
            throw ShardError(.noComposite, at: pipeline.file, "the pipeline has no composite: nothing to reduce")
        }
        let parts = CompositeParts(workFolder: pipeline.workFolder)
        let found = parts.records()
        let counts = Set(found.compactMap { $0.record?.shards })
        guard let n = shards ?? (counts.count == 1 ? counts.first : nil) else {
            if counts.isEmpty {
                throw ShardError(.missingParts, at: parts.folder, "reduce refused: no parts (run tegula run FILE --shard I/N for every I first)")
            }
            throw ShardError(
                .staleParts, at: parts.folder,
                "reduce refused: parts for \(counts.sorted().map(String.init).joined(separator: " and ")) shards; pass --shards N")
        }
        let plan = ShardPlan(pipeline: pipeline, survey: CollectionSurvey(runner: self, jobs: options.jobs), count: n)
        guard let split = plan.composite else {
            throw ShardError(
                .noComposite, at: pipeline.file,
                "the composite cannot be planned: "
                    + plan.failures.map { "map '\(pipeline.spec.maps[$0.index].name)': \($0.message)" }.joined(separator: "; "))
        }
        return (composite, split, parts, try CompositeReduce.check(found, split: split, parts: parts))
    }

    /// What `--stage reduce` would do: the parts it would merge, or its refusal.
    public func checkReduce(shards: Int?) throws -> String {
        let (composite, split, parts, records) = try reducible(shards: shards)
        return "reduce: \(records.count) parts of \(split.ranges.count) from \(parts.folder), \(records.reduce(0) { $0 + $1.tiles }) tiles at zooms "
            + "\(split.cutZoom)-\(split.layout.zooms.max); zooms \(split.layout.zooms.min)-\(split.cutZoom - 1) to build → \(composite.output)"
    }

    @discardableResult
    func reduce(_ composite: CompositeSpec, split: CompositeSplit, parts: CompositeParts, records: [PartRecord]) throws -> String {
        let l = split.layout, settings = composite.tile.settings, e = settings.encoding
        let name = composite.tile.name ?? ((pipeline.file as NSString).lastPathComponent as NSString).deletingPathExtension
        let metadata = TilesetMetadata(
            name: name, format: e.format, bounds: WebMercator.unproject(l.bounds), zooms: l.zooms,
            tileSize: settings.tileSize, scale: settings.scale,
            attribution: composite.tile.attribution,
            description: "composite of \(pipeline.spec.maps.count) maps, \(composite.joining)")
        let label = "composite reduce", progress = progress
        let r = try CompositeReduce(
            split: split, parts: parts, output: composite.output, metadata: metadata, encoding: e,
            progress: { d, t in progress?(label, d, t) }
        ).run(records)
        var m = Manifest.load(folder: compositeFolder)
        m.stages["composite"] = Manifest.Record(
            hash: split.inputsHash, outputs: [composite.output], zooms: l.zooms, finished: Manifest.now())
        try FileManager.default.createDirectory(atPath: compositeFolder, withIntermediateDirectories: true)
        try m.save(folder: compositeFolder)
        // The parts are merged: they go (records first, so a half-removed part is never taken for whole).
        for record in records {
            let shard = Shard(index: record.shard, count: record.shards)!
            unlink(parts.recordPath(shard))
            try? FileManager.default.removeItem(atPath: parts.packFolder(shard))
        }
        let line = String(
            format: "%d maps in %d part%@ (cut at zoom %d), %d tiles copied, %d built above the cut (%.1f MB) → %@",
            pipeline.spec.maps.count, r.parts, r.parts == 1 ? "" : "s", split.cutZoom, r.copied, r.built,
            Double(r.bytes) / 1e6, composite.output)
        log("composite:  " + line)
        return line
    }
}
