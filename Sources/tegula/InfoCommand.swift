import ArgumentParser
import Foundation
import TegulaGDAL
import TegulaGeoreference
import TegulaIIIF
import TegulaIIIFSource
import TegulaInputs
import TegulaSupport

/// `tegula info`: what GDAL sees in a raster, or what an IIIF image service describes.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract:
            "Describe a raster: size, bands, CRS, geotransform or GCPs, nodata and alpha; or an IIIF image: size, levels, tiles, where it comes from.",
        discussion: """
            Works on anything GDAL reads: JPEG/PNG scans, GeoTIFFs, VRTs with GCPs, MBTiles. An IIIF \
            image service URL (its id or its info.json), or a Georeference Annotation (a file or URL) \
            whose target is one, is described from its info.json: the size, the scale factors it is \
            offered at and each level's size, the tile grid, the format Tegula asks for, and the URLs \
            (with the annotation's GCP count and its size checked against the image's).
            """)

    @Argument(
        help:
            "A raster file, an IIIF image service URL (its id or info.json), or a Georeference Annotation (file or URL) whose target is an IIIF image."
    )
    var path: String

    @Option(
        name: .customLong("map"),
        help: ArgumentHelp("Which map of an Allmaps AnnotationPage holding several (its id, or the id's last part).", valueName: "ID"))
    var mapID: String?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @OptionGroup var iiif: IIIFOptions

    func run() throws {
        try reportingErrors {
            let remote = Location(path).isURL
            guard remote || FileManager.default.fileExists(atPath: path) else {
                throw CLIFailure.noSuchFile(path)
            }
            if remote || InputResolver.isJSON(path) {
                let scan = try iiif.inputs().resolveBlocking(path, gcps: nil, mapID: mapID)
                guard let image = scan.image as? IIIFScan else {
                    throw CLIFailure.notIIIF(path)
                }
                let report = try IIIFImageReport(image: image, annotation: scan.gcps, mapID: mapID)
                print(try json ? Self.encoded(report) : report.text)
                return
            }
            let dataset = try Dataset(path: path)
            try dataset.verifyReadable()
            let report = try RasterReport(dataset: dataset)
            print(try json ? Self.encoded(report) : report.text)
        }
    }

    static func encoded<T: Encodable>(_ value: T) throws -> String {
        try JSONStyle.readable.string(value)
    }
}

/// What `tegula info` prints of an IIIF image: its description as Tegula reads it (the grid and
/// format requests follow, ``IIIFImageService``) and, for an annotation, its GCPs.
struct IIIFImageReport: Codable {
    struct Level: Codable {
        var scaleFactor: Int
        var width: Int
        var height: Int
        var tiles: Int
    }
    /// The image service's id and its info.json.
    var service: String
    var infoURL: String
    /// The annotation the image was named by (a file, or the cached copy of a URL's).
    var annotation: String?
    var gcps: Int?
    var mask: Bool?
    var apiVersion: String
    var level: String
    var width: Int
    var height: Int
    var tileWidth: Int
    var tileHeight: Int
    var levels: [Level]
    var sizes: [[Int]]
    var formats: [String]
    var format: String
    var maxWidth: Int?
    var maxHeight: Int?
    var maxArea: Int?

    init(image: IIIFScan, annotation: String?, mapID: String?) throws {
        let s = image.service, info = s.info
        service = info.id
        infoURL = s.infoURL
        self.annotation = annotation
        if let annotation {
            let set = try GCPReader.read(path: annotation, mapID: mapID)
            gcps = set.gcps.filter(\.enabled).count
            mask = set.mask != nil
        }
        apiVersion = info.version == .v2 ? "2.1" : "3.0"
        level = info.level.name
        width = info.width
        height = info.height
        tileWidth = s.grid.width
        tileHeight = s.grid.height
        levels = s.scaleFactors.map { f in
            let g = s.grid.gridSize(scaleFactor: f, imageWidth: info.width, imageHeight: info.height)
            return Level(scaleFactor: f, width: (info.width + f - 1) / f, height: (info.height + f - 1) / f, tiles: g.columns * g.rows)
        }
        sizes = info.sizes.map { [$0.width, $0.height] }
        formats = info.formats.map(\.rawValue)
        format = s.format.rawValue
        maxWidth = info.maxWidth
        maxHeight = info.maxHeight
        maxArea = info.maxArea
    }

