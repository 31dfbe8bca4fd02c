import ArgumentParser
import Foundation
import Logging
import TegulaGeometry
import TegulaHTTP
import TegulaIIIFServer
import TegulaInputs
import TegulaOnDemand
import TegulaPyramid
import TegulaRemote
import TegulaScan
import TegulaServer
import TegulaSupport
import TegulaTileset
import TegulaWarp

/// `tegula serve`: serve tile folders, MBTiles and PMTiles over HTTP with TileJSON and a viewer.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve tilesets, and scans rendered on demand, over HTTP: tiles, TileJSON, WMTS, OGC API – Tiles and a Leaflet viewer.",
        discussion: """
            Each PATH is a tile folder (with tiles.json, and tms.json when cut in another set), a \
            *.mbtiles, a *.pmtiles, or a folder holding them; a *.gpkg (GeoPackage tiles, in the set \
            its tables describe); an http:// or https:// URL of a PMTiles file (S3 and S3-compatible stores, nginx: read \
            by range requests, header and root once, a replaced file noticed and read again); or, \
            rendered on demand tile by tile (the tiles `tegula tile` would cut, without cutting them \
            first): anything `tegula warp` takes (a `tegula georef` .vrt/.tif, a raster \
            with a geotransform or GCPs), SCAN:GCPFILE for a plain scan and its GCP file, or a pipeline \
            file (*.yml: every map, from its georeference and tile sections, no stage run; a map whose \
            input is an IIIF image or an annotation, or from a maps_from AnnotationPage, read from its \
            IIIF server tile by tile). Every scan, \
            and a scan with no georeference alone, is also an IIIF Image API 3.0 service (level 1, plus \
            pct: regions and sizes, !w,h and ^; jpg, png, webp) at /iiif/{id}/info.json. Ids are file \
            names without extension, or map names. A scan whose files change on disk is re-read within \
            half a second (a broken edit keeps the last good fit). Routes: / (viewer), /{id}.json \
            (TileJSON 3.0.0), /{id}/{z}/{x}/{y}.{ext} (XYZ), /{id}/tms/{z}/{x}/{y}.{ext}, @2x names for \
            scale-2 tilesets, /wmts?SERVICE=WMTS&REQUEST=GetCapabilities and \
            /wmts/1.0.0/WMTSCapabilities.xml (WMTS 1.0.0, KVP and RESTful, each tileset in its set), \
            /ogcapi (OGC API – Tiles: /ogcapi/tileMatrixSets, \
            /ogcapi/collections/{id}/map/tiles/{tms}/{z}/{row}/{col}), /maps?lon=&lat= (scans covering a \
            point), /health, and /metrics \
            (Prometheus text format) with --metrics. Logs go to stderr: one line per request at \
            --log-level debug, errors at every level. With --tms, scans are rendered on demand in \
            that set (a pipeline map's own tile.tms wins; cut tilesets keep theirs).
            """)

    @Argument(
        help:
            "Tilesets (folders, *.mbtiles, *.pmtiles, folders of them, *.gpkg, https://…/*.pmtiles), georeferenced scans, SCAN:GCPFILE, pipeline files (*.yml), or scans with no georeference (served as IIIF images)."
    )
    var paths: [String]

    @Option(name: .customLong("cache-size"), help: "MiB of tiles rendered on demand kept in memory (least recently used dropped first; 0: none).")
    var cacheSize: Int = 256

    @Option(
        help:
            "Tile format of the scans rendered on demand: png (default), jpeg, webp, png8 or auto; overrides a pipeline map's own `tile:` format. Tilesets are served as they are."
    )
    var format: TileFormat?

    @Option(help: "With --format: quality 1–100 for jpeg (default 85), lossy webp and auto's opaque tiles (default 85).")
    var quality: Int?

    @Option(name: .customLong("auto-lossy"), help: "With --format auto: what opaque tiles are made as, jpeg (default) or webp.")
    var autoLossy: AutoLossy?

    @Option(
        name: .customLong("remove-color"),
        help: ArgumentHelp(
            "Make the paper of the scans rendered on demand transparent, so the basemap shows through: auto (the dominant colour of the scan's margin around its mask) or #RRGGBB. A pipeline map's own remove_color section wins.",
            valueName: "auto|#RRGGBB"))
    var removeColor: String?

    @Option(
        name: .customLong("remove-threshold"),
        help: "With --remove-color: the RGB distance (channels 0–1) below which a colour counts as paper (default 0.1).")
    var removeThreshold: Double?

    @Option(name: .customLong("remove-hardness"), help: "With --remove-color: how sharply alpha falls at the threshold, 0–1 (default 0.7).")
    var removeHardness: Double?

    @OptionGroup var server: ServerOptions

    @OptionGroup var grid: TileMatrixSetOption

    @OptionGroup var iiif: IIIFOptions

    @Option(name: .customLong("public-url"), help: "Base URL for TileJSON tile URLs behind a proxy (default: from the Host header).")
    var publicURL: String?

    @Option(help: "Access-Control-Allow-Origin value: * (default), one origin, or 'off'.")
    var cors: String = "*"

    @Option(name: .customLong("cache-control"), help: "Cache-Control header for tiles.")
    var cacheControl: String = "public, max-age=3600"

    @Option(help: "Status for a missing tile within the tileset's zooms: 404 (default; MapLibre falls back to the parent) or 204.")
    var missing: TileServerConfiguration.MissingTile = .notFound

    @Option(
        name: .customLong("idle-timeout"),
        help: ArgumentHelp(
            "Seconds a connection may make no progress (nothing asked, or a request head left unfinished, as a slowloris client does) before it is closed; answers being made or sent do not count.",
            valueName: "seconds"))
    var idleTimeout: Double = 60

    @Option(
        name: .customLong("log-level"),
        help: "Least severe messages logged on stderr; debug adds one line per request. Errors are always logged.")
    var logLevel: LogLevel = .info

    @Flag(
        help:
            "Serve Prometheus metrics at /metrics: requests by route and status, bytes, tile-cache hits and misses, tile times, open connections (without it /metrics is 404)."
    )
    var metrics = false

    func validate() throws {
        guard cacheSize >= 0 else { throw ValidationError("--cache-size must be 0 or more MiB, not \(cacheSize)") }
        if (quality != nil || autoLossy != nil) && format == nil {
            throw ValidationError("--\(quality != nil ? "quality" : "auto-lossy") needs --format (the format it applies to)")
        }
        _ = try encoding()
        if removeColor == nil, removeThreshold != nil || removeHardness != nil {
            throw ValidationError(
                "--remove-\(removeThreshold != nil ? "threshold" : "hardness") needs --remove-color (the paper colour it applies to)")
        }
        _ = try removal()
        // Above 0 (0 would close every connection at once) and at most a day (a longer deadline
        // is none: a client that sends nothing holds its socket as long as it likes).
        guard idleTimeout > 0 && idleTimeout <= 86_400 else {
            throw ValidationError("--idle-timeout must be above 0 and at most 86400 seconds, not \(idleTimeout)")
        }
        // Header values go out verbatim: no control characters (CR/LF would split the header).
        for (option, value) in [("--cache-control", cacheControl), ("--cors", cors), ("--public-url", publicURL ?? "")]
        where value.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
            throw ValidationError("\(option) must not hold control characters such as line breaks")
        }
        if let u = publicURL, !(u.hasPrefix("http://") || u.hasPrefix("https://")) {
            throw ValidationError("--public-url must start with http:// or https://, not '\(u)'")
        }
    }

    /// `--format` with its quality and auto-lossy format, checked; nil without it.
    func encoding() throws -> TileEncoding? {
        guard let format else { return nil }
        do { return try TileEncoding(format: format, quality: quality, autoLossy: autoLossy) } catch { throw ValidationError("--\(error)") }
    }

    /// `--remove-color` and its threshold and hardness, parsed; nil without it.
    func removal() throws -> RemoveColorOptions? {
        guard let removeColor else { return nil }
        guard let paper = RemoveColorOptions.paper(removeColor) else {
            throw ValidationError("--remove-color '\(removeColor)' is not a colour; expected auto or #RRGGBB, e.g. #F2E8D0")
        }
        let t = removeThreshold ?? RemoveColorOptions.defaultThreshold, h = removeHardness ?? RemoveColorOptions.defaultHardness
        if let why = RemoveColorOptions.problem(threshold: t, hardness: h) { throw ValidationError("--remove-\(why)") }
        return RemoveColorOptions(color: paper, threshold: t, hardness: h)
    }

    func run() async throws {
        let catalogue: Catalogue
        let rendered: [OnDemandSource]
        let images: [ScanImage]
        do { (catalogue, rendered, images) = try await load() } catch {
            printError("tegula: \(error)")
            throw ExitCode.failure
        }
        let watcher = SourceWatcher(sources: rendered)
        let config = ServerConfiguration(publicURL: publicURL, corsOrigin: cors == "off" ? nil : cors, idleTimeout: .seconds(idleTimeout))
        var logger = Logger(label: "tegula.serve") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = logLevel.level
        let service = TileService(
            catalogue: catalogue, images: Dictionary(uniqueKeysWithValues: images.map { ($0.id, $0) }),
            configuration: config, tileConfiguration: TileServerConfiguration(cacheControl: cacheControl, missingTile: missing),
            imageConfiguration: IIIFServerConfiguration(cacheControl: cacheControl), leafletDirectory: server.leafletDir,
            logger: logger, metrics: metrics ? ServerMetrics() : nil)
        if service.assets.files["leaflet/leaflet.js"] == nil {
            printError("tegula: warning: Leaflet not found in \(server.leafletDir) (apt-get install libjs-leaflet); the viewer will not load")
        }
        for e in catalogue.entries {
            let how = e.dynamic == nil ? "serving" : e.dynamic is RemoteTileSource ? "serving by range requests" : "rendering on demand"
            printError("tegula: \(how) \(e.id) (\(e.metadata.format.rawValue), z\(e.metadata.zooms.min)–\(e.metadata.zooms.max)) from \(e.path)")
        }
        for i in images {
            printError("tegula: serving \(i.id) as an IIIF image (\(i.width) × \(i.height) px) at /iiif/\(i.id)/info.json from \(i.path)")
        }
        let shownHost = server.host
        try await HTTPServer.run(service: service, host: server.host, port: server.port) { channel in
            let p = channel.localAddress?.port ?? 0
            printError("tegula: listening on http://\(shownHost):\(p)/")
            if service.metrics != nil { printError("tegula: metrics at http://\(shownHost):\(p)/metrics") }
        }
        withExtendedLifetime(watcher) {}
    }

    /// The catalogue in PATH order: tilesets as they are, URLs of PMTiles files by range requests,
    /// everything else rendered on demand; and every scan (georeferenced or not: a scan with no
    /// georeference is served as an IIIF image alone) as an IIIF image.
    func load() async throws -> (Catalogue, [OnDemandSource], [ScanImage]) {
        let resolver = iiif.inputs()
        let inputs = OnDemandInputs(
            queue: RenderQueue(workers: server.renderThreads), memo: TileMemo(byteBudget: cacheSize << 20),
            encoding: try encoding(), removeColor: try removal(), inputs: resolver, tms: grid.tms,
            log: { printError($0) })
        var entries: [CatalogueEntry] = []
        var rendered: [OnDemandSource] = []
        var images: [ScanImage] = []
        for path in paths {
            let location = Location(path)
            if let scan = try await iiifScan(location, resolver: resolver) {
                let id = ServedID.of(path)
                let source = try inputs.source(scan: scan.scan, gcps: scan.gcps, id: id)
                rendered.append(source)
                entries.append(CatalogueEntry(id: id, path: path, source: source, tileMatrixSet: source.tileGrid))
            } else if location.isURL {
                let reader = try await RemotePMTilesReader.open(url: path, fetcher: HTTPRangeSource.fetcher(on: Network.transport))
                entries.append(
                    CatalogueEntry(
                        id: Tileset.name(of: path), path: path,
                        source: RemoteTileSource(reader: reader)))
            } else if OnDemandInputs.isTilesetPath(path) {
                entries += try Catalogue.load(paths: [path]).entries
            } else {
                do {
                    let sources = try inputs.sources(for: path), index = try inputs.sheetIndex(for: path)
                    for source in sources {
                        rendered.append(source)
                        entries.append(
                            CatalogueEntry(id: source.id, path: path, source: source, sheetIndex: index, tileMatrixSet: source.tileGrid))
                        images.append(try ScanImage(id: source.id, scan: source.renderer.job.source.scan, queue: inputs.queue))
                    }
                } catch let e as WarpError where e.reason == .notGeoreferenced {
                    images.append(try ScanImage(id: ServedID.of(path), path: path, queue: inputs.queue))
                }
            }
        }
        if let line = IIIFOptions.summary() { printError(line) }
        var seen: [String: String] = [:]
        for i in images {
            if let first = seen[i.id] { throw TileServerError.duplicateID(id: i.id, first: first, second: i.path) }
            seen[i.id] = i.path
        }
        return (try Catalogue(entries), rendered, images)
    }

    /// An IIIF image URL (with GCPs after nothing: it needs an annotation) or an annotation (a
    /// file or URL) whose target is one, opened now; nil for every other PATH (a URL of a
    /// PMTiles file is read by range requests).
    func iiifScan(_ location: Location, resolver: InputResolver) async throws -> ResolvedInput? {
        let path = location.description
        guard
            location.isURL
                ? !path.lowercased().hasSuffix(".pmtiles")
                : FileManager.default.fileExists(atPath: path) && !OnDemandInputs.isTilesetPath(path) && InputResolver.isJSON(path)
        else { return nil }
        let scan = try await resolver.resolve(path, gcps: nil, mapID: nil)
        guard scan.gcps != nil else {
            throw CLIFailure.iiifWithoutGeoreference(path)
        }
        return scan
    }
}
