import Foundation
import TegulaGeometry
import TegulaGeoreference
import TegulaPyramid
import TegulaTileset
import TegulaWarp
import Testing

@testable import TegulaPipeline

/// Maps georeferenced from GCPs: the stage's files, pins in the tileset, GCPs a transform cannot use.
struct GCPStageTests {
    static func map(transform: String, points: Int = 5) -> String {
        let all = [
            "{id: NW, pixel: [0, 0], ground: [-60, 60]}",
            "{id: NE, pixel: [128, 0], ground: [60, 60]}",
            "{id: SW, pixel: [0, 64], ground: [-60, -30]}",
            "{id: SE, pixel: [128, 64], ground: [60, -30]}",
            "{id: C, pixel: [64, 32], ground: [1, 20]}",
        ]
        let lines = ["transform: \(transform)", "mask: [[4, 4], [124, 4], [124, 60], [4, 60]]", "gcps:"] + all.prefix(points).map { "  - " + $0 }
        return oneMap(georeference: lines, maxZoom: 2)
    }

    /// A pipeline of one map, `scan.tif`, georeferenced by `lines` (each a line of its
    /// `georeference:` section, indented as within it) and cut at zooms 0 to `maxZoom` into `out/scan`.
    static func oneMap(georeference lines: [String], maxZoom: Int) -> String {
        """
        version: 1
        maps:
          - name: scan
            input: scan.tif
            georeference:
        \(lines.map { "      " + $0 }.joined(separator: "\n"))
            tile: {min_zoom: 0, max_zoom: \(maxZoom)}
            output: out/scan

        """
    }

    @Test func inlineGCPsWriteTheGeoreferenceFilesAndPins() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("scan.tif")
        let path = try f.pipeline(Self.map(transform: "tps"))
        let r = try runPipeline(path)
        #expect(r.error == nil, "\(String(describing: r.error)) \(r.log)")
        let work = f.folder + "/.tegula/p/scan"
        for file in ["georef.vrt", "report.json", "residuals.svg", "mask.wkt", "warped.tif"] {
            #expect(FileManager.default.fileExists(atPath: work + "/" + file), "\(file)")
        }
        #expect(r.log.contains { $0.contains("fitted tps (given) in EPSG:3857 from 5 GCPs") }, "\(r.log)")
        // The recorded georef.vrt is a valid input on its own (what --stage warp reads).
        let source = try WarpInput(path: work + "/georef.vrt").resolve()
        #expect(source.mapping.sourceWidth == 128)
        let meta = try Tileset.openReader(at: f.folder + "/out/scan").metadata
        let pins = meta.extra[TilesetMetadata.gcpsKey]?.arrayValue ?? []
        #expect(pins.count == 5)
        #expect(meta.zooms.max == 2)
        // The footprint is the fit's outline of the mask, not warped.tif's rectangle.
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let report = try decoder.decode(GeoreferenceReport.self, from: try Data(contentsOf: URL(fileURLWithPath: work + "/report.json")))
        let first = try #require(meta.footprint?.first)
        #expect(abs(first.longitude - report.footprint[0][0]) < 1e-9 && abs(first.latitude - report.footprint[0][1]) < 1e-9)
    }

    @Test func gcpsTheTransformCannotUseAreAClearErrorAndWriteNothing() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("scan.tif")
        let path = try f.pipeline(Self.map(transform: "polynomial2", points: 4))
        let r = try runPipeline(path)
        let failure = try #require(r.error as? BatchFailure)
        #expect(failure.failures.first?.stage == .georeference)
        let message = failure.failures.first?.message ?? ""
        #expect(message.contains("polynomial2 needs at least 6 enabled GCPs, got 4"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: f.folder + "/.tegula/p/scan/georef.vrt"))
        #expect(!FileManager.default.fileExists(atPath: f.folder + "/out/scan"))
        // The plan says the same without writing.
        let plan = PipelinePlan(pipeline: try Pipeline.load(path: path), options: RunOptions())
        #expect(plan.hasErrors)
    }

    @Test func editingGCPsRerunsEverything() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("scan.tif")
        let path = try f.pipeline(Self.map(transform: "polynomial1"))
        #expect(try runPipeline(path).error == nil)
        try f.pipeline(Self.map(transform: "polynomial1").replacingOccurrences(of: "ground: [1, 20]", with: "ground: [2, 21]"))
        let again = try runPipeline(path)
        let stages = again.results.flatMap { $0.outcomes.map { "\($0.stage.rawValue):\($0.skipped)" } }
        #expect(stages == ["georeference:false", "warp:false", "tile:false"])
    }

    /// An Allmaps AnnotationPage of two maps: without `map:` the georeference stage refuses it in
    /// one line naming both maps and the key; `map: ID` chooses one (by the id's last part), and
    /// the fit is that map's (its GCPs' ground positions, shifted by 10° from the other's).
    @Test func theMapKeyChoosesOneMapOfAnAnnotationPage() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("scan.tif")
        let rows: [(Double, Double, Double, Double)] = [(0, 0, -60, 60), (128, 0, 60, 60), (0, 64, -60, -30), (128, 64, 60, -30), (64, 32, 1, 20)]
        func annotation(_ id: String, shift: Double) -> String {
            let features = rows.map { r in
                "{\"type\":\"Feature\",\"properties\":{\"resourceCoords\":[\(r.0),\(r.1)]},\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(r.2 + shift),\(r.3)]}}"
            }.joined(separator: ",")
            return
                "{\"id\":\"https://annotations.allmaps.org/maps/\(id)\",\"type\":\"Annotation\",\"body\":{\"type\":\"FeatureCollection\",\"features\":[\(features)]}}"
        }
        try "{\"type\":\"AnnotationPage\",\"items\":[\(annotation("aaa1", shift: 0)),\(annotation("bbb2", shift: 10))]}"
            .write(toFile: f.folder + "/page.json", atomically: true, encoding: .utf8)
        func pipeline(_ mapLine: String) -> String {
            """
            version: 1
            maps:
              - name: scan
                input: scan.tif
                georeference:
                  gcps: page.json
                  transform: polynomial1
            \(mapLine)
                tile: {min_zoom: 0, max_zoom: 1}
                output: out/scan

            """
        }
        let refused = try runPipeline(try f.pipeline(pipeline("")))
        let message = (try #require(refused.error as? BatchFailure)).failures.first?.message ?? ""
        #expect(
            message.contains("2 maps") && message.contains("maps/aaa1") && message.contains("maps/bbb2")
                && message.contains("map: ID") && !message.contains("\n"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: f.folder + "/out/scan"))
        let chosen = try runPipeline(try f.pipeline(pipeline("      map: bbb2")))
        #expect(chosen.error == nil, "\(String(describing: chosen.error)) \(chosen.log)")
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let report = try decoder.decode(
            GeoreferenceReport.self,
            from: try Data(contentsOf: URL(fileURLWithPath: f.folder + "/.tegula/p/scan/report.json")))
        #expect(report.gcps.map { $0.ground[0] } == rows.map { $0.2 + 10 })
        // A name the page does not hold, and `map` beside inline GCPs, are one line each.
        let unknown = try runPipeline(try f.pipeline(pipeline("      map: ccc3")))
        let why = (try #require(unknown.error as? BatchFailure)).failures.first?.message ?? ""
        #expect(why.contains("no map 'ccc3'") && why.contains("maps/aaa1"), "\(why)")
        #expect(
            try f.loadError(Self.map(transform: "tps").replacingOccurrences(of: "transform: tps", with: "transform: tps\n      map: aaa1"))
                .contains("inline gcps need none"))
    }
}
