import Foundation
import TegulaGeometry
import TegulaMatch
import TegulaTestSupport

/// The matching tests' truth, made by GDAL's own tools: the real 1689 scan given a geotransform
/// (the reference), and re-scans of it warped by a known homography with `gdalwarp` and degraded
/// with `gdal_translate` (JPEG quality, tone and gamma) and a reduce-and-enlarge blur.
enum MatchFixtures {
    /// The reference: Schagen 1689 with 100 m pixels in EPSG:3857 (2700 × 1350).
    static let referenceWidth = 2700.0, referenceHeight = 1350.0

    /// Reference pixel (GDAL's convention) of an EPSG:3857 position in ``reference(in:)``.
    static func referencePixel(_ g: GroundPoint) -> PixelPoint {
        PixelPoint(x: (g.x - 400_000) / 100, y: (7_100_000 - g.y) / 100)
    }

    /// Writes the reference GeoTIFF into `folder`.
    static func reference(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("reference.tif").path
        try ProgramRun.output(
            "gdal_translate",
            [
                "-q", "-a_srs", "EPSG:3857", "-a_ullr", "400000", "7100000", "670000", "6965000",
                Schagen1689.scan, path,
            ])
        return path
    }

    /// The reference cut into a tileset by the built `tegula tile` (the real pyramid: max-zoom
    /// tiles warped from it, lower zooms halved), as `name` (a folder, `.mbtiles` or `.pmtiles`)
    /// in `folder`. At zoom 10 its pixels are 152.9 m, a re-scan at 1.3 × the reference's 100 m
    /// has 76.9 m: the tileset is at about half the scan's resolution. `options` go to `tegula tile`
    /// as they are (`--tile-size 512`, `--scale 2`).
    static func tileset(of image: String, _ name: String, zooms: String = "5-10", options: [String] = [], in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try ProgramRun.output(try BuiltTegula.path(), ["tile", image, "-o", path, "--zoom", zooms] + options)
        return path
    }

    /// How a re-scan is made from the reference.
    struct Distortion: Sendable, CustomStringConvertible {
        var name: String
        var degrees = 0.0
        var scale = 1.0
        /// The homography's x term of w: 1e-4 tilts the sheet by about ±13 % across.
        var perspective = 0.0
        /// The share of the warped sheet's area kept, around its centre.
        var crop = 1.0
        var jpegQuality = 90
        /// `gdal_translate -exponent` after the tones are squeezed to 20–235.
        var gamma = 1.0
        /// Reduce by this factor (area average) and enlarge back (cubic).
        var blur = 1.0
        var description: String { name }
    }

    /// A re-scan: its path, size and the true homography scan → reference (GDAL's convention).
    struct Rescan {
        var path: String
        var width: Int
        var height: Int
        var truth: Homography
    }

