import ArgumentParser
import Foundation
import TegulaEditor
import TegulaGDAL
import TegulaGeoreference
import TegulaOnDemand
import TegulaServer

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
        output atomically in the format its extension names: .points (QGIS), .csv, .json \
        (Allmaps annotation) or .vrt; the session is autosaved beside it (OUTPUT.session.json) \
        on every edit and restored when the editor starts again. Basemaps: URL templates with \
        {z}/{x}/{y} (default: OpenStreetMap) or local tilesets (folders, .mbtiles, .pmtiles), \
        which work offline. The HTTP API (GET /api/session, POST /api/fit, PUT /api/session, \
        GET /api/predict, GET /api/convert) is in docs/editor.md.
        """)

    @Argument(help: "The scan to georeference (any raster GDAL reads).")
    var scan: String

    @Option(help: "GCPs to start from (.points, .csv, Allmaps .json, .vrt or a raster with GCPs).")
    var gcps: String?

    @Option(name: .shortAndLong, help: "Where Save writes: .points, .csv, .json (Allmaps) or .vrt (default: the --gcps file, else SCAN.points).")
    var output: String?

    @Option(help: "A basemap: a URL template with {z}/{x}/{y} (and an optional attribution after a space-separated '|'), or a local tileset. Repeatable; default OpenStreetMap.")
    var basemap: [String] = []

    @Option(name: .customLong("gcp-srs"), help: "CRS of the GCPs' ground coordinates when the file does not say (default EPSG:4326); other CRSs are converted to longitude/latitude for the map.")
    var gcpSrs: String?

    @OptionGroup var server: ServerOptions

    func run() async throws {
        let service: EditorService
        do { service = try makeService() } catch {
            printError("tegula: \(error)")
            throw ExitCode.failure
        }
        let shownHost = server.host, output = service.output
        try await HTTPServer.run(service: service, host: server.host, port: server.port) { channel in
            let p = channel.localAddress?.port ?? 0
            printError("tegula: editing \(output); open http://\(shownHost):\(p)/")
        }
    }

    /// The output path: -o, else the --gcps file when it is a format Save writes, else SCAN.points.
    func outputPath() -> String {
        if let output { return output }
        if let gcps, (try? SessionFormat(output: gcps)) != nil { return gcps }
        return (scan as NSString).deletingPathExtension + ".points"
    }

    func makeService() throws -> EditorService {
        guard FileManager.default.fileExists(atPath: scan) else { throw CLIFailure(message: "\(scan): no such file") }
        let out = outputPath()
        _ = try SessionFormat(output: out)
        let dir = (out as NSString).deletingLastPathComponent
        var isDir: ObjCBool = false
        if !dir.isEmpty, !(FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) && isDir.boolValue) {
            throw CLIFailure(message: "\(out): the folder \(dir) does not exist")
        }
        let crs = try gcpSrs.map { try CRS.parse($0) }
        var initial = EditorSession(output: out)
        if let gcps {
            guard FileManager.default.fileExists(atPath: gcps) else { throw CLIFailure(message: "\(gcps): no such GCP file") }
            initial = try EditorSession(try GCPReader.read(path: gcps, gcpCRS: crs), output: out)
        }
        var maps: [Basemap] = []
        var tilesets: [String] = []
        for b in basemap {
            if b.contains("{z}") {
                let parts = b.components(separatedBy: " | ")
                maps.append(Basemap(name: URL(string: parts[0])?.host ?? "basemap \(maps.count + 1)", url: parts[0],
                                    attribution: parts.count > 1 ? parts[1] : ""))
            } else {
                guard OnDemandInputs.isTilesetPath(b) else {
                    throw CLIFailure(message: "--basemap \(b): neither a URL template with {z}/{x}/{y} nor a tileset (folder, .mbtiles, .pmtiles)")
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
        return try EditorService(scanPath: scan, output: out, initial: initial, basemaps: maps, basemapTilesets: catalogue,
                                 leafletDirectory: server.leafletDir, renderThreads: server.renderThreads, log: { printError($0) })
    }
}
