import Foundation
import TegulaGeometry
import TegulaSupport
import TegulaTileset
import TegulaWarp

/// The pyramid stage end to end: plan the zooms, build the tiles, write them into a folder,
/// MBTiles or PMTiles, and describe the result with TileJSON metadata.
public struct TileJob: Sendable {
    public var source: WarpSource
    public var output: String
    /// Zooms, tile size, scale, layout, kernel and encoding.
    public var settings: TileSettings
    public var resume = false
    /// When another writer holds the output: wait for it (true: a pipeline run twice at once, as
    /// a retried pod, then writes a consistent output) or be refused naming its pid (false:
    /// `tegula tile`).
    public var waitForOtherWriter = true
    /// Files whose deletion, replacement or rewriting during the run leaves the output
    /// unfinished rather than made of two versions (default: the scan).
    public var watchedInputs: [String]
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    public var name: String
    public var attribution: String?
    /// The tile matrix set cut into (`--tms`, `tile.tms:`): WebMercatorQuad by default, cut as it
    /// always was; any other through ``runInGrid(progress:)``.
    public var tms: TileMatrixSet = .webMercatorQuad

    public init(source: WarpSource, output: String, name: String, settings: TileSettings = .defaults) {
        self.source = source
        self.output = output
        self.name = name
        self.settings = settings
        watchedInputs = [source.path]
    }

    /// The zoom range: max `auto` (nil in ``TileSettings/zooms``) is the zoom nearest the scan's native resolution (never more
    /// than √2 off; gdal2tiles rounds down and may lose half the resolution); min `auto` is the
    /// zoom at which the whole scan is about one tile (gdal2tiles's rule).
    public func zoomRange() throws -> ZoomRange {
        if cutsInGrid { return try gridZoomRange(in: try gridSource()) }
        let tileSize = settings.tileSize
        let maxZ = try settings.zooms.max ?? source.autoZoom(tileSize: tileSize)
        let minZ: Int
        if let minZoom = settings.zooms.min {
            minZ = minZoom
        } else {
            guard let b = source.bounds else { throw PyramidError(.emptyFootprint, at: source.path, "empty footprint") }
            minZ = TileJob.autoMinZoom(bounds: b, maxZoom: maxZ, tileSize: tileSize)
        }
        guard let zooms = ZoomRange(min: minZ, max: maxZ) else {
            throw PyramidError(.badZooms, "zoom range \(minZ)-\(maxZ) is invalid: need 0 ≤ MIN ≤ MAX ≤ \(WebMercator.maxZoom)")
        }
        return zooms
    }

    /// The zoom at which a footprint is about one tile (gdal2tiles's rule): the max zoom less
    /// the halvings that bring its larger side down to one tile.
    public static func autoMinZoom(bounds b: ProjectedBounds, maxZoom: Int, tileSize: Int) -> Int {
        let res = WebMercator.resolution(zoom: maxZoom, tileSize: tileSize)
        let pixels = max(b.width, b.height) / res
        let levels = Int(Foundation.log2(max(1, pixels / Double(tileSize))).rounded(.up))
        return max(0, min(maxZoom, maxZoom - levels))
    }

    /// The most tile positions one run plans: 2^30, over a day of work at 10,000 tiles/s and
    /// far past any single scan (a 100,000-pixel-square scan is about 200,000 tiles at its
    /// native zoom). A typo'd `--zoom 0-30` over a country would otherwise plan 10^13 tiles and
    /// run until the disk fills; it is refused before the output is touched.
    public static let maximumTilePositions = 1 << 30

    /// The tile positions `zooms` make over `bounds` (as ``PyramidPlan/tilePositions`` counts
    /// them), without listing any; nil when no tile is covered.
    static func tilePositions(covering bounds: ProjectedBounds, zooms: ZoomRange) -> Int? {
        guard let top = TileGrid.tileRange(covering: bounds, zoom: zooms.max) else { return nil }
        var n = 0
        for z in zooms.min...zooms.max {
            let d = zooms.max - z
            n += ((top.x.upperBound >> d) - (top.x.lowerBound >> d) + 1) * ((top.y.upperBound >> d) - (top.y.lowerBound >> d) + 1)
        }
        return n
    }