    /// Warps the reference by `d` with gdalwarp (a thin-plate spline through a dense grid of the
    /// homography's exact points: gdalwarp has no projective transformer; with no perspective the
    /// spline is the affine map exactly) and degrades it.
    static func rescan(_ d: Distortion, in folder: URL) throws -> Rescan {
        let w = referenceWidth, h = referenceHeight
        let c = cos(d.degrees * .pi / 180), s = sin(d.degrees * .pi / 180)
        var forward = Homography([1, 0, 0, 0, 1, 0, d.perspective, 0, 1])
            .after(Homography([d.scale * c, -d.scale * s, 0, d.scale * s, d.scale * c, 0, 0, 0, 1]))
            .after(.scaling(1, 1, moving: -w / 2, -h / 2))
        let corners = [PixelPoint(x: 0, y: 0), PixelPoint(x: w, y: 0), PixelPoint(x: w, y: h), PixelPoint(x: 0, y: h)].map(forward.apply)
        let x0 = corners.map(\.x).min()!, x1 = corners.map(\.x).max()!, y0 = corners.map(\.y).min()!, y1 = corners.map(\.y).max()!
        let k = d.crop.squareRoot()
        let outW = Int(((x1 - x0) * k).rounded()), outH = Int(((y1 - y0) * k).rounded())
        forward = Homography.scaling(1, 1, moving: -(x0 + (x1 - x0) * (1 - k) / 2), -(y0 + (y1 - y0) * (1 - k) / 2)).after(forward)

        let steps = d.perspective == 0 ? (2, 2) : (40, 20)
        var gcps: [String] = []
        for i in 0...steps.0 {
            for j in 0...steps.1 {
                let u = w * Double(i) / Double(steps.0), v = h * Double(j) / Double(steps.1)
                let p = forward.apply(PixelPoint(x: u, y: v))
                gcps += ["-gcp", "\(u)", "\(v)", "\(p.x)", "\(-p.y)"]
            }
        }
        let base = folder.appendingPathComponent(d.name).path
        try ProgramRun.output("gdal_translate", ["-q", "-of", "VRT", "-a_srs", "EPSG:3857"] + gcps + [Schagen1689.scan, base + ".src.vrt"])
        try ProgramRun.output(
            "gdalwarp",
            [
                "-q", "-overwrite", "-tps", "-r", "cubic", "-te", "0", "\(-outH)", "\(outW)", "0",
                "-ts", "\(outW)", "\(outH)", "-wo", "INIT_DEST=255", base + ".src.vrt", base + ".warped.tif",
            ])
        var current = base + ".warped.tif"
        if d.blur > 1 {
            try ProgramRun.output(
                "gdalwarp",
                [
                    "-q", "-overwrite", "-r", "average", "-ts", "\(Int(Double(outW) / d.blur))",
                    "\(Int(Double(outH) / d.blur))", current, base + ".small.tif",
                ])
            try ProgramRun.output(
                "gdalwarp", ["-q", "-overwrite", "-r", "cubic", "-ts", "\(outW)", "\(outH)", base + ".small.tif", base + ".blurred.tif"])
            current = base + ".blurred.tif"
        }
        let tone = d.gamma == 1 ? [] : ["-scale", "0", "255", "20", "235", "-exponent", "\(d.gamma)"]
        let path = base + ".jpg"
        try ProgramRun.output(
            "gdal_translate", ["-q", "-of", "JPEG", "-co", "QUALITY=\(d.jpegQuality)", "-co", "WORLDFILE=NO"] + tone + [current, path])
        try? FileManager.default.removeItem(atPath: path + ".aux.xml")
        return Rescan(path: path, width: outW, height: outH, truth: forward.inverse!)
    }

    /// A `width` × `height` PPM of uniform noise (seeded) or, with `value`, of one grey.
    static func flat(_ name: String, width: Int = 1600, height: Int = 1200, value: UInt8? = nil, in folder: URL) throws -> String {
        var random = SeededRandom(seed: 1689)
        var bytes = Array("P6\n\(width) \(height)\n255\n".utf8)
        bytes += (0..<(width * height * 3)).map { _ in value ?? UInt8.random(in: 0...255, using: &random) }
        let path = folder.appendingPathComponent(name + ".ppm").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// How far, in scan pixels, the homography `fitted` (scan → reference) is from `truth` over
    /// a 40 × 40 grid on the scan, where the reference shows the sheet: RMS and worst.
    static func error(of fitted: Homography, against truth: Homography, width: Int, height: Int) -> (rms: Double, worst: Double) {
        let back = truth.inverse!
        var sum = 0.0, worst = 0.0, n = 0
        for i in 0...40 {
            for j in 0...40 {
                let p = PixelPoint(x: Double(width) * Double(i) / 40, y: Double(height) * Double(j) / 40)
                let q = truth.apply(p)
                guard q.x >= 0, q.y >= 0, q.x <= referenceWidth, q.y <= referenceHeight else { continue }
                let r = back.apply(fitted.apply(p))
                let e = hypot(r.x - p.x, r.y - p.y)
                sum += e * e
                worst = max(worst, e)
                n += 1
            }
        }
        return ((sum / Double(max(n, 1))).squareRoot(), worst)
    }
}
