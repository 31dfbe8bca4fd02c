import Foundation
import TegulaTestSupport
import Testing

@testable import TegulaPipeline

/// A helmert fit's `georef.vrt` as GDAL reads it: GDAL fits its own order-1 polynomial through the
/// file's GCPs, so the file must carry points that make that polynomial the fit.
struct HelmertPinsTests {
    /// 1 km a pixel, north up, the scan's top-left corner at (100 km, 200 km) in EPSG:3857.
    static func ground(_ x: Double, _ y: Double) -> (Double, Double) { (100_000 + 1_000 * x, 200_000 - 1_000 * y) }

    /// A map fitted by a helmert through three GCPs on the scan's top edge (as a sheet tied along
    /// one edge is), exact on the similarity above.
    static var pipeline: String {
        let pins = [0.0, 64, 128].map { x in
            let (e, n) = ground(x, 0)
            return "  - {id: P\(Int(x)), pixel: [\(x), 0], ground: [\(e), \(n)]}"
        }
        return GCPStageTests.oneMap(georeference: ["transform: helmert", "gcp_srs: EPSG:3857", "gcps:"] + pins, maxZoom: 0)
    }

    @Test func gdalMapsTheScansCornersThroughAHelmertSheetsVRTWhereTheFitPutsThem() throws {
        let f = try PipelineFixtures()
        defer { f.cleanUp() }
        try f.image("scan.tif")
        let r = try runPipeline(try f.pipeline(Self.pipeline))
        #expect(r.error == nil, "\(String(describing: r.error)) \(r.log)")
        let corners: [(Double, Double)] = [(0, 0), (128, 0), (128, 64), (0, 64), (64, 32)]
        let run = try ProgramRun.run(
            "gdaltransform", ["-output_xy", f.folder + "/.tegula/p/scan/georef.vrt"],
            stdin: corners.map { "\($0.0) \($0.1)" }.joined(separator: "\n") + "\n")
        #expect(run.status == 0, "\(run.stderr)")
        let answers = run.stdout.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }
        try #require(answers.count == corners.count, "\(run.stdout) \(run.stderr)")
        for (corner, got) in zip(corners, answers) {
            let (e, n) = Self.ground(corner.0, corner.1)
            let off = got.count == 2 ? max(abs(got[0] - e), abs(got[1] - n)) / 1_000 : .infinity
            #expect(off < 0.01, "corner \(corner): GDAL \(got), the fit (\(e), \(n)): \(off) px apart")
        }
    }
}
