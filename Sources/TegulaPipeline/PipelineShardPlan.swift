import Foundation
import TegulaCluster
import TegulaComposite
import TegulaCrypto
import TegulaSupport

/// A pipeline's shard plan: its maps (those with an output of their own run a warp and a tile
/// stage) and its composite, surveyed as the runner would.
extension ShardPlan {
    /// Plan `count` shards for a pipeline over its surveyed maps.
    init(pipeline: Pipeline, survey: CollectionSurvey, count: Int) {
        self.init(
            count: count, survey: survey, ownOutput: pipeline.spec.maps.map { $0.output != nil },
            composite: pipeline.spec.composite?.tile.settings, grid: pipeline.spec.composite?.grid
        ) { CompositeSplit.inputsHash(pipeline: pipeline, layout: $0) }
    }

    /// Plan `count` shards for a pipeline (surveying it on `jobs` threads).
    public init(pipeline: Pipeline, count: Int, jobs: Int) {
        let runner = PipelineRunner(pipeline: pipeline, options: RunOptions(jobs: jobs), log: { _ in })
        self.init(pipeline: pipeline, survey: CollectionSurvey(runner: runner, jobs: jobs), count: count)
    }
}

extension CompositeSplit {
    /// SHA-256 over what the composite's tiles depend on: the composite section, its zooms and
    /// tile size, each map in order (name, scan path with its size and modification time — not
    /// its bytes, which every shard would have to read —, georeference section and the bytes of
    /// its GCP and mask files).
    static func inputsHash(pipeline: Pipeline, layout: CompositeLayout) -> String {
        var h = ContentHash()
        h.update("tegula-composite-plan/1")
        if let c = pipeline.spec.composite {
            // The set by its content (the same text as before for WebMercatorQuad, which names none).
            h.update(c.tile.hashText)
            if !c.joinText.isEmpty { h.update(c.joinText) }
        }
        h.update("zooms \(layout.zooms.min)-\(layout.zooms.max) block \(layout.blockZoom) px \(layout.tilePixels)")
        for m in pipeline.spec.maps {
            h.update(m.name)
            h.update(m.input)
            // As `stat`'s seconds and nanoseconds were written before FileIdentity: the same hash.
            if let id = FileIdentity(path: m.input) { h.update("\(id.size) \(id.modified / 1_000_000_000).\(id.modified % 1_000_000_000)") }
            if let g = m.georeference {
                h.update(PipelineHashing.json(g))
                if case .file(let p) = g.gcps { h.update(file: p) }
                if case .file(let p) = g.mask { h.update(file: p) }
            }
            if let r = m.removeColor { h.update("remove_color " + PipelineHashing.json(r)) }
            // A tied map's fit depends on its neighbours too: its tie pins (only tied maps add this).
            if let t = pipeline.series.tied[m.name] { h.update(PipelineHashing.json(t.pins)); h.update(t.kind.name) }
        }
        return h.finalize()
    }
}
