import ArgumentParser
import Foundation
import TegulaEditor
import TegulaGDAL
import TegulaGeoreference
import TegulaHTTP
import TegulaInputs
import TegulaMatch
import TegulaOnDemand
import TegulaServer
import TegulaSupport
import TegulaTileset
import TegulaWarp

/// `tegula edit`: the georeferencing editor for one scan, served to a browser.
struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Place ground control points in the browser: live residuals, the exact warp as an overlay, undo, save in every format.",
        discussion: """
            Serves a page (Leaflet from Debian's libjs-leaflet, no CDN) with the scan in pixel space \
            beside a basemap. Click the scan and the map (either first) to add a pair; drag to move; \
            the fit, residuals, leave-one-out errors and warnings update on every edit; `o` shows the \
            scan warped by the current fit over the basemap; `?` lists the keys. Save writes the \
            output atomically in the format its extension names: .points (QGIS), .csv, .txt (GDAL \
            text), .json (Allmaps annotation) or .vrt; the session is autosaved beside it (OUTPUT.session.json) \
            on every edit and restored when the editor starts again. Basemaps: URL templates with \
            {z}/{x}/{y} (default: OpenStreetMap) or local tilesets (folders, .mbtiles, .pmtiles), \
            which work offline. The HTTP API (GET /api/session, POST /api/fit, PUT /api/session, \
            GET /api/predict, GET /api/convert) is in docs/editor.md. The scan may be an IIIF image \
            service URL or a Georeference Annotation (file or URL) whose target is one: the scan \
            pane reads only the regions it shows, the annotation's points are the start, and a \
            .json save names that image service.

            With --reference REF (a georeferenced image of the same map, as `tegula match` takes it): \
            a local reference, a Georeference Annotation's IIIF image (warped through its GCPs), or a \
            tileset's TileJSON URL or XYZ template (with --reference-bounds), is a layer on the map; \
            Suggest proposes the pairs matching finds, each \
            kept or dropped one by one; `t` snaps the selected point's ground (or completes a point \
            placed on the scan alone) to the twin of its scan pixel on the reference, found by \
            matching a small window around it. A match that is not sure proposes nothing and says so.

            Ties between two sheets of a series: `tegula edit PIPELINE.yml --map A --tie-with B` \
            shows the two maps' scans side by side; click a place on one and the same place on the \
            other to add a tie; each tie's seam error (the ground distance between where the two \
            sheets' own fits put it, and after they are fitted together) updates on every edit; Save \
            rewrites the pipeline's `ties:` list in place, every other line kept. See docs/editor.md.
            """)

    @Argument(
        help:
            "The scan to georeference: any raster GDAL reads, an IIIF image service URL (its id or info.json), or a Georeference Annotation (file or URL) whose target is an IIIF image (its GCPs to start from). With --tie-with: the pipeline file."
    )
    var scan: String

    @Option(
        name: .customLong("map"),
        help: ArgumentHelp(
            "Which map of an Allmaps AnnotationPage holding several (its id, or the id's last part); with --tie-with, the pipeline map shown on the left.",
            valueName: "ID"))
    var mapID: String?

    @Option(
        name: .customLong("tie-with"),
        help: ArgumentHelp(
            "Place ties between the pipeline's map --map and this map (by name); Save writes the pipeline's ties: list.", valueName: "MAP"))
    var tieWith: String?

    @Option(help: "GCPs to start from (.points, .csv, Allmaps .json, .vrt or a raster with GCPs).")
    var gcps: String?

    @Option(
        name: .shortAndLong,
        help:
            "Where Save writes: .points, .csv, .txt (GDAL text), .json (Allmaps) or .vrt (default: the --gcps file or the annotation file, else SCAN.points; needed for an IIIF image or an annotation by URL)."
    )
    var output: String?

    @Option(
        help:
            "A basemap: a URL template with {z}/{x}/{y} (and an optional attribution after a space-separated '|'), or a local tileset. Repeatable; default OpenStreetMap."
    )
    var basemap: [String] = []

    @Option(
        help: ArgumentHelp(
            "A georeferenced image of the same map to match against, as tegula match takes it (GeoTIFF or VRT, a scan with --reference-gcps, a tileset, a TileJSON URL, an XYZ URL template with --reference-bounds, a Georeference Annotation): it is shown as a layer (an image or an annotation's IIIF image warped through its georeference), and Suggest and snap propose pairs from it.",
            valueName: "REF"))
    var reference: String?

    @Option(help: ArgumentHelp("The reference's GCP file when it is a plain scan.", valueName: "FILE"))
    var referenceGcps: String?

    @Option(
        help: ArgumentHelp(
            "The area the scan shows, in degrees, when the reference is an XYZ URL template (which says no bounds), as tegula match takes it.",
            valueName: "WEST,SOUTH,EAST,NORTH"))
    var referenceBounds: GeoBoundsArgument?

    @Option(
        name: .customLong("gcp-srs"),
        help:
            "CRS of the GCPs' ground coordinates when the file does not say (default EPSG:4326); other CRSs are converted to longitude/latitude for the map."
    )
    var gcpSrs: String?

    @OptionGroup var server: ServerOptions

    @OptionGroup var iiif: IIIFOptions

    func validate() throws {
        guard tieWith != nil else { return }
        guard mapID != nil else {
            throw ValidationError("--tie-with needs --map: the two pipeline maps to tie (tegula edit PIPELINE.yml --map A --tie-with B)")
        }
        let unused = [
            ("--gcps", gcps != nil), ("-o", output != nil), ("--basemap", !basemap.isEmpty), ("--gcp-srs", gcpSrs != nil),
            ("--reference", reference != nil), ("--reference-gcps", referenceGcps != nil), ("--reference-bounds", referenceBounds != nil),
        ].filter(\.1).map(\.0)
        guard unused.isEmpty else {
            throw ValidationError(
                "\(unused.joined(separator: ", ")) does not apply with --tie-with: the tie editor reads the maps' GCPs from the pipeline and saves into its ties: list"
            )
        }
    }

    func run() async throws {
        if let tieWith, let mapID { return try await runTies(mapA: mapID, mapB: tieWith) }
        let service: EditorService
        do { service = try await makeService() } catch {
            printError("tegula: \(error)")
            throw ExitCode.failure
        }
        let shownHost = server.host, output = service.output
        try await HTTPServer.run(service: service, host: server.host, port: server.port) { channel in
            let p = channel.localAddress?.port ?? 0
            printError("tegula: editing \(output); open http://\(shownHost):\(p)/")
        }
    }

    /// The tie editor for maps `mapA` and `mapB` of the pipeline file given as the scan.
    func runTies(mapA: String, mapB: String) async throws {
        let service: TieEditorService
        do {
            guard FileManager.default.fileExists(atPath: scan) else { throw CLIFailure.noSuchFile(scan, "pipeline file") }
            let pair = try TiePair(pipeline: scan, mapA: mapA, mapB: mapB)
            service = try TieEditorService(
                pair: pair, leafletDirectory: server.leafletDir, renderThreads: server.renderThreads, log: { printError($0) })
        } catch {
            printError("tegula: \(error)")
            throw ExitCode.failure
        }
        let shownHost = server.host, file = service.pair.pipelineFile
        try await HTTPServer.run(service: service, host: server.host, port: server.port) { channel in
            let p = channel.localAddress?.port ?? 0
            printError("tegula: tying \(mapA) and \(mapB) in \(file); open http://\(shownHost):\(p)/")
        }
    }

    /// The output path: -o, else the --gcps file (or the annotation given as the scan) when it is
    /// a format Save writes, else SCAN.points; an IIIF image or an annotation by URL needs -o.
    func outputPath(scan: ResolvedInput) throws -> String {
        if let output { return output }
        let remote = Location(self.scan).isURL
        if let gcps = scan.gcps, !remote || self.gcps != nil, (try? SessionFormat(output: gcps)) != nil { return gcps }
        guard !remote else {
            throw CLIFailure.saveNeedsOutput(self.scan)
        }
        return (self.scan as NSString).deletingPathExtension + ".points"
    }

    func makeService() async throws -> EditorService {
        guard Location(scan).isURL || FileManager.default.fileExists(atPath: scan) else { throw CLIFailure.noSuchFile(scan) }
        // An IIIF image or an annotation of one (a file or URL) is looked through to the image.
        let inputs = iiif.inputs()
        let resolved = try await inputs.resolve(scan, gcps: gcps, mapID: mapID)
        let image = resolved.image
        let out = try outputPath(scan: resolved)
        _ = try SessionFormat(output: out)
        let dir = out.parentPath
        var isDir: ObjCBool = false
        if !dir.isEmpty, !(FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) && isDir.boolValue) {
            throw CLIFailure.noFolder(out, dir)
        }
        let crs = try gcpSrs.map { try CRS.parse($0) }
        var initial = EditorSession(output: out)
        if let gcps = resolved.gcps {
            guard FileManager.default.fileExists(atPath: gcps) else { throw CLIFailure.noSuchFile(gcps, "GCP file") }
            initial = try EditorSession(try GCPReader.read(path: gcps, gcpCRS: crs, mapID: mapID), output: out)
        }
        var maps: [Basemap] = []
        var tilesets: [String] = []
        for b in basemap {
            if b.contains("{z}") {
                let parts = b.components(separatedBy: " | ")
                maps.append(
                    Basemap(
                        name: URL(string: parts[0])?.host ?? "basemap \(maps.count + 1)", url: parts[0],
                        attribution: parts.count > 1 ? parts[1] : ""))
            } else {
                guard OnDemandInputs.isTilesetPath(b) else {
                    throw CLIFailure.badBasemap(b)
                }
                tilesets.append(b)
            }
        }
        var catalogue: Catalogue?
        if !tilesets.isEmpty {
            let c = try Catalogue.load(paths: tilesets)
            catalogue = c
            maps = Basemap.local(c) + maps
        }
        if maps.isEmpty { maps = [.openStreetMap] }
        let service = image.map { (id: $0.sourceID, type: $0.sourceType) }
        let matched = try reference.map { try editorReference($0, scan: resolved.scan, inputs: inputs) }
        return try EditorService(
            scanPath: resolved.scan, output: out, initial: initial, basemaps: maps, basemapTilesets: catalogue,
            leafletDirectory: server.leafletDir, renderThreads: server.renderThreads, scanService: service,
            scans: inputs, reference: matched, log: { printError($0) })
    }

    /// The reference `ref`, opened for matching the scan by the one place that tells the kinds
    /// apart (``InputResolver/reference(_:options:scanWidth:scanHeight:)``, as `tegula match`
    /// opens it), and its layer: a local tileset as it is, another local image (with its GCP
    /// file, if any) warped on demand, a Georeference Annotation's IIIF image warped on demand
    /// through the annotation's GCPs, a tileset on a server (its TileJSON or XYZ template,
    /// 256-pixel tiles) from that server.
    func editorReference(_ ref: String, scan: String, inputs: InputResolver) throws -> EditorReference {
        guard Location(ref).isURL || FileManager.default.fileExists(atPath: ref) else { throw CLIFailure.noSuchFile(ref, "reference") }
        let reader = try inputs.open(scan).reader()
        let options = ReferenceOptions(gcpFile: referenceGcps, bounds: referenceBounds?.bounds)
        let match = try inputs.reference(ref, options: options, scanWidth: reader.width, scanHeight: reader.height)
        let layer: EditorReference.Layer
        if let t = ReferenceTemplate(match), t.tilePixels == 256 {
            layer = .remote(template: t.template, zooms: t.zooms, bounds: t.bounds)
        } else if let annotated = try inputs.annotatedImage(ref, options: options) {
            layer = .warped(WarpInput(path: annotated.scan, gcpFile: annotated.gcps))
        } else if Location(ref).isURL {
            layer = .none
        } else {
            layer = Tileset.isReadable(at: ref) ? .tileset(ref) : .warped(WarpInput(path: ref, gcpFile: referenceGcps))
        }
        return EditorReference(name: ref, reference: match, scan: reader, layer: layer)
    }
}
