import ArgumentParser
import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaInputs
import TegulaMatch
import TegulaScan
import TegulaSupport
import TegulaTileset

/// `tegula match`: control points for a scan, proposed by matching it against a georeferenced
/// reference of the same map.
struct MatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Propose control points for a scan by matching it against a georeferenced image of the same map.",
        discussion: """
            The reference is a GeoTIFF or VRT with a geotransform or GCPs (a `tegula georef` output \
            too), another scan of the same map with its GCP file (--reference-gcps): a re-scan, \
            another copy or edition, an IIIF image with its Georeference Annotation (the annotation, \
            a file or URL), or a tileset of a georeferenced map (a tile folder with tiles.json, an \
            MBTiles, a PMTiles, a TileJSON URL, or an XYZ URL template with --reference-bounds), \
            read at the zoom whose pixels are nearest the scan's (its lower zooms for the reduced \
            copy), points in EPSG:3857. \
            SIFT features are matched on reduced copies (ratio test, mutual nearest neighbours, \
            MAGSAC++), then each point is refined at full resolution by cross-correlation in a \
            small window; one point per cell of a grid over the matched area, 12 to 36 points. The \
            verdict comes from the geometry: enough consistent matches, points that agree under \
            leave-one-out and spread over the matched area (thresholds in docs/matching.md). The \
            points are written in the \
            form --gcp-format names or OUT's extension does (.points, .csv, .txt for GDAL text, or \
            .json for an Allmaps annotation), each named with its match score; the fit report is the one `tegula georef` prints. When the \
            images do not show the same map: one line on stderr, exit code 3, nothing written.
            """)

    @Argument(help: "The scan to georeference: any raster GDAL reads (a local file).")
    var scan: String

    @Option(
        help:
            "A georeferenced image of the same map: GeoTIFF or VRT (geotransform or GCPs), a scan with --reference-gcps, a Georeference Annotation of an IIIF image (file or URL), or a tileset (folder with tiles.json, .mbtiles, .pmtiles, a TileJSON URL, or an XYZ URL template with --reference-bounds)."
    )
    var reference: String

    @Option(
        help: ArgumentHelp(
            "The area the scan shows, in degrees, when the reference is an XYZ URL template (which says no bounds): the zoom read is the one whose pixels over it are nearest the scan's.",
            valueName: "WEST,SOUTH,EAST,NORTH"))
    var referenceBounds: GeoBoundsArgument?

    @OptionGroup(title: "IIIF images (a reference annotation's image)")
    var iiif: IIIFOptions

    @Option(
        help: ArgumentHelp(
            "The reference's GCP file (.points, .vrt, .csv, GDAL text, ArcGIS CSV or TSV, Allmaps .json) when it is a plain scan.", valueName: "FILE")
    )
    var referenceGcps: String?

    @Option(
        name: .shortAndLong,
        help: "Where to write the points: OUT.points (QGIS), OUT.csv, OUT.txt (GDAL text), or OUT.json (an Allmaps annotation naming the scan).")
    var output: String

    @Option(
        help: ArgumentHelp(
            "The form -o is written in: qgis, csv, gdal, arcgis-csv, arcgis-tsv, allmaps (default: the one OUT's extension names).", valueName: "FORM"
        ))
    var gcpFormat: GCPFormat?

    /// Exit code of a pair that does not match.
    static let noMatchExitCode: Int32 = 3

    func validate() throws {
        guard (try? GCPFileOutput(path: output, format: gcpFormat)) != nil else {
            throw ValidationError(
                "-o \(output): write .points, .csv, .txt (GDAL text) or .json (an Allmaps annotation), or name the form with --gcp-format")
        }
    }

    func run() throws {
        try reportingErrors {
            for (path, what) in [(scan, "scan"), (reference, "reference")] + (referenceGcps.map { [($0, "reference GCP file")] } ?? [])
            where !Location(path).isURL && !FileManager.default.fileExists(atPath: path) {
                throw CLIFailure.noSuchFile(path, what)
            }
            let dir = output.parentPath
            if !dir.isEmpty && !FileManager.default.fileExists(atPath: dir) {
                throw CLIFailure.noFolder(output, dir)
            }
            // Local files alone: a URL is refused in one line.
            let scans = LocalScans()
            let scanReader = try scans.open(scan).reader()
            if let gcpFile = referenceGcps, Location(reference).isURL || Tileset.isReadable(at: reference) {
                throw CLIFailure(
                    .badOption, at: "--reference-gcps \(gcpFile)",
                    "\(reference) is a tileset, georeferenced by its tile grid; give GCPs for a plain scan only")
            }
            let options = ReferenceOptions(gcpFile: referenceGcps, bounds: referenceBounds?.bounds)
            let georeferenced = try iiif.inputs().reference(reference, options: options, scanWidth: scanReader.width, scanHeight: scanReader.height)
            if let summary = georeferenced.summary { printError("tegula: reference: \(summary)") }
            let verdict = try Matcher.match(scan: scanReader, reference: georeferenced.reader)
            guard case .matched(let points, let figures) = verdict else {
                if case .noMatch(let why, _) = verdict {
                    printError("tegula: no match: \(scan) and \(reference) do not show the same map surely enough: \(why); nothing written")
                }
                throw ExitCode(Self.noMatchExitCode)
            }
            let gcps = try georeferenced.groundPoints(points.map(\.reference)).enumerated().map { i, ground in
                GCP(id: Self.name(i, points[i].score), pixel: points[i].scan, ground: ground)
            }
            // Fitted in the reference's CRS, where its pixels are a plane (as gdalwarp fits GCPs).
            let set = GCPSet(gcps: gcps, crs: georeferenced.crs, source: output)
            let fitted = try Georeferencer.fit(set, imageWidth: scanReader.width, imageHeight: scanReader.height, options: FitOptions(fitCRS: .gcp))
            try GCPFileOutput.write(
                try file(
                    gcps, crs: georeferenced.crs, points: points, transform: fitted.kind,
                    width: scanReader.width, height: scanReader.height))
            printError(
                String(
                    format:
                        "tegula: %d points, one per cell of the matched area (score %.2f–%.2f); the reference covers %.0f%% of the scan; points' leave-one-out RMS %.2f px of the coarser image (%.2f scan px); %d consistent feature matches of %d",
                    points.count, points.map(\.score).min() ?? 0, points.map(\.score).max() ?? 0, 100 * (figures.coverage ?? 0),
                    figures.leaveOneOutRMS ?? 0, figures.leaveOneOutScanPixels ?? 0, figures.inliers, figures.tentative))
            let r = fitted.report
            for w in r.warnings { printError("tegula: warning: \(w)") }
            printError("tegula: \(GeorefCommand.summary(r))")
        }
    }

    /// A point's name: its number and match score, as every format can carry it.
    static func name(_ i: Int, _ score: Double) -> String {
        String(format: "m%02d score=%.3f", i + 1, score)
    }

    /// The output's bytes in the form ``GCPFileOutput`` chooses (--gcp-format, else OUT's
    /// extension), each point named with its score (an annotation's notes carry it too); no fit
    /// sidecar: the points are proposed, to be fitted by whoever reads them.
    func file(_ gcps: [GCP], crs: CRS, points: [ProposedPoint], transform: TransformKind, width: Int, height: Int) throws -> [(
        path: String, data: Data
    )] {
        let notes = Dictionary(uniqueKeysWithValues: zip(gcps.map(\.id), points.map { String(format: "match score %.3f", $0.score) }))
        return try GCPFileOutput(path: output, format: gcpFormat).files(
            gcps, crs: crs, transform: transform, stored: nil, notes: notes, mask: nil,
            scanPath: (scan as NSString).standardizingPath, width: width, height: height)
    }
}
