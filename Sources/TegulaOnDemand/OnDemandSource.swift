import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaPyramid
import TegulaScan
import TegulaServer
import TegulaSupport
import TegulaTileset
import TegulaWarp

/// A georeferenced scan served as tiles made on request: the pyramid `tegula tile` would cut
/// (``TileRenderer``), rendered tile by tile on a ``RenderQueue`` and kept in a ``TileMemo``.
///
/// Its version hashes the identity of every file it was read from (path, size, modification
/// time), the fit's ``FitIdentity`` (the editor's version of the same fit), the mask, the
/// tone correction, the render options and the renderer's ``TileRenderer/revision``; ETags and the
/// `?v=` of TileJSON URLs carry it. ``refresh()`` re-reads the source when one of those files has
/// changed; a re-read that fails keeps the last good version and logs one line.
public final class OnDemandSource: DynamicTileSource, @unchecked Sendable {
    /// What a source is made from, read again after every change: the pyramid job (its source
    /// already fitted) and the files beyond the scan's own that it depends on (GCP, mask,
    /// pipeline files).
    public struct Loaded: Sendable {
        public var job: TileJob
        public var files: [String]
        /// The map's tone correction (its pipeline's `composite.tone`), applied to every tile.
        public var tone: ToneCorrection?

        /// A loaded job and the extra files it was read from.
        public init(job: TileJob, files: [String] = [], tone: ToneCorrection? = nil) {
            self.job = job
            self.files = files
            self.tone = tone
        }
    }

    /// The URL id.
    public let id: String
    let load: @Sendable () throws -> Loaded
    let queue: RenderQueue
    let memo: TileMemo
    let log: @Sendable (String) -> Void
    private let state: Locked<Current>
    /// The files' identities at a re-read that failed and was logged (not retried until they change).
    private let failed = Locked<[FileIdentity?]?>(nil)

    struct Current {
        let renderer: TileRenderer
        let version: String
        let fit: FitIdentity?
        let files: [String]
        /// Each file's identity when it was read; nil for one that could not be stat'ed.
        let stamps: [FileIdentity?]
    }

    /// Reads the source once; an error here means it cannot be served (refused at start-up).
    public init(
        id: String, queue: RenderQueue, memo: TileMemo, log: @escaping @Sendable (String) -> Void,
        load: @escaping @Sendable () throws -> Loaded
    ) throws {
        self.id = id
        self.queue = queue
        self.memo = memo
        self.log = log
        self.load = load
        state = Locked(try Self.read(load, id: id, log: log))
    }

    /// The renderer in use now.
    public var renderer: TileRenderer { state.withLock { $0.renderer } }
    /// The files whose changes make the source re-read.
    public var files: [String] { state.withLock { $0.files } }

    public var metadata: TilesetMetadata { state.withLock { $0.renderer.metadata } }
    public var version: String { state.withLock { $0.version } }
    /// The tile matrix set its tiles are made in and, zoom by zoom, the columns and rows of the
    /// plan's tiles (rows from the set's corner), for a job in another set than WebMercatorQuad
    /// (`tegula serve --tms`, a pipeline map's `tile.tms`); nil for Web Mercator. As first read:
    /// a re-read keeps serving the limits of the first (``CatalogueEntry/tileLimits``).
    public var tileGrid: (TileMatrixSet, [TileMatrixLimits])? {
        let r = renderer
        guard r.job.cutsInGrid else { return nil }
        let limits = r.gridPlans.reversed().flatMap { p in
            p.zooms.levels.map { z in TileMatrixLimits(zoom: z, columns: p.range(z).x, rows: p.range(z).y) }
        }
        return (r.job.tms, limits)
    }

    /// The ``FitIdentity/version`` of the GCP fit it renders (nil for a scan with a geotransform):
    /// the version the editor gives the same scan, points, transform and mask.
    public var fitVersion: String? { state.withLock { $0.fit?.version } }

    public func readyTile(_ tile: Tile) -> DynamicTile? {
        let (renderer, version) = state.withLock { ($0.renderer, $0.version) }
        guard renderer.covers(tile) else { return .outside }
        switch memo.get(TileMemo.Key(source: id, version: version, tile: tile)) {
        case .image(let bytes): return .image(bytes, version: version, seconds: nil)
        case .empty: return .empty(version: version)
        case nil: return nil
        }
    }

    public func tile(_ tile: Tile, isCancelled: @escaping @Sendable () -> Bool) async -> DynamicTile {
        if let ready = readyTile(tile) { return ready }
        let (renderer, version) = state.withLock { ($0.renderer, $0.version) }
        let key = TileMemo.Key(source: id, version: version, tile: tile)
        let memo = self.memo, log = self.log, id = self.id
        return await queue.submit(key, isCancelled: isCancelled) {
            let start = Date()
            do {
                let bytes = try renderer.render(tile)
                memo.put(key, bytes.map { .image($0) } ?? .empty)
                return bytes.map { .image($0, version: version, seconds: Date().timeIntervalSince(start)) } ?? .empty(version: version)
            } catch let e as RemoteScanUnavailable {
                log("tegula: \(id): tile \(tile): \(e)")
                return .unavailable(e.description, retryAfter: e.retryAfter)
            } catch {
                log("tegula: \(id): tile \(tile): \(error)")
                return .failed("\(error)")
            }
        }
    }

