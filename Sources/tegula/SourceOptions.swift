import ArgumentParser
import Foundation
import TegulaGeoreference
import TegulaScan
import TegulaWarp

/// The options every stage that reads a scan shares: the input and how it is georeferenced.
struct SourceOptions: ParsableArguments {
    @Argument(help: "A georeferenced raster (geotransform in any CRS, GCPs, a `tegula georef` output), a plain scan with --gcps, an IIIF image service URL with --gcps, or a Georeference Annotation (file or URL) whose target is an IIIF image.")
    var inputPath: String

    @Option(help: "GCP file (.points, .vrt, .csv, GDAL text, ArcGIS CSV or TSV, Allmaps .json) for a plain scan.")
    var gcps: String?

    @Option(name: .customLong("map"), help: ArgumentHelp("Which map of an Allmaps AnnotationPage holding several (its id, or the id's last part).", valueName: "ID"))
    var mapID: String?

    @OptionGroup var fit: FitArguments

    @Option(help: "Mask (neatline) polygon in scan pixels: GeoJSON, WKT or a points file.")
    var mask: String?

    @OptionGroup var iiif: IIIFOptions

    /// Refuse a missing input, GCP or mask file with one line naming it.
    func checkFiles() throws {
        guard ScanSources.isRemote(inputPath) || FileManager.default.fileExists(atPath: inputPath) else {
            throw CLIFailure(message: "\(inputPath): no such file")
        }
        if let gcps, !FileManager.default.fileExists(atPath: gcps) {
            throw CLIFailure(message: "\(gcps): no such GCP file")
        }
        if let mask, !FileManager.default.fileExists(atPath: mask) {
            throw CLIFailure(message: "\(mask): no such mask file")
        }
    }

    /// The input as the warp stage takes it, every option parsed.
    func warpInput() throws -> WarpInput {
        try checkFiles()
        // An annotation or an IIIF image (a file or URL) is looked through to the image it names.
        var scan = ScanArgument(scan: inputPath, gcps: gcps)
        if ScanSources.isRemote(inputPath) || (gcps == nil && ScanArgument.isJSON(inputPath)) {
            scan = try ScanArgument.resolveBlocking(inputPath, gcps: gcps, mapID: mapID, client: try iiif.client())
        }
        var input = WarpInput(path: scan.scan, gcpFile: scan.gcps, gcpCRS: try fit.gcpCRS(), fit: try fit.options(),
                              mask: try mask.map { try MaskReader.read(path: $0) })
        input.mapID = mapID
        return input
    }

    /// Open the input and work out how its pixels map to EPSG:3857.
    func resolve() throws -> WarpSource {
        try warpInput().resolve()
    }

    /// Refuse an output path whose folder does not exist.
    func checkOutput(_ path: String) throws {
        let dir = (path as NSString).deletingLastPathComponent
        var isDir: ObjCBool = false
        if !dir.isEmpty && !(FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) && isDir.boolValue) {
            throw CLIFailure(message: "\(path): the folder \(dir) does not exist")
        }
    }
}
