import ArgumentParser
import Foundation
import TegulaGDAL

/// `tegula info`: what GDAL sees in a raster.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Describe a raster: size, bands, CRS, geotransform or GCPs, nodata and alpha.",
        discussion: "Works on anything GDAL reads: JPEG/PNG scans, GeoTIFFs, VRTs with GCPs, MBTiles.")

    @Argument(help: "The raster file.")
    var path: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        try reportingErrors {
            guard FileManager.default.fileExists(atPath: path) else {
                throw CLIFailure(message: "\(path): no such file")
            }
            let dataset = try Dataset(path: path)
            try dataset.verifyReadable()
            let report = try RasterReport(dataset: dataset)
            if json {
                let enc = JSONEncoder()
                enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try enc.encode(report), as: UTF8.self))
            } else {
                print(report.text)
            }
        }
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
            Band(index: $0.index, dataType: $0.dataType, color: $0.colorInterpretation,
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
