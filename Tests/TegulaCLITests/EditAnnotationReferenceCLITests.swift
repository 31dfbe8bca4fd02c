import Foundation
import TegulaTestSupport
import Testing

/// `tegula edit SCAN --reference ANNOTATION` (issue 42 item 4): a reference that is another scan
/// of the map with its Allmaps Georeference Annotation, the transfer between copies and editions,
/// in headless Chromium (scripts/suggest_check.py, its `matched` phase). The Schagen sheet is an
/// IIIF image served on loopback by `iiif_testserver.py`, its annotation a 5 × 5 grid of its
/// pixels on the Web Mercator grid of ``EditSuggestCLITests``; the scan is that test's re-scan.
/// The page shows the reference as a layer warped by the editor itself through the annotation's
/// GCPs, and Suggest and snap match against it (the oracle: the affine map the re-scan was made
/// with); a tile of that layer is compared with `gdalwarp` of the sheet given the same GCPs
/// (`gdal_translate -gcp`, EPSG:3857), by numpy (scripts/tile_psnr.py).
@Suite(.timeLimit(.minutes(20)), .serialized)
struct EditAnnotationReferenceCLITests {
    /// The sheet's GCPs: pixel and EPSG:3857 position of a 5 × 5 grid on its 100 m pixels.
    static var gcps: [(x: Double, y: Double, easting: Double, northing: Double)] {
        (0...4).flatMap { i in
            (0...4).map { j in
                let x = 2700 * Double(i) / 4, y = 1350 * Double(j) / 4
                return (
                    x, y, EditSuggestCLITests.left + EditSuggestCLITests.resolution * x, EditSuggestCLITests.top - EditSuggestCLITests.resolution * y
                )
            }
        }
    }

