import Foundation
import TegulaBundle
import TegulaGeometry
import TegulaPyramid
import TegulaWarp

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
        /// Planned max zoom and tile positions (for the composite line).
        var warpZoom: Int?
        var positions = 0
    }

    /// The pipeline file and its work folder.
    public var file: String
    public var work: String
    /// One plan per map, in file order.
    public var maps: [MapPlan]
    /// The composite's line, when the file has one.
    public var composite: String?

    /// True when some map cannot run.
    public var hasErrors: Bool { maps.contains { $0.error != nil } }

    /// Plan every map of the pipeline for `options`.
    public init(pipeline: Pipeline, options: RunOptions) {
        file = pipeline.file
        work = pipeline.workFolder
        let runner = PipelineRunner(pipeline: pipeline, options: options, log: { _ in })
        maps = pipeline.spec.maps.map { PipelinePlan.plan(runner.stages(for: $0), options: options) }
        if let c = pipeline.spec.composite {
            let zoom = c.tile.maxZoom ?? maps.compactMap(\.warpZoom).max()
            composite = "\(pipeline.spec.maps.count) maps, later over earlier, zooms \(c.tile.minZoom.map(String.init) ?? "auto")-\(zoom.map(String.init) ?? "?"), png → \(c.output)"
        }
    }

    static func plan(_ s: MapStages, options: RunOptions) -> MapPlan {
        let map = s.map
        var plan = MapPlan(name: map.name, input: map.input, folder: s.folder, stages: [])
        func status(_ stage: Stage, current: Bool) -> String {
            if let only = options.stage, only != stage { return "not selected" }
            return current && !options.force ? "unchanged" : "would run"
        }
        do {
            let g = s.georeference
            let gh = g.hash()
            let gCurrent = s.manifest.isCurrent(.georeference, hash: gh)
            plan.stages.append(StagePlan(stage: .georeference, status: status(.georeference, current: gCurrent),
                                         detail: g.summary() + (map.georeference == nil ? "" : " → georef.vrt")))
            if options.stage == .warp || options.stage == .tile {
                _ = try s.georeferenceRecord()
            }
            let source = try gCurrent ? g.recordedSource() : g.sourceInMemory()
            let (zoom, auto) = try s.warpZoom(source: source)
            plan.warpZoom = zoom
            let wh = s.warpHash(georeferenceHash: gh, zoom: zoom)
            let wCurrent = gCurrent && s.manifest.isCurrent(.warp, hash: wh)
            let win = try WarpJob(source: source, zoom: zoom).pixelWindow()
            plan.stages.append(StagePlan(stage: .warp, status: status(.warp, current: wCurrent), detail:
                "zoom \(zoom)\(auto ? " (auto)" : ""), \(map.warp.resampling?.rawValue ?? "bilinear") → warped.tif (\(win.width) × \(win.height) px)"))
            if options.stage == .tile { _ = try s.warpRecord() }
            guard let output = map.output else {
                plan.stages.append(StagePlan(stage: .tile, status: status(.tile, current: true), detail: "no output of its own (composite only)"))
                return plan
            }
            var job = TileJob(source: source, output: output, name: map.name)
            map.tile.apply(to: &job, defaultMaxZoom: zoom)
            let zooms = try job.zoomRange()
            guard let bounds = source.bounds else { throw StageError("\(map.input): empty footprint") }
            let pyramid = try PyramidPlan(bounds: bounds, minZoom: zooms.min, maxZoom: zooms.max, tilePixels: job.tilePixels)
            plan.positions = pyramid.tilePositions
            let th = s.tileHash(warpHash: wh, options: map.tile, output: output)
            let tCurrent = wCurrent && s.manifest.stages[Stage.tile.rawValue]?.hash == th && Tileset.isTileset(at: output)
            let perZoom = (zooms.min...zooms.max).map { z in
                let r = pyramid.range(z)
                return "z\(z): \(r.x.count * r.y.count)"
            }.joined(separator: ", ")
            plan.stages.append(StagePlan(stage: .tile, status: status(.tile, current: tCurrent), detail:
                "zooms \(zooms.min)-\(zooms.max), \(pyramid.tilePositions) tile positions (\(perZoom)), "
                + "\(job.format.rawValue) \(job.tilePixels) px \(job.layout.rawValue) → \(output)"))
        } catch {
            plan.error = "\(error)"
        }
        return plan
    }

    /// The plan as text, one block per map.
    public var text: String {
        var lines = ["pipeline \(file)", "work folder \(work)"]
        for m in maps {
            lines.append("map \(m.name): \(m.input)")
            for s in m.stages {
                lines.append("  \(s.stage.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0))"
                             + "\(s.status.padding(toLength: 13, withPad: " ", startingAt: 0))\(s.detail)")
            }
            if let e = m.error { lines.append("  error: \(e)") }
        }
        if let composite { lines.append("composite: \(composite)") }
        lines.append("dry run: nothing was written")
        return lines.joined(separator: "\n")
    }
}
