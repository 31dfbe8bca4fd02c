import ArgumentParser
import Foundation
import TegulaGeometry
import TegulaWarp

/// `tegula warp`: a georeferenced scan onto the EPSG:3857 tile grid (or another tile matrix
/// set's, in its CRS) as a GeoTIFF.
struct WarpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "warp",
        abstract: "Reproject a georeferenced scan onto the pixel grid of one zoom level: EPSG:3857, or another tile matrix set's.",
        discussion: """
            The output GeoTIFF's pixel size is exactly the zoom's resolution (2πR/256/2^Z) and its \
            origin lies on that zoom's pixel grid, so `tegula tile` slices it without resampling. \
            Alpha comes from the mask (neatline), the source's alpha or nodata, and the footprint. \
            `--zoom auto` picks the zoom nearest the scan's native resolution and says which. \
            With --tms, the grid is that of a zoom of the tile matrix set, in its CRS.
            """)

    @OptionGroup var input: SourceOptions

    @Option(name: .shortAndLong, help: "Output GeoTIFF (written to a temporary file, then renamed).")
    var output: String

    @Option(help: "Zoom level whose grid to warp onto, or `auto` (nearest native resolution).", transform: ZoomSpec.parse)
    var zoom: ZoomSpec = .auto

    @Option(help: "Resampling kernel: near, bilinear, cubic, lanczos, average.")
    var resampling: Resampling = .bilinear

    @OptionGroup var grid: TileMatrixSetOption

    @Flag(help: "Write a Cloud Optimized GeoTIFF (tiled, compressed, with overviews).")
    var cog = false

    @OptionGroup var workers: WorkerOptions

    func validate() throws {
        if let r = zoom.range, r.min != r.max {
            throw ValidationError("--zoom '\(zoom)': expected one zoom 0–\(WebMercator.maxZoom) or auto")
        }
    }

    func run() throws {
        try reportingErrors {
            let source = try input.resolve()
            let set = grid.tms ?? .webMercatorQuad
            let z: Int
            if let r = zoom.range {
                z = r.max
            } else if set != .webMercatorQuad {
                z = try WarpJob.autoZoom(of: source, in: set)
                printError("tegula: zoom auto = \(z) of \(set.id) (its cell size nearest the scan's native one, in log scale)")
            } else {
                z = try source.autoZoom()
                let native = try source.nativeResolution()
                printError(
                    String(
                        format: "tegula: zoom auto = %d (native %.2f m/px; zoom %d is %.2f m/px, the nearest in log scale)",
                        z, native, z, WebMercator.resolution(zoom: z)))
            }
            for warning in source.warnings(making: .output) { printError("tegula: warning: \(warning)") }
            try input.checkOutput(output)
            let reporter = ProgressReporter(label: "warp", quiet: workers.quiet)
            var job = WarpJob(source: source, zoom: z, resampling: resampling, cog: cog, jobs: workers.jobs)
            job.tms = set
            let result = try job.run(output: output) { done, total in reporter.update(done: done, total: total, unit: "blocks") }
            reporter.finish()
            if !workers.quiet {
                printError(
                    String(
                        format: "tegula: wrote %@: %d × %d px at zoom %d%@, transform grid error ≤ %.4f px",
                        output, result.width, result.height, z, set == .webMercatorQuad ? "" : " of \(set.id)",
                        result.worstGridError))
            }
        }
    }
}