    /// The re-scan and its truth, the sheet served as an IIIF image, and its annotation written
    /// to `dir/sheet.json`.
    static func annotated(in dir: String) throws -> (scan: String, truth: [Double], iiif: LocalHTTPServer, annotation: String) {
        let (_, scan, truth) = try EditSuggestCLITests.fixtures(in: dir)
        let images = URL(fileURLWithPath: dir + "/images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Schagen1689.scan, toPath: images.appendingPathComponent("sheet.jpg").path)
        let iiif = try LocalHTTPServer.iiifTestServer(images: images)
        let annotation = dir + "/sheet.json"
        try AllmapsAnnotation.text(
            name: "sheet", service: iiif.base + "/3.0_pil/sheet", type: "ImageService3", width: 2700, height: 1350,
            gcps: AllmapsAnnotation.mercatorGrid(
                width: 2700, height: 1350, left: EditSuggestCLITests.left, top: EditSuggestCLITests.top,
                resolution: EditSuggestCLITests.resolution)
        ).write(toFile: annotation, atomically: true, encoding: .utf8)
        return (scan, truth, iiif, annotation)
    }

    /// The editor on `reference`: the page's reference layer from the editor's own `/reference/`,
    /// Suggest and snap against the truth, and a tile of the layer against GDAL.
    static func check(_ what: String, reference: String, scan: String, truth: [Double], dir: String) throws {
        let editor = try LocalHTTPServer.tegula([
            "edit", scan, "-o", dir + "/\(what).points", "--reference", reference,
            "--basemap", EditSuggestCLITests.noBasemap, "--render-threads", "2",
        ])
        defer { editor.stop() }
        let run = try ProgramRun.run(
            "/usr/bin/env",
            [
                "REFERENCE_TILES=\(editor.base)/reference/", "/usr/bin/python3", PackageRoot.path("scripts/suggest_check.py"), editor.base + "/",
                dir, "matched", "\(EditSuggestCLITests.left)", "\(EditSuggestCLITests.top)", "\(EditSuggestCLITests.resolution)",
                "\(EditSuggestCLITests.scale)",
            ] + truth.map { "\($0)" })
        print(run.stdout, run.stderr)
        #expect(run.status == 0, "suggest_check \(what): \(run.stdout) \(run.stderr)")
        let (pixels, psnr) = try tileAgainstGDAL(editor: editor.base, dir: dir)
        print("editor with an annotation reference (\(what)): tile 10 at the sheet's centre, \(pixels) pixels, PSNR \(psnr) dB against gdalwarp")
        #expect(pixels == 256 * 256, "the sheet fills the tile at its centre: \(pixels) opaque pixels in both")
        #expect(psnr >= 30, "the layer's tile is the sheet warped through its GCPs: PSNR \(psnr) dB against gdalwarp")
    }

    /// The layer's tile at zoom 10 under the sheet's centre (about the sheet's own 100 m pixels
    /// at 53° N), fetched from the editor, against `gdalwarp -order 1 -r bilinear` of the sheet
    /// given the annotation's GCPs in EPSG:3857 onto that tile's box: the pixels opaque in both
    /// and the PSNR.
    static func tileAgainstGDAL(editor: String, dir: String) throws -> (pixels: Int, psnr: Double) {
        let half = 20_037_508.342789244, span = 2 * half / 1024
        let centre = (
            x: EditSuggestCLITests.left + 1350 * EditSuggestCLITests.resolution, y: EditSuggestCLITests.top - 675 * EditSuggestCLITests.resolution
        )
        let column = Int((centre.x + half) / span), row = Int((half - centre.y) / span)
        let tile = dir + "/reference-tile.png"
        try ProgramRun.output("curl", ["-sf", "--max-time", "60", "-o", tile, "\(editor)/reference/10/\(column)/\(row).png"])
        let box = [-half + Double(column) * span, half - Double(row + 1) * span, -half + Double(column + 1) * span, half - Double(row) * span]
        let points = gcps.flatMap { ["-gcp", "\($0.x)", "\($0.y)", "\($0.easting)", "\($0.northing)"] }
        try ProgramRun.output("gdal_translate", ["-q", "-of", "VRT", "-a_srs", "EPSG:3857"] + points + [Schagen1689.scan, dir + "/gcps.vrt"])
        try ProgramRun.output(
            "gdalwarp",
            ["-q", "-overwrite", "-order", "1", "-r", "bilinear", "-t_srs", "EPSG:3857", "-te"] + box.map { "\($0)" }
                + ["-ts", "256", "256", "-dstalpha", dir + "/gcps.vrt", dir + "/oracle.tif"])
        let said = try ProgramRun.output(try LocalHTTPServer.venv("python3"), [PackageRoot.path("scripts/tile_psnr.py"), tile, dir + "/oracle.tif"])
        let words = said.split(whereSeparator: \.isWhitespace)
        let pixels = try #require(words.count == 4 ? Int(words[1]) : nil, "tile_psnr.py said \(said)")
        let psnr = try #require(Double(words[3]), "tile_psnr.py said \(said)")
        return (pixels, psnr)
    }

    @Test func anAnnotationFileIsALayerOfItsIIIFImageWarpedThroughItsGCPsAndSuggestMatchesAgainstIt() throws {
        let dir = try TemporaryFolder.make("edit-annotation").path
        let (scan, truth, iiif, annotation) = try Self.annotated(in: dir)
        defer { iiif.stop() }
        try Self.check("annotation", reference: annotation, scan: scan, truth: truth, dir: dir)
        print("editor with an annotation reference: \(dir)/suggest.png")
    }

    @Test func anAnnotationURLIsALayerOfItsIIIFImageWarpedThroughItsGCPsAndSuggestMatchesAgainstIt() throws {
        let dir = try TemporaryFolder.make("edit-annotation-url").path
        let (scan, truth, iiif, _) = try Self.annotated(in: dir)
        defer { iiif.stop() }
        let files = try LocalHTTPServer.python(serving: URL(fileURLWithPath: dir))
        defer { files.stop() }
        try Self.check("annotation-url", reference: files.base + "/sheet.json", scan: scan, truth: truth, dir: dir)
    }
}
