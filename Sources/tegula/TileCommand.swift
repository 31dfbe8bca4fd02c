import ArgumentParser
import Foundation
import TegulaGeometry
import TegulaGeoreference
import TegulaPyramid
import TegulaTileset
import TegulaWarp

/// `tegula tile`: the tile pyramid, straight from the scan.
struct TileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tile",
        abstract: "Cut a power-of-two tile pyramid from a georeferenced scan into a folder, MBTiles, PMTiles or GeoPackage.",
        discussion: """
            OUT by its form: a folder (z/x/y.png; --layout tms flips rows and writes \
            tilemapresource.xml), *.mbtiles (MBTiles 1.3, TMS rows), *.pmtiles (PMTiles v3) or *.gpkg \
            (OGC GeoPackage tiles with their tile matrix set and CRS, written whole and renamed into \
            place). Every output but a GeoPackage gets TileJSON 3.0.0 metadata (tiles.json beside a folder). Max-zoom tiles are \
            warped straight from the scan; lower zooms are built from their children in memory. \
            Fully transparent tiles are not written; fully opaque ones are written without alpha. \
            Zoom `auto`: max = the zoom nearest the scan's native resolution, min = where the scan \
            is about one tile. An existing OUT that is not a tileset is refused and left untouched. \
            With --tms, the pyramid is cut in that set's grid and CRS, into a folder (with its \
            tms.json) or a GeoPackage: MBTiles and PMTiles hold WebMercatorQuad alone.
            """)

    @OptionGroup var input: SourceOptions

    @Option(name: .shortAndLong, help: "Output: a folder, OUT.mbtiles, OUT.pmtiles or OUT.gpkg.")
    var output: String

    @Option(help: "Zoom range MIN-MAX, a single zoom, or `auto`.", transform: ZoomSpec.parse)
    var zoom: ZoomSpec = .auto

    @Option(help: "Tile size in pixels: 256 or 512.")
    var tileSize: Int = 256

    @Option(help: "Pixel ratio: 2 writes 512-px tiles named {z}/{x}/{y}@2x.png.")
    var scale: Int = 1

    @Option(help: "Folder row order: xyz (row 0 at the top) or tms (row 0 at the bottom).")
    var layout: TileOrigin = .topLeft

    @Option(
        help:
            "Tile image format: png (lossless), jpeg, webp (lossless; lossy with --quality), png8 (palette, libimagequant) or auto (lossy for opaque tiles, png for the others; folders only)."
    )
    var format: TileFormat = .default

    @Option(help: "Quality 1–100 for jpeg (default 85), lossy webp and auto's opaque tiles (default 85).")
    var quality: Int?

    @Option(name: .customLong("auto-lossy"), help: "With --format auto: what opaque tiles are written as, jpeg (default) or webp.")
    var autoLossy: AutoLossy?

    @Option(name: .customLong("webp-effort"), help: ArgumentHelp(Self.webpEffortHelp, valueName: "0-9"))
    var webpEffort: WebPEffort?

    @Option(help: "Resampling kernel for the max zoom: near, bilinear, cubic, lanczos, average.")
    var resampling: Resampling = .default

    @Flag(
        help:
            "Continue an interrupted run: tiles already written are kept. Refused when the scan or the settings differ from the run that began it (OUT.resume records them until the tileset is finished)."
    )
    var resume = false

    @OptionGroup var grid: TileMatrixSetOption

    @OptionGroup var workers: WorkerOptions

    @Option(help: "Tileset name for the metadata (default: the input's file name).")
    var name: String?

    @Flag(help: "Print the time split (warp / downsample / encode / write) at the end.")
    var timings = false

    /// The trade-off's figures live in BENCHMARKS.md ("Lossless WebP effort", `scripts/bench-webp`).
    static let webpEffortHelp =
        "With lossless webp: libwebp's effort, 0 (fastest) to 9 (fewest bytes), default \(WebPEffort.default). "
        + "A higher effort writes fewer bytes and takes longer; the benchmark scan's bytes and times at each effort are in BENCHMARKS.md."

    func validate() throws {
        _ = try settings()
    }

    /// The options as the tile stage's settings, checked (``TileSettings``), a refusal worded for them.
    func settings() throws -> TileSettings {
        do {
            return try TileSettings(
                zooms: ZoomRequest(zoom), tileSize: tileSize, scale: scale, layout: layout, resampling: resampling,
                format: format, quality: quality, autoLossy: autoLossy, webpEffort: webpEffort)
        } catch let error as TileSettingsError {
            throw ValidationError(error.commandLine)
        } catch {
            throw ValidationError("--\(error)")
        }
    }

    func run() throws {
        try reportingErrors {
            let source = try input.resolve()
            for warning in source.warnings(making: .tiles) { printError("tegula: warning: \(warning)") }
            var job = TileJob(
                source: source, output: output,
                name: name ?? ((input.inputPath as NSString).lastPathComponent as NSString).deletingPathExtension,
                settings: try settings())
            job.resume = resume
            job.waitForOtherWriter = false  // a second run on one output is refused with the holder's pid
            job.jobs = workers.jobs
            job.tms = grid.tms ?? .webMercatorQuad
            let planned = try job.zoomRange()
            if zoom == .auto && !workers.quiet {
                printError("tegula: zoom auto = \(planned) (max nearest the native resolution, min where the scan is about one tile)")
            }
            let reporter = ProgressReporter(label: "tile", quiet: workers.quiet)
            let start = Date()
            let stats = try job.run { s, total in reporter.update(done: s.positionsDone, total: total) }
            reporter.finish()
            let wall = Date().timeIntervalSince(start)
            if !workers.quiet {
                printError(
                    String(
                        format: "tegula: %d tiles (%.1f MB) in %.2f s, zooms %d-%d, %d empty skipped%@",
                        stats.tilesWritten, Double(stats.bytesWritten) / 1e6, wall, planned.min, planned.max,
                        stats.tilesEmpty, stats.tilesSkipped > 0 ? ", \(stats.tilesSkipped) kept from before" : ""))
            }
            if timings {
                printError(
                    String(
                        format: "timings (thread-seconds): warp %.2f, downsample %.2f, encode %.2f, write %.2f; transform grid error ≤ %.4f px",
                        stats.warpSeconds, stats.downsampleSeconds, stats.encodeSeconds, stats.writeSeconds,
                        stats.worstGridError))
            }
        }
    }
}