    var text: String {
        var lines = ["\(service)", "  from: \(infoURL) (IIIF Image API \(apiVersion), \(level))"]
        if let annotation {
            lines.append("  annotation: \(annotation) (\(gcps ?? 0) GCPs, \(mask == true ? "a mask" : "no mask"))")
        }
        lines.append("  size: \(width) x \(height) pixels")
        lines.append("  tiles: \(tileWidth) x \(tileHeight), asked for as \(format) (offered: \(formats.joined(separator: ", ")))")
        lines.append("  levels: \(levels.count), scale factors \(levels.map { "\($0.scaleFactor)" }.joined(separator: ", "))")
        for l in levels { lines.append("    scale factor \(l.scaleFactor): \(l.width) x \(l.height) pixels, \(l.tiles) tile(s)") }
        if !sizes.isEmpty { lines.append("  sizes: \(sizes.map { "\($0[0]) x \($0[1])" }.joined(separator: ", "))") }
        let limits = [maxWidth.map { "maxWidth \($0)" }, maxHeight.map { "maxHeight \($0)" }, maxArea.map { "maxArea \($0)" }].compactMap { $0 }
        lines.append("  limits: \(limits.isEmpty ? "none" : limits.joined(separator: ", "))")
        return lines.joined(separator: "\n")
    }
}

/// The facts `tegula info` prints, as a Codable value.
struct RasterReport: Codable {
    struct Band: Codable {
        var index: Int
        var dataType: String
        var color: String
        var noData: Double?
        var block: [Int]
    }
    struct GCP: Codable {
        var id: String
        var pixel: Double
        var line: Double
        var x: Double
        var y: Double
    }
    var path: String
    var driver: String
    var width: Int
    var height: Int
    var bands: [Band]
    var srs: String?
    var srsWKT: String?
    var geoTransform: [Double]?
    var gcps: [GCP]
    var gcpSRS: String?
    var hasAlpha: Bool

    init(dataset d: Dataset) throws {
        path = d.path
        driver = d.driverName
        width = d.width
        height = d.height
        let info = d.bands
        bands = info.map {
            Band(
                index: $0.index, dataType: $0.dataType, color: $0.colorInterpretation,
                noData: $0.noData, block: [$0.blockWidth, $0.blockHeight])
        }
        let srsObj = d.spatialReference
        srs = srsObj?.label
        srsWKT = srsObj?.wkt
        geoTransform = d.geoTransform?.coefficients
        gcps = d.gcps.map { GCP(id: $0.id, pixel: $0.pixel, line: $0.line, x: $0.x, y: $0.y) }
        gcpSRS = d.gcpSpatialReference?.label
        hasAlpha = info.contains(where: \.isAlpha)
    }

    var text: String {
        var lines = ["\(path)", "  driver: \(driver)", "  size: \(width) x \(height) pixels, \(bands.count) band(s)"]
        for b in bands {
            var l = "  band \(b.index): \(b.dataType), \(b.color), block \(b.block[0])x\(b.block[1])"
            if let nd = b.noData { l += ", nodata \(nd)" }
            lines.append(l)
        }
        lines.append("  alpha: \(hasAlpha ? "yes (alpha band)" : "no")")
        lines.append("  srs: \(srs ?? "none")")
        if let gt = geoTransform {
            lines.append("  geotransform: \(gt.map { "\($0)" }.joined(separator: ", "))")
            lines.append("  pixel size: \(gt[1]) x \(gt[5])")
        } else {
            lines.append("  geotransform: none")
        }
        if gcps.isEmpty {
            lines.append("  gcps: none")
        } else {
            lines.append("  gcps: \(gcps.count) in \(gcpSRS ?? "unknown CRS")")
            for g in gcps { lines.append("    \(g.id): pixel \(g.pixel) line \(g.line) -> \(g.x) \(g.y)") }
        }
        return lines.joined(separator: "\n")
    }
}
