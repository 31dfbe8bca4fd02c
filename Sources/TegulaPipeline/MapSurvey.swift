import TegulaComposite
import TegulaWarp

/// The collection survey of a pipeline: each map's footprint, warp zoom and warp size, from its
/// georeference stage fitted in memory and the warp stage's choice of zoom.
extension CollectionSurvey {
    /// Survey every map of the runner's pipeline on `jobs` threads.
    init(runner: PipelineRunner, jobs: Int) {
        let maps = runner.pipeline.spec.maps
        self.init(count: maps.count, jobs: jobs) { i in CollectionSurvey.survey(runner.work(for: maps[i])) }
    }

    /// One map's entry, or why it cannot be planned.
    static func survey(_ work: MapWork) -> Entry {
        do {
            let source = try work.georeference.sourceInMemory()
            let (zoom, _) = try WarpStep().warpZoom(source: source, in: work)
            let window = try WarpJob(source: source, zoom: zoom).pixelWindow()
            guard let b = source.bounds else { throw PipelineError(.notGeoreferenced, "\(work.map.input): empty footprint") }
            return Entry(bounds: b, warpZoom: zoom, warpPixels: window.width * window.height)
        } catch {
            return Entry(error: "\(error)")
        }
    }
}
