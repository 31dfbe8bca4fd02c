import Foundation
import TegulaSupport
import TegulaTestSupport
import Testing

@testable import TegulaPipeline

/// Sheets of a tied series whose pipeline entry has no `gcps:` key at all (no `georeference:`
/// section, or one without `gcps:`), on a 3 × 3 series from scripts/make-series with exact GCPs on r2c2 alone and the
/// hand ties of ``TiePlacementTests``: a scan without a georeference (a PNG) is placed by its
/// ties as `gcps: none` places it; a GeoTIFF that carries one keeps it. Positions are checked by
/// GDAL's transformers and numpy against `truth.json`.
@Suite(.serialized, .timeLimit(.minutes(20))) struct UnkeyedSheetPlacementTests {
    /// The sheet whose scan is given its true geotransform (EPSG:3857) and no ties.
    static let georeferenced = "r1c1"

    /// The series: r2c2 from the sheet list with its GCPs; every other sheet a `maps:` entry of
    /// name and input only, its scan a PNG, except ``georeferenced``, a GeoTIFF with the truth's
    /// geotransform whose ties are dropped unless `tyingGeoreferenced`.
    static func series(_ label: String, tyingGeoreferenced: Bool = false) throws -> (folder: String, file: String) {
        let folder = try TemporaryFolder.make(label).path
        let file = try MadeSeries.make(in: folder, cols: 3, rows: 3, gcpError: 0, extra: ["--ties-file"])
        try ProgramRun.output(PackageRoot.path(".venv/bin/python3"), ["-c", Self.rescan, folder, Self.georeferenced])
        let list = folder + "/sheets.csv"
        let rows = try String(contentsOfFile: list, encoding: .utf8).split(separator: "\n")
        try (rows.filter { $0.hasPrefix("name,") || $0.hasPrefix("r2c2,") }.joined(separator: "\n") + "\n")
            .write(toFile: list, atomically: true, encoding: .utf8)
        var entries = ["maps:"]
        for r in 1...3 {
            for c in 1...3 where (r, c) != (2, 2) {
                let name = "r\(r)c\(c)"
                entries.append("  - {name: \(name), input: scans/\(name).\(name == Self.georeferenced ? "tif" : "png")}")
            }
        }
        try MadeSeries.append(entries.joined(separator: "\n") + "\n", to: file)
        var random = SeededRandom(seed: 43)
        let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/truth.json"))) as! [String: Any]
        let ties = TiePlacementTests.ties(truth: truth, random: &random).filter {
            tyingGeoreferenced || ($0.0 != Self.georeferenced && $0.3 != Self.georeferenced)
        }
        let csv = ["map_a,x_a,y_a,map_b,x_b,y_b"] + ties.map { "\($0.0),\($0.1),\($0.2),\($0.3),\($0.4),\($0.5)" }
        try (csv.joined(separator: "\n") + "\n").write(toFile: folder + "/ties.csv", atomically: true, encoding: .utf8)
        return (folder, file)
    }

    /// Every scan but r2c2's and argv[2]'s written as a PNG; argv[2]'s GeoTIFF given the truth's
    /// geotransform in EPSG:3857.
    static let rescan = """
        import json, sys
        from osgeo import gdal, osr
        gdal.UseExceptions()
        folder, own = sys.argv[1], sys.argv[2]
        for name, t in json.load(open(f"{folder}/truth.json"))["sheets"].items():
            if name == own:
                ds = gdal.Open(f"{folder}/scans/{name}.tif", gdal.GA_Update)
                ds.SetGeoTransform([t["x0"], t["res"], 0, t["y0"], 0, -t["res"]])
                srs = osr.SpatialReference(); srs.ImportFromEPSG(3857)
                ds.SetProjection(srs.ExportToWkt())
                ds = None
            elif name != "r2c2":
                gdal.Translate(f"{folder}/scans/{name}.png", f"{folder}/scans/{name}.tif", format="PNG")
        """

    /// The pipeline's georeference stage run, then ``TiePlacementTests/positionOracle``'s {sheet: px}.
    static func positions(_ file: String, folder: String) throws -> (Pipeline, [String: Double]) {
        let pipeline = try Pipeline.load(path: file)
        try PipelineRunner(pipeline: pipeline, options: RunOptions(stage: .georeference, jobs: 2), log: { _ in }, progress: nil).run()
        let (collar, cell, overlap) = (TiePlacementTests.collar, TiePlacementTests.cell, TiePlacementTests.overlap)
        let out = try ProgramRun.output(
            PackageRoot.path(".venv/bin/python3"),
            ["-c", TiePlacementTests.positionOracle, folder + "/truth.json", pipeline.workFolder, "\(collar)", "\(collar + cell + 2 * overlap)"])
        let errors = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Double], "\(out)")
        try #require(errors.count == 9)
        return (pipeline, errors)
    }

    /// The series' pipeline with `georeference` written on each PNG sheet, in a file (and so a
    /// work folder) of its own.
    static func variant(_ file: String, _ label: String, georeference: String) throws -> String {
        let out = (file as NSString).deletingLastPathComponent + "/series-\(label).yml"
        let text = try String(contentsOfFile: file, encoding: .utf8)
            .replacingOccurrences(of: ".png}", with: ".png, georeference: \(georeference)}")
        try text.write(toFile: out, atomically: true, encoding: .utf8)
        return out
    }

    @Test func aTiedSheetWithoutAGCPsKeyIsPlacedByItsTiesUnlessItsScanCarriesAGeoreference() throws {
        let (folder, file) = try Self.series("unkeyed")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The same series with `gcps: none` on each PNG sheet, and with a section that names a
        // transform but no GCPs (helmert, the transform `gcps: none` takes by default).
        let none = try Self.variant(file, "none", georeference: "{gcps: none}")
        let section = try Self.variant(file, "section", georeference: "{transform: helmert}")
        let (pipeline, errors) = try Self.positions(file, folder: folder)
        let (_, errorsNone) = try Self.positions(none, folder: folder)
        let (_, errorsSection) = try Self.positions(section, folder: folder)
        let byName = Dictionary(uniqueKeysWithValues: pipeline.spec.maps.map { ($0.name, $0) })
        #expect(byName[Self.georeferenced]?.georeference == nil, "the GeoTIFF keeps its own georeference")
        #expect(pipeline.series.tied.count == 8 && pipeline.series.tied[Self.georeferenced] == nil)
        #expect(!FileManager.default.fileExists(atPath: pipeline.workFolder + "/\(Self.georeferenced)/georef.vrt"))
        #expect(errors[Self.georeferenced]! < 1e-6, "the GeoTIFF's own geotransform is the truth")
        // The documented growth from the anchor's own error: at most 6 ε px more per tie.
        let anchor = errors["r2c2"]!
        for r in 1...3 {
            for c in 1...3 where "r\(r)c\(c)" != Self.georeferenced {
                let name = "r\(r)c\(c)", hops = abs(r - 2) + abs(c - 2)
                let bound = anchor + 6 * TiePlacementTests.tieNoise * Double(hops)
                #expect(errors[name]! <= bound, "\(name), \(hops) ties from r2c2, is \(errors[name]!) px from its true place (bound \(bound))")
                #expect(
                    abs(errors[name]! - errorsNone[name]!) < 1e-9, "\(name): \(errors[name]!) px without gcps:, \(errorsNone[name]!) with gcps: none")
                #expect(
                    abs(errorsSection[name]! - errorsNone[name]!) < 1e-9,
                    "\(name): \(errorsSection[name]!) px with only transform: helmert, \(errorsNone[name]!) with gcps: none")
            }
        }
        print("positional error without gcps: (px): \(errors.sorted { $0.key < $1.key })")
    }

    /// A `georeference:` section without `gcps:` on a map that no tie names (and no `ties: auto`)
    /// is refused at load as before, in one line at the section, naming what is missing.
    @Test func anUntiedSectionWithoutGCPsIsRefusedNamingWhatIsMissing() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("a.tif")
        let e = try f.loadError("version: 1\nmaps:\n  - name: a\n    input: a.tif\n    georeference: {transform: helmert}\n    output: o\n")
        #expect(!e.contains("\n") && e.contains(":5:") && e.contains("maps[0].georeference: needs gcps"), "\(e)")
    }

    /// A tied GeoTIFF without `gcps:` keeps its own georeference: it is not placed by its ties,
    /// so a hand tie to it is refused at load as before, in one line naming it.
    @Test func aTiedScanWithItsOwnGeoreferenceKeepsItAndItsTieIsRefused() throws {
        let (folder, file) = try Self.series("unkeyed-own", tyingGeoreferenced: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let e = #expect(throws: PipelineError.self) { try Pipeline.load(path: file) }
        let line = e?.description ?? ""
        #expect(!line.contains("\n") && line.contains("map '\(Self.georeferenced)' is not fitted from GCPs"), "\(line)")
    }
}
