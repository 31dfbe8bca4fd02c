import ArgumentParser
import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaInputs
import TegulaScan

/// `tegula georef`: fit GCPs to a scan and write it georeferenced, with a report and a picture.
struct GeorefCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "georef",
        abstract: "Georeference a scan from ground control points: a VRT or GeoTIFF with GCPs, a JSON report and an SVG picture.",
        discussion: """
            GCP files: QGIS .points, GDAL .vrt (or any raster with GCPs), CSV x,y,lon,lat[,name] \
            (or x,y,X,Y with --gcp-srs), GDAL text (PIXEL LINE X Y a line, as gdal_translate -gcp), \
            ArcGIS CSV id,x,y,X,Y and TSV x y X Y (rows negative), Allmaps annotation .json; told \
            apart by content, and a file that could be read two ways is refused. Pixels are GDAL's: \
            (0,0) is the top-left corner of the top-left pixel. Transforms: helmert (≥2 GCPs), \
            polynomial1/affine (≥3), projective (≥4), polynomial2 (≥6), polynomial3 (≥10), tps (≥3), \
            straight (Allmaps': scale and shift, no rotation; ≥2, only when named); each is inverted \
            exactly. Without --transform: the file's own (Allmaps), else the lowest leave-one-out \
            RMSE. The fit happens in the GCPs' CRS when it is projected (as QGIS, GDAL and Allmaps), \
            in EPSG:3857 for GCPs in longitude and latitude, unless --fit-srs says otherwise \
            (`gcp`: the GCPs' CRS, as gdalwarp); the summary says which and why. The output carries the GCPs and TEGULA_TRANSFORM / TEGULA_FIT_SRS / \
            TEGULA_MASK metadata, so `tegula warp` and `tegula tile` reproduce this fit. An IIIF \
            image service URL (with --gcps) or a Georeference Annotation (file or URL) whose target \
            is one is fitted the same way, fetching nothing but its info.json (and, for --picture, \
            a reduced copy); an annotation or GeoreferencedMap that says its image's size needs no \
            network at all unless --picture is given. Its output is OUT.json, an Allmaps annotation \
            naming the image with the fitted transform and mask. --footprint writes the mask (else \
            the border) through the fit as GeoJSON, refined as Allmaps refines it. Nothing is \
            written when anything fails.
            """)

    @OptionGroup var input: SourceOptions

    @Option(
        name: .shortAndLong,
        help:
            "Output: OUT.vrt (references the scan) or OUT.tif (a copy of its pixels); for an IIIF image, OUT.json (a Georeference Annotation naming the image service)."
    )
    var output: String

    @Option(help: "Write the full report (residuals, leave-one-out, distortion, round trip, footprint) as JSON.")
    var report: String?

    @Option(help: "Write an SVG of the scan with GCPs, residual arrows, leave-one-out arrows and the mask.")
    var picture: String?

    @Option(
        help: ArgumentHelp(
            "Also write the GCPs as a GCP file, in the form --write-gcps-format names or FILE's extension does (.points, .csv, .txt for GDAL text, .json for Allmaps); forms without room for the fit keep it in FILE.fit.",
            valueName: "FILE"))
    var writeGcps: String?

    @Option(help: ArgumentHelp("The form --write-gcps writes: qgis, csv, gdal, arcgis-csv, arcgis-tsv, allmaps.", valueName: "FORM"))
    var writeGcpsFormat: GCPFormat?

    @Option(
        help: ArgumentHelp(
            "Also write the footprint (the mask, else the scan's border, through the fit) as a GeoJSON polygon in longitude and latitude, its edges refined where the fit bends them; the report holds the same polygon.",
            valueName: "FILE"))
    var footprint: String?

    @Option(help: ArgumentHelp("How many times the footprint's edges may be halved where the fit bends them (Allmaps' default).", valueName: "N"))
    var footprintMaxDepth = EdgeRefinement.allmaps.maxDepth

    @Option(
        help: ArgumentHelp(
            "An edge is halved when its mapped midpoint lies further than this fraction of its length from the straight edge (Allmaps' default).",
            valueName: "RATIO"))
    var footprintMinOffsetRatio = EdgeRefinement.allmaps.minOffsetRatio

    func validate() throws {
        if writeGcpsFormat != nil && writeGcps == nil {
            throw ValidationError("--write-gcps-format names the form of --write-gcps FILE; give the file too")
        }
        guard (0...12).contains(footprintMaxDepth) else {
            throw ValidationError("--footprint-max-depth \(footprintMaxDepth): must be 0…12 (each step may double an edge's points)")
        }
        guard footprintMinOffsetRatio.isFinite, footprintMinOffsetRatio >= 0 else {
            throw ValidationError(
                "--footprint-min-offset-ratio \(footprintMinOffsetRatio): must be a number ≥ 0 (0 halves every edge down to the depth)")
        }
    }

    /// How the footprint's edges are refined.
    var refinement: EdgeRefinement {
        EdgeRefinement(maxDepth: footprintMaxDepth, minOffsetRatio: footprintMinOffsetRatio)
    }

    func run() throws {
        try reportingErrors {
            let gcpFile = try writeGcps.map { try GCPFileOutput(path: $0, format: writeGcpsFormat) }
            let footprintFile = footprint.map { FootprintOutput(path: $0, refinement: refinement) }
            let inputs = input.iiif.inputs()
            let fitted =
                try writeDescribed(inputs, gcpFile: gcpFile, footprint: footprintFile)
                ?? writeOpened(inputs, gcpFile: gcpFile, footprint: footprintFile)
            let r = fitted.report
            for w in r.warnings { printError("tegula: warning: \(w)") }
            printError("tegula: \(Self.summary(r))")
            if let gcpFile, !gcpFile.format.holdsTheCRS, !fitted.gcps.crs.isSame(as: .wgs84) {
                let crs = fitted.gcps.crs.label
                printError(
                    "tegula: \(gcpFile.path) holds no CRS and its X Y are in \(crs): read it back with --gcp-srs \(crs.hasPrefix("EPSG:") ? crs : "and that CRS")"
                )
            }
        }
    }

    /// For an annotation that says its image's size, when no picture is asked for: fitted,
    /// reported and written without fetching anything of the image; nil for any other input.
    func writeDescribed(_ inputs: InputResolver, gcpFile: GCPFileOutput?, footprint: FootprintOutput?) throws -> Georeference? {
        guard picture == nil, let (image, scan) = try input.described(inputs) else { return nil }
        guard let fit = try scan.georeference(imageWidth: image.width, imageHeight: image.height) else {
            throw CLIFailure.noGCPs(input.inputPath)
        }
        let fitted = fit.refiningFootprint(refinement)
        try GeoreferenceWriter.writeAnnotation(
            service: image.id, serviceType: image.type, georeference: fitted, output: output,
            report: report, picture: nil, gcpFile: gcpFile, footprint: footprint
        ) { _, _ in [] }
        return fitted
    }

    /// Any other input: the scan opened (an IIIF image's description fetched), fitted and written.
    func writeOpened(_ inputs: InputResolver, gcpFile: GCPFileOutput?, footprint: FootprintOutput?) throws -> Georeference {
        let scan = try input.warpInput(inputs)
        guard let fit = try scan.georeference(opening: inputs) else {
            throw CLIFailure.noGCPs(input.inputPath)
        }
        let fitted = fit.refiningFootprint(refinement)
        let opened = try inputs.open(scan.path)
        if let image = opened.remote {
            try GeoreferenceWriter.writeAnnotation(
                service: image.sourceID, serviceType: image.sourceType, georeference: fitted,
                output: output, report: report, picture: picture, gcpFile: gcpFile,
                footprint: footprint
            ) { w, h in
                try opened.thumbnail(width: w, height: h)
            }
        } else {
            try GeoreferenceWriter.write(
                imagePath: scan.path, georeference: fitted, output: output,
                report: report, picture: picture, gcpFile: gcpFile, footprint: footprint)
        }
        return fitted
    }

    /// One line: transform, how it was chosen, RMSE and leave-one-out RMSE, worst round trip.
    static func summary(_ r: GeoreferenceReport) -> String {
        func fig(_ e: RMSE) -> String {
            guard let m = e.metres, let p = e.pixels else { return "n/a" }
            return String(format: "%.0f m (%.2f px)", m, p)
        }
        return
            "\(r.transform.rawValue) (\(r.chosenBy == "given" ? "given" : "chosen by \(r.chosenBy)")) fitted in \((try? CRS(r.fitSRS))?.label ?? r.fitSRS) (\(r.fitSRSChosenBy)) from \(r.rmse.divisor) GCPs: RMSE \(fig(r.rmse)), leave-one-out RMSE \(fig(r.leaveOneOutRMSE)), round trip ≤ \(String(format: "%.2g", r.roundTripMaxPixels)) px"
    }
}

extension GCPFormat: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { names }
    public var defaultValueDescription: String { name }
}
