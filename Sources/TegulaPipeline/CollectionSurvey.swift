import Foundation
import TegulaGeometry
import TegulaPyramid
import TegulaSupport
import TegulaWarp

/// What a plan knows of every map without reading a pixel: its footprint in EPSG:3857, its
/// warp zoom and the size of its warp. It reads each map's GCP and mask files and its scan's
/// header (size), fits the GCPs in memory, and nothing more: no scan's pixels, no hash of a
/// scan's bytes. Every shard surveys the whole collection and gets the same answer.
struct CollectionSurvey: Sendable {
    /// One map.
    struct Entry: Sendable {
        /// The footprint's box, clipped to the Web Mercator square; nil when the map cannot be planned.
        var bounds: ProjectedBounds?
        /// The warp zoom (`warp.zoom`, the tile or composite max zoom, else auto).
        var warpZoom: Int?
        /// Pixels of the warp at that zoom (0 when unknown).
        var warpPixels: Int
        /// Why the map cannot be planned.
        var error: String?
    }

    let entries: [Entry]

    /// Survey every map of the pipeline on `jobs` threads.
    init(runner: PipelineRunner, jobs: Int) {
        let maps = runner.pipeline.spec.maps
        let out = Locked([Entry](repeating: Entry(bounds: nil, warpZoom: nil, warpPixels: 0, error: nil), count: maps.count))
        // Errors are per map; ParallelWork itself never fails here.
        try? ParallelWork.run(jobs: jobs, count: maps.count, makeState: { _ in () }, process: { _, i in
            let e = CollectionSurvey.survey(runner.work(for: maps[i]))
            out.withLock { $0[i] = e }
        })
        entries = out.withLock { $0 }
    }

    static func survey(_ work: MapWork) -> Entry {
        do {
            let source = try work.georeference.sourceInMemory()
            let (zoom, _) = try WarpStep().warpZoom(source: source, in: work)
            let window = try WarpJob(source: source, zoom: zoom).pixelWindow()
            guard let b = source.bounds else { throw StageError(.notGeoreferenced, "\(work.map.input): empty footprint") }
            return Entry(bounds: b, warpZoom: zoom, warpPixels: window.width * window.height, error: nil)
        } catch {
            return Entry(bounds: nil, warpZoom: nil, warpPixels: 0, error: "\(error)")
        }
    }

    /// The maps that cannot be planned: index and why.
    var failures: [(index: Int, message: String)] {
        entries.enumerated().compactMap { i, e in e.error.map { (i, $0) } }
    }
}