    /// The tile rendered on the caller's thread (``TileReader``; the server awaits
    /// ``tile(_:isCancelled:)`` instead).
    public func tile(_ t: Tile) throws -> [UInt8]? {
        try renderer.render(t)
    }

    /// Re-read the source if one of its files changed since it was read. Returns true when a new
    /// version is in place; a failed re-read keeps the current one and is logged once.
    @discardableResult
    public func refresh() -> Bool {
        let current = state.withLock { $0 }
        let now = current.files.map(FileIdentity.init(path:))
        guard now != current.stamps, failed.withLock({ $0 }) != now else { return false }
        let changed = zip(current.files, zip(current.stamps, now)).filter { $1.0 != $1.1 }.map(\.0)
        do {
            let next = try Self.read(load, id: id, log: log)
            state.withLock { $0 = next }
            failed.withLock { $0 = nil }
            memo.removeVersions(of: id, except: next.version)
            log("tegula: \(id): re-read after a change to \(changed.joined(separator: ", ")): version \(next.version)")
            return true
        } catch {
            failed.withLock { $0 = now }
            log("tegula: \(id): \(changed.joined(separator: ", ")) changed but cannot be used (\(error)); still serving version \(current.version)")
            return false
        }
    }

    /// Load, stamp the files and build the renderer; logs one line when what the lower zooms are
    /// rendered from (held levels or reduced copies) is ready.
    static func read(_ load: () throws -> Loaded, id: String, log: @escaping @Sendable (String) -> Void) throws -> Current {
        let loaded = try load()
        let job = loaded.job
        // A remote scan (an IIIF image) was checked against IIIFLimits when opened; it has no files.
        let remote = job.source.scan.isRemote
        if !remote { try RasterLimits.checkOnDemand(try TegulaGDAL.Dataset(path: job.source.path)) }
        var files = remote ? [] : (try? TegulaGDAL.Dataset(path: job.source.path).fileList) ?? [job.source.path]
        for f in loaded.files where !files.contains(f) { files.append(f) }
        let stamps = files.map(FileIdentity.init(path:))
        let renderer = try TileRenderer(job: job, tone: loaded.tone, holdingLowerZooms: true)
        // What the lower zooms are rendered from is made now, off the request path: the
        // pyramid's own lower zooms when they fit the budget (``HeldLevels``), else the reduced
        // copies (which the first tile below the max zoom used to build, for seconds: BENCHMARKS.md).
        DispatchQueue.global(qos: .utility).async {
            do {
                let line = try renderer.holdLowerZooms()
                if !line.isEmpty { log("tegula: \(id): \(line)") }
            } catch {
                log("tegula: \(id): the lower zooms could not be prepared (\(error))")
            }
        }
        let fit = job.source.georeference.map { FitIdentity(scan: job.source.path, georeference: $0) }
        return Current(
            renderer: renderer,
            version: version(
                files: files, stamps: stamps, fit: fit, job: job, plan: renderer.plan, tone: loaded.tone,
                heldLevels: renderer.levels != nil),
            fit: fit, files: files, stamps: stamps)
    }

    /// 16 hex digits of ``FNV1a`` over the files' identities, the fit's identity, the mask, the
    /// options and the renderer's revision. A file is written `PATH SIZE MODIFIED_NS`, `PATH -1 -1` when it cannot be
    /// stat'ed.
    static func version(
        files: [String], stamps: [FileIdentity?], fit: FitIdentity?, job: TileJob, plan: PyramidPlan,
        tone: ToneCorrection? = nil, heldLevels: Bool = false
    ) -> String {
        var text = zip(files, stamps).map { f, s in "\(f) \(s?.size ?? -1) \(s?.modified ?? -1)" }.joined(separator: "\n")
        if let fit { text += "\nfit " + fit.text }
        if let mask = job.source.mapping.mask { text += "\nmask " + mask.map { "\($0.x),\($0.y)" }.joined(separator: " ") }
        if let removal = job.source.removal { text += "\nremove_color \(removal)" }
        // Every digit, so two solves that differ at all never share a version.
        if let tone { text += "\ntone \(tone.gain) \(tone.offset)" }
        let s = job.settings, e = s.encoding
        text += "\ntiles \(plan.zooms) \(s.tileSize) x\(s.scale) \(e.format.name) \(s.resampling.name) \(job.name)"
        text += " q\(e.quality.map(String.init) ?? "-") \(e.autoLossy.name) webp-effort \(e.webpEffort)"
        // Held levels give the pyramid's own bytes below the max zoom, the reduction kernel others.
        text += "\nrenderer \(TileRenderer.revision)\(heldLevels ? " held-levels" : "")"
        // Another tile matrix set: its whole document (a set of the same id may differ).
        if job.cutsInGrid { text += "\ntms " + String(decoding: (try? JSONStyle.compact.encode(job.tms)) ?? Data(job.tms.id.utf8), as: UTF8.self) }
        return FNV1a.hex(text)
    }
}
