import ArgumentParser
import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaInputs

/// `tegula transform`: pixel → map (or map → pixel) for points on stdin, like gdaltransform.
struct TransformCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transform",
        abstract: "Transform `x y` lines on stdin through a GCP fit: pixel/line in, map X Y (GCP CRS) out.",
        discussion: """
            Like `gdaltransform -gcp …`, with the same transforms as `tegula georef` and the exact \
            inverse (--inverse: map X Y in the GCPs' CRS in, pixel/line out). Extra columns after x y \
            are ignored; blank lines and lines starting with # are skipped. All input is read and \
            checked before anything is printed. Without --image the image is taken to span 0…max \
            GCP pixel in each direction (an Allmaps annotation's own size when it gives one; nothing \
            is fetched). Where the fit folds over (a polynomial 3 beyond its GCPs), \
            a ground point has more than one preimage: --inverse answers the one on the GCPs' side \
            of the fold, prints an empty line where there is none, and warns naming the fold's \
            pixels.
            """)

    @Option(help: "GCP file (.points, .vrt, .csv, GDAL text, ArcGIS CSV or TSV, Allmaps .json).")
    var gcps: String

    @Option(
        name: .customLong("map"),
        help: ArgumentHelp("Which map of an Allmaps AnnotationPage holding several (its id, or the id's last part).", valueName: "ID"))
    var mapID: String?

    @OptionGroup var fit: FitArguments

    @Option(help: "The scan the GCPs belong to (for its size: GCPs outside it are refused).")
    var image: String?

    @Flag(help: "Map X Y (in the GCPs' CRS) to pixel/line, by the exact inverse.")
    var inverse = false

    func run() throws {
        try reportingErrors {
            guard FileManager.default.fileExists(atPath: gcps) else { throw CLIFailure.noSuchFile(gcps, "GCP file") }
            let set = try GCPReader.read(path: gcps, gcpCRS: try fit.gcpCRS(), mapID: mapID)
            let options = try fit.options()
            let (w, h) = try size(set)
            let fitted = try Georeferencer.fit(set, imageWidth: w, imageHeight: h, options: options)
            let points = try readPoints()
            var lines: [String] = []
            if inverse {
                let folds = fitted.foldOver(.plane)
                let out = try fitted.groundToPixels(points.map { GroundPoint(x: $0.1, y: $0.2) }, folds: folds)
                var folded: [Int] = []
                for (i, answer) in out.enumerated() {
                    switch answer {
                    case .pixel(let p): lines.append("\(p.x) \(p.y)")
                    case .folded:
                        lines.append("")
                        folded.append(points[i].0)
                    case .none:
                        throw CLIFailure.noPixel(line: points[i].0, x: points[i].1, y: points[i].2)
                    }
                }
                if let folds {
                    let shown = folded.prefix(10).map(String.init).joined(separator: ", ") + (folded.count > 10 ? ", …" : "")
                    let none =
                        folded.isEmpty
                        ? "every point has one"
                        : "\(folded.count) of \(out.count) points have none (an empty line each; stdin line\(folded.count == 1 ? "" : "s") \(shown))"
                    printError("tegula: warning: \(folds.description): each answer is the preimage on the GCPs' side of the fold; \(none)")
                }
            } else {
                let out = try fitted.pixelsToGround(points.map { PixelPoint(x: $0.1, y: $0.2) })
                for (i, g) in out.enumerated() {
                    guard g.x.isFinite, g.y.isFinite else {
                        throw CLIFailure.noPosition(line: points[i].0, x: points[i].1, y: points[i].2, crs: set.crs)
                    }
                    lines.append("\(g.x) \(g.y)")
                }
            }
            if !lines.isEmpty { print(lines.joined(separator: "\n")) }
        }
    }

    /// The image size: from --image, else the size an Allmaps annotation says its image has
    /// (nothing fetched), else the GCP pixels' extent.
    func size(_ set: GCPSet) throws -> (Int, Int) {
        if let image {
            guard FileManager.default.fileExists(atPath: image) else { throw CLIFailure.noSuchFile(image) }
            let ds = try Dataset(path: image)
            return (ds.width, ds.height)
        }
        if let annotated = try InputResolver.annotatedSize(gcps, mapID: mapID) { return annotated }
        let xs = set.gcps.map(\.pixel.x).filter(\.isFinite), ys = set.gcps.map(\.pixel.y).filter(\.isFinite)
        return (max(1, Int((xs.max() ?? 1).rounded(.up))), max(1, Int((ys.max() ?? 1).rounded(.up))))
    }

    /// (line number, x, y) for every point line on stdin.
    func readPoints() throws -> [(Int, Double, Double)] {
        var out: [(Int, Double, Double)] = []
        var number = 0
        while let raw = readLine() {
            number += 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let f = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
            guard f.count >= 2, let x = Double(f[0]), let y = Double(f[1]), x.isFinite, y.isFinite else {
                throw CLIFailure.notTwoNumbers(number, line)
            }
            out.append((number, x, y))
        }
        return out
    }
}
