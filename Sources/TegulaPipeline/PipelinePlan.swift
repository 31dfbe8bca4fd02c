import Foundation
import TegulaCluster
import TegulaComposite
import TegulaGeometry
import TegulaPyramid
import TegulaTileset

/// What `tegula run --dry-run` prints: for each map and stage, whether it would run or is
/// unchanged, with zooms, sizes, tile counts and outputs. Computing it writes nothing (GCP fits
/// and footprints are computed in memory).
public struct PipelinePlan: Sendable {
    /// One stage of one map.
    public struct StagePlan: Sendable {
        /// Which stage.
        public var stage: Stage
        /// "would run", "unchanged" or "not selected".
        public var status: String
        /// Zooms, sizes, counts and outputs.
        public var detail: String
    }

    /// One map.
    public struct MapPlan: Sendable {
        /// The map's name, scan and work folder.
        public var name: String
        public var input: String
        public var folder: String
        /// Its stages, in order (empty after an error in the first).
        public var stages: [StagePlan]
        /// Why the map cannot run, when it cannot.
        public var error: String?
        /// Planned warp zoom (for the composite line).
        var warpZoom: Int?
    }

    /// The pipeline file and its work folder.
    public var file: String
    public var work: String
    /// One plan per map, in file order.
    public var maps: [MapPlan]
    /// The composite's line, when the file has one.
    public var composite: String?
    /// How N shards would share the collection, when asked (`--shards N`, `--shard I/N`).
    public var shards: ShardPlan?
    /// The shard whose maps are listed, when one is named.
    public var shard: Shard?

    /// What `ties: auto` found, the sheets placed by ties and the pairs that did not match, as a
    /// run logs them.
    public var ties: [String] = []
    /// The quality gate's verdicts, one line per failing sheet, as a run logs them (the maps
    /// it leaves out are not in ``maps``).
    public var gate: [String] = []
    /// Why a run would stop before any stage (`on_fail: stop` with a failing sheet), else nil.
    public var gateStop: String?

    /// True when some map cannot run, or the gate would stop the run.
    public var hasErrors: Bool { gateStop != nil || maps.contains { $0.error != nil } }

    /// Plan the pipeline for `options`: every map; or, with `shards` (N) or a shard in the
    /// options, the shard plan for N and the maps of the named shard only.
    public init(pipeline: Pipeline, options: RunOptions, shards: Int? = nil) {
        file = pipeline.file
        work = pipeline.workFolder
        ties = PipelinePlan.tieLines(pipeline)
        if let q = pipeline.spec.quality { (gate, gateStop) = (pipeline.series.gateLines(q), pipeline.series.gateStop(q)) }
        let runner = PipelineRunner(pipeline: pipeline, options: options, log: { _ in })
        if let n = options.shard?.count ?? shards {
            let plan = ShardPlan(pipeline: pipeline, survey: CollectionSurvey(runner: runner, jobs: options.jobs), count: n)
            self.shards = plan
            shard = options.shard
            let mine = options.shard.map { plan.maps(of: $0.index) } ?? []
            maps = mine.map { PipelinePlan.plan(runner.work(for: pipeline.spec.maps[$0]), options: options) }
            for f in plan.failures where options.shard == nil {
                let m = pipeline.spec.maps[f.index]
                maps.append(MapPlan(name: m.name, input: m.input, folder: pipeline.workFolder(for: m), stages: [], error: f.message))
            }
        } else {
            maps = pipeline.spec.maps.map { PipelinePlan.plan(runner.work(for: $0), options: options) }
        }
        if let c = pipeline.spec.composite {
            let split =
                self.shards?.composite
                ?? ShardPlan(pipeline: pipeline, survey: CollectionSurvey(runner: runner, jobs: options.jobs), count: 1).composite
            if let l = split?.layout, let why = PipelineRunner.gridRefusal(c, layout: l) {
                composite = "refused: \(why) → \(c.output)"
            } else if let l = split?.layout {
                composite =
                    "\(pipeline.spec.maps.count) maps, \(c.joining), zooms \(l.zooms.min)-\(l.zooms.max), "
                    + "\(l.blocks.count) blocks at zoom \(l.blockZoom)\(l.grid.map { " of \($0.id)" } ?? ""), png → \(c.output)"
            } else {
                composite = "cannot be planned (a map fails; see above) → \(c.output)"
            }
        }
    }

    /// The lines a run logs of the ties before any stage (``PipelineRunner/writeIndexAndGate(tone:)``).
    static func tieLines(_ pipeline: Pipeline) -> [String] {
        let found = pipeline.foundTies
        let tied = found != nil || !pipeline.spec.ties.isEmpty
        let index = tied ? (try? SheetIndex.figures(pipeline, tone: nil)).map { SheetIndex(figures: $0, pipeline: pipeline) } : nil
        return
            (found.map {
                [$0.summary(work: pipeline.workFolder, minOverlap: pipeline.spec.autoTies?.minOverlapPixels ?? 0, made: pipeline.foundTiesMade)]
            } ?? [])
            + (index?.placedByTies.map { [$0] } ?? []) + pipeline.unmatchedTieLines + ((try? pipeline.idleRejectedRows()) ?? [])
    }

    /// The planner's fold over the map's stages: each stage plans itself from the previous
    /// one's plan, exactly as in a run, and nothing is written.
    static func plan(_ work: MapWork, options: RunOptions) -> MapPlan {
        let map = work.map
        var plan = MapPlan(name: map.name, input: map.input, folder: work.folder, stages: [])
        do {
            var previous: PlannedStage?
            for step in work.steps {
                let p = try step.plan(after: previous, in: work)
                var status = p.current && !options.force ? "unchanged" : "would run"
                if let only = options.stage, only != step.stage { status = "not selected" }
                plan.stages.append(StagePlan(stage: step.stage, status: status, detail: p.detail))
                if step.stage == .warp { plan.warpZoom = p.zoom }
                if step.stage == .georeference, options.stage == .warp || options.stage == .tile {
                    _ = try work.recordedPlan(.georeference)
                }
                if step.stage == .warp, options.stage == .tile { _ = try work.recordedPlan(.warp) }
                previous = p
            }
        } catch {
            plan.error = "\(error)"
        }
        return plan
    }

    /// The plan as text, one block per map.
    public var text: String {
        var lines = ["pipeline \(file)", "work folder \(work)"] + ties + gate
        if let gateStop { lines.append("error: \(gateStop): a run stops here, before any stage") }
        for m in maps {
            lines.append("map \(m.name): \(m.input)")
            for s in m.stages {
                lines.append(
                    "  \(s.stage.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0))"
                        + "\(s.status.padding(toLength: 13, withPad: " ", startingAt: 0))\(s.detail)")
            }
            if let e = m.error { lines.append("  error: \(e)") }
        }
        if let composite { lines.append("composite: \(composite)") }
        if let shards {
            lines.append("shards: \(shards.count)" + (shard.map { ", listing shard \($0) (\(maps.count) maps)" } ?? ""))
            lines.append(shards.text)
        }
        lines.append("dry run: nothing was written")
        return lines.joined(separator: "\n")
    }
}
