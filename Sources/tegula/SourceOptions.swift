import ArgumentParser
import Foundation
import TegulaGeoreference
import TegulaInputs
import TegulaSupport
import TegulaWarp

/// The options every stage that reads a scan shares: the input and how it is georeferenced.
struct SourceOptions: ParsableArguments {
    @Argument(
        help:
            "A georeferenced raster (geotransform in any CRS, GCPs, a `tegula georef` output), a plain scan with --gcps, an IIIF image service URL with --gcps, or a Georeference Annotation (file or URL) whose target is an IIIF image."
    )
    var inputPath: String

    @Option(help: "GCP file (.points, .vrt, .csv, GDAL text, ArcGIS CSV or TSV, Allmaps .json) for a plain scan.")
    var gcps: String?

    @Option(
        name: .customLong("map"),
        help: ArgumentHelp("Which map of an Allmaps AnnotationPage holding several (its id, or the id's last part).", valueName: "ID"))
    var mapID: String?

    @OptionGroup var fit: FitArguments

    @Option(help: "Mask (neatline) polygon in scan pixels: GeoJSON, WKT or a points file.")
    var mask: String?

    @OptionGroup var iiif: IIIFOptions

    /// Refuse a missing input, GCP or mask file with one line naming it.
    func checkFiles() throws {
        guard Location(inputPath).isURL || FileManager.default.fileExists(atPath: inputPath) else {
            throw CLIFailure.noSuchFile(inputPath)
        }
        if let gcps, !FileManager.default.fileExists(atPath: gcps) {
            throw CLIFailure.noSuchFile(gcps, "GCP file")
        }
        if let mask, !FileManager.default.fileExists(atPath: mask) {
            throw CLIFailure.noSuchFile(mask, "mask file")
        }
    }

    /// The input as the warp stage takes it, every option parsed; an annotation or an IIIF image
    /// (a file or URL) looked through by `inputs` to the image it names.
    func warpInput(_ inputs: InputResolver) throws -> WarpInput {
        try checkFiles()
        let scan = try inputs.resolveBlocking(inputPath, gcps: gcps, mapID: mapID)
        var input = WarpInput(
            path: scan.scan, gcpFile: scan.gcps, gcpCRS: try fit.gcpCRS(), fit: try fit.options(),
            mask: try mask.map { try MaskReader.read(path: $0) })
        input.mapID = mapID
        return input
    }

    /// The input as an annotation that says its image's size (``InputResolver/described(_:gcps:mapID:)``),
    /// with the fit's input, for a command that needs no pixels: nothing of the image is fetched.
    /// Nil for any other input.
    func described(_ inputs: InputResolver) throws -> (image: DescribedImage, input: WarpInput)? {
        try checkFiles()
        guard let image = try inputs.described(inputPath, gcps: gcps, mapID: mapID) else { return nil }
        var input = WarpInput(
            path: image.id, gcpFile: image.annotation, gcpCRS: try fit.gcpCRS(), fit: try fit.options(),
            mask: try mask.map { try MaskReader.read(path: $0) })
        input.mapID = mapID
        return (image, input)
    }

    /// Open the input (through the command's resolver, made here) and work out how its pixels
    /// map to EPSG:3857.
    func resolve() throws -> WarpSource {
        let inputs = iiif.inputs()
        return try warpInput(inputs).resolve(opening: inputs)
    }

    /// Refuse an output path whose folder does not exist.
    func checkOutput(_ path: String) throws {
        let dir = path.parentPath
        var isDir: ObjCBool = false
        if !dir.isEmpty && !(FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) && isDir.boolValue) {
            throw CLIFailure.noFolder(path, dir)
        }
    }
}
