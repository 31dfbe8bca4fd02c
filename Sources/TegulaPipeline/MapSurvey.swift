import TegulaComposite
import TegulaGDAL
import TegulaGeometry
import TegulaWarp

/// The collection survey of a pipeline: each map's footprint, warp zoom and warp size, from its
/// georeference stage fitted in memory and the warp stage's choice of zoom; for a composite in
/// another tile matrix set, its box and nearest zoom in that set too.
extension CollectionSurvey {
    /// Survey every map of the runner's pipeline on `jobs` threads.
    init(runner: PipelineRunner, jobs: Int) {
        let maps = runner.pipeline.spec.maps
        let tms = runner.pipeline.spec.composite?.tile.tileMatrixSet ?? .webMercatorQuad
        let grid = tms == .webMercatorQuad ? nil : tms
        self.init(count: maps.count, jobs: jobs) { i in CollectionSurvey.survey(runner.work(for: maps[i]), grid: grid) }
    }

    /// One map's entry, or why it cannot be planned.
    static func survey(_ work: MapWork, grid: TileMatrixSet?) -> Entry {
        do {
            let source = try work.georeference.sourceInMemory()
            let (zoom, _) = try WarpStep().warpZoom(source: source, in: work)
            let window = try WarpJob(source: source, zoom: zoom).pixelWindow()
            guard let b = source.bounds else { throw PipelineError(.notGeoreferenced, "\(work.map.input): empty footprint") }
            guard let grid else { return Entry(bounds: b, warpZoom: zoom, warpPixels: window.width * window.height) }
            let inGrid = try source.reprojected(to: try CRS(grid.crs))
            let box = inGrid.gridBounds(in: grid)
            let nearest = try box.map { try inGrid.nearestZoom(in: grid, within: $0) }
            return Entry(bounds: b, warpZoom: zoom, warpPixels: window.width * window.height, grid: (box, nearest))
        } catch {
            return Entry(error: "\(error)")
        }
    }
}