    /// Build the pyramid. Returns the builder's counters.
    public func run(progress: (@Sendable (PyramidBuilder.Stats, Int) -> Void)? = nil) throws -> PyramidBuilder.Stats {
        if cutsInGrid { return try runInGrid(progress: progress) }
        let inputs = watchedInputs.map { ($0, FileIdentity(path: $0)) }
        let zooms = try zoomRange()
        guard let bounds = source.bounds else { throw PyramidError(.emptyFootprint, at: source.path, "empty footprint") }
        // Counted before planning: the plan lists its blocks, which for such zooms never ends.
        if let positions = Self.tilePositions(covering: bounds, zooms: zooms), positions > Self.maximumTilePositions {
            throw PyramidError(
                .tooManyTiles, at: source.path,
                String(
                    format: "zooms %d-%d over this scan make %.3g tile positions, past the %.3g one run takes; "
                        + "choose a lower max zoom (its native resolution is zoom %d: --zoom auto)", zooms.min, zooms.max,
                    Double(positions), Double(Self.maximumTilePositions), (try? source.autoZoom(tileSize: settings.tileSize)) ?? -1))
        }
        let plan = try PyramidPlan(bounds: bounds, zooms: zooms, tilePixels: settings.tilePixels)
        let e = settings.encoding
        let writer = try openOutput()
        try stampOutput(zooms: zooms)
        let existing = resume ? Tileset.existingTiles(at: output) : []
        let builder = PyramidBuilder(source: source, plan: plan, resampling: settings.resampling, encoding: e, jobs: jobs, existing: existing)
        let total = plan.tilePositions
        var report: (@Sendable (PyramidBuilder.Stats) -> Void)? = nil
        if let progress {
            report = { s in progress(s, total) }
        }
        let emit: @Sendable (Tile, [UInt8]) throws -> Void = { tile, data in try writer.write(tile, data: data) }
        let stats = try builder.run(emit: emit, progress: report)
        // Tiles of two different scans are no output: left unfinished, as a killed run leaves it.
        for (path, identity) in inputs {
            if let change = identity?.change(at: path) {
                throw PyramidError(.inputChanged, at: path, "\(change) while it was tiled; \(output) was not finished: run again without --resume")
            }
        }
        try writer.finish(metadata: metadata(plan: plan))
        ResumeStamp.remove(beside: output)
        return stats
    }

    /// Refuses to resume an output begun from other work (``ResumeStamp``: other inputs or
    /// settings than this run's at `zooms`), then stamps it with this run's. Called once the
    /// output's lock is held: another writer may have changed it until then.
    func stampOutput(zooms: ZoomRange) throws {
        let stamp = ResumeStamp(job: self, zooms: zooms)
        if resume, let begun = ResumeStamp.read(at: output), let (was, now) = begun.difference(from: stamp) {
            throw PyramidError(
                .resumeOfOtherWork, at: output,
                "was begun from \(was), but this run has \(now); resuming would mix their tiles: run again without --resume to start it anew")
        }
        try stamp.write(beside: output)
    }

    /// TileJSON-style metadata: bounds, centre, zooms, the footprint polygon in degrees and, for
    /// a GCP fit, its pins.
    func metadata(plan: PyramidPlan) -> TilesetMetadata { metadata(zooms: plan.zooms) }

    /// The metadata of a tileset of `zooms` (``metadata(plan:)``).
    func metadata(zooms: ZoomRange) -> TilesetMetadata {
        let b = source.bounds.map(WebMercator.unproject) ?? .world
        var extra: [String: JSONValue] = [:]
        // A GCP fit knows the scan's own outline (its mask); a warped raster only its rectangle.
        if let ring = source.summary?.footprint, ring.count >= 4 {
            extra[TilesetMetadata.footprintKey] = TilesetMetadata.polygon(ring)
        } else {
            var ring = source.footprint.enumerated()
                .filter { $0.offset % max(1, source.footprint.count / 256) == 0 }
                .map {
                    WebMercator.unproject(
                        ProjectedPoint(x: $0.element.x, y: max(-WebMercator.halfCircumference, min(WebMercator.halfCircumference, $0.element.y))))
                }
                .map { [$0.longitude, $0.latitude] }
            if let first = ring.first { ring.append(first) }
            extra[TilesetMetadata.footprintKey] = TilesetMetadata.polygon(ring)
        }
        if let pins = source.summary?.pins, !pins.isEmpty {
            extra[TilesetMetadata.gcpsKey] = .array(
                pins.map { p in
                    .object([
                        "name": .string(p.name), "lon": .double(p.longitude), "lat": .double(p.latitude),
                        "residual_m": .double(p.residualMetres),
                    ])
                })
        }
        let c = b.center
        return TilesetMetadata(
            name: name, format: settings.encoding.format, bounds: b,
            center: MapCenter(
                longitude: c.longitude, latitude: c.latitude,
                zoom: min(zooms.max, zooms.min + 1)),
            zooms: zooms, tileSize: settings.tileSize, scale: settings.scale,
            attribution: attribution, extra: extra)
    }
}
