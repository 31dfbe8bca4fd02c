import Foundation
import TegulaGeometry
import TegulaInputs
import TegulaPipeline
import TegulaPyramid
import TegulaServer
import TegulaSupport
import TegulaWarp

/// What `tegula serve` renders on demand, from its PATH arguments: anything the warp stage takes
/// (a `tegula georef` output, a raster with a geotransform or GCPs, `SCAN:GCPFILE` for a plain
/// scan and its GCP file) and pipeline files (`*.yml`, `*.yaml`: every map, from its
/// `georeference:` and `tile:` sections, without running a stage; a map whose `input:` is an IIIF
/// image or a Georeference Annotation, or that comes from a `maps_from:` AnnotationPage, through
/// ``inputs``).
public struct OnDemandInputs: Sendable {
    /// The render threads all sources share.
    public let queue: RenderQueue
    /// The tiles kept, all sources together.
    public let memo: TileMemo
    /// Where re-reads and render failures are reported (one line each).
    public let log: @Sendable (String) -> Void
    /// The tile format every source is encoded in (`tegula serve --format`), with its quality and
    /// auto-lossy format; nil = each source's own (a pipeline map's `tile:` section, else png).
    public let encoding: TileEncoding?
    /// The paper taken out of every scan (`tegula serve --remove-color`), where a pipeline map
    /// has no `remove_color:` of its own; nil keeps the paper.
    public let removeColor: RemoveColorOptions?
    /// How scans are opened and a pipeline file's maps reach IIIF images and annotations (the
    /// program's resolver, as `tegula run` loads the file); one without an IIIF client refuses
    /// such maps in one line.
    public let inputs: InputResolver
    /// The tile matrix set scans are rendered in (`tegula serve --tms`), where a pipeline map has
    /// no `tile.tms` of its own; nil: WebMercatorQuad.
    public let tms: TileMatrixSet?

    /// Inputs sharing one queue and one memo.
    public init(
        queue: RenderQueue, memo: TileMemo, encoding: TileEncoding? = nil, removeColor: RemoveColorOptions? = nil,
        inputs: InputResolver = InputResolver(), tms: TileMatrixSet? = nil, log: @escaping @Sendable (String) -> Void
    ) {
        self.tms = tms
        self.queue = queue
        self.memo = memo
        self.encoding = encoding
        self.removeColor = removeColor
        self.inputs = inputs
        self.log = log
    }

    /// True when `path` is served as a tileset (a folder, `*.mbtiles`, `*.pmtiles`, `*.gpkg`)
    /// rather than rendered on demand.
    public static func isTilesetPath(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue { return true }
        return ["mbtiles", "pmtiles", "gpkg"].contains((path as NSString).pathExtension.lowercased())
    }

    /// The sources a PATH names: one per map of a pipeline file, else one for the raster (with its
    /// GCP file after a colon). Each is read now; an error names the file and why.
    public func sources(for path: String) throws -> [OnDemandSource] {
        let ext = (path as NSString).pathExtension.lowercased()
        if ext == "yml" || ext == "yaml" {
            let inputs = self.inputs
            let pipeline = try Pipeline.load(path: path, inputs: inputs)
            return try pipeline.spec.maps.map { map in
                let name = map.name
                return try OnDemandSource(id: name, queue: queue, memo: memo, log: log) {
                    // Read the pipeline file again: an edit of it is a change like any other.
                    let now = try Pipeline.load(path: path, inputs: inputs)
                    guard var map = now.spec.maps.first(where: { $0.name == name }) else {
                        throw OnDemandError.mapGone(name, from: path)
                    }
                    map.removeColor = map.removeColor ?? removeColor
                    // The composite's tone, as `tegula run` solved it (read from its work folder
                    // when stored there for the same inputs, else solved now).
                    let tone = try PipelineRunner(pipeline: now, options: RunOptions(), log: { _ in }).toneCorrections()?[name]
                    // A URL (an IIIF image's, an annotation's) is no file to watch: its cached copy is.
                    let files = now.files(of: map).filter { !Location($0).isURL }
                    return OnDemandSource.Loaded(job: prepared(try now.tileJob(for: map), id: name), files: files, tone: tone)
                }
            }
        }
        let (scan, gcps) = Self.split(path)
        guard FileManager.default.fileExists(atPath: scan) else { throw OnDemandError.noScan(scan) }
        return [try source(scan: scan, gcps: gcps, id: ServedID.of(scan))]
    }

    /// The sheet index of a pipeline file, as `tegula run` writes it (`PipelineRunner.sheetIndexJSON()`);
    /// nil for any other PATH. Read once, when called; maps on IIIF servers through ``inputs``, as
    /// ``sources(for:)`` reads them.
    public func sheetIndex(for path: String) throws -> [UInt8]? {
        guard ["yml", "yaml"].contains((path as NSString).pathExtension.lowercased()) else { return nil }
        return try PipelineRunner(pipeline: try Pipeline.load(path: path, inputs: inputs), options: RunOptions(), log: { _ in }).sheetIndexJSON()
    }

    /// The source of one scan (a local path, or a remote scan's URL, opened already) and its GCP file.
    public func source(scan: String, gcps: String?, id: String) throws -> OnDemandSource {
        if let gcps, !FileManager.default.fileExists(atPath: gcps) { throw OnDemandError.noGCPFile(gcps) }
        let inputs = self.inputs
        return try OnDemandSource(id: id, queue: queue, memo: memo, log: log) {
            let source = try WarpInput(path: scan, gcpFile: gcps).resolve(opening: inputs).removingColor(removeColor)
            return OnDemandSource.Loaded(job: prepared(TileJob(source: source, output: "", name: id), id: id), files: gcps.map { [$0] } ?? [])
        }
    }

    /// `job` with ``encoding`` (format, quality, auto-lossy format and WebP effort) when one is
    /// set and in ``tms`` when the job is in WebMercatorQuad, its source's warnings logged as
    /// `tegula tile` prints them (at each read: a new fit may fold where the last did not).
    func prepared(_ job: TileJob, id: String) -> TileJob {
        for warning in job.source.warnings(making: .tiles) { log("tegula: warning: \(id): \(warning)") }
        var job = job
        if let tms, !job.cutsInGrid { job.tms = tms }
        guard let encoding else { return job }
        job.settings = job.settings.with(encoding: encoding)
        return job
    }

    /// `SCAN:GCPFILE` split at its last colon when the whole does not name a file; else the path.
    static func split(_ path: String) -> (scan: String, gcps: String?) {
        guard !FileManager.default.fileExists(atPath: path), let colon = path.lastIndex(of: ":") else { return (path, nil) }
        return (String(path[..<colon]), String(path[path.index(after: colon)...]))
    }
}

/// Re-reads sources whose files changed, checking every `interval` seconds on its own thread
/// (never on a request's path, so no request waits for a re-fit).
public final class SourceWatcher: @unchecked Sendable {
    /// Seconds between checks.
    public let interval: Double
    let sources: [OnDemandSource]

    /// Starts watching `sources` now.
    public init(sources: [OnDemandSource], interval: Double = 0.5) {
        self.sources = sources
        self.interval = interval
        guard !sources.isEmpty else { return }
        let t = Thread { [sources, interval] in
            while true {
                Thread.sleep(forTimeInterval: interval)
                for s in sources { s.refresh() }
            }
        }
        t.name = "tegula-watch"
        t.start()
    }
}
