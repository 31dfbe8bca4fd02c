import Foundation
import TegulaEditor
import TegulaGDAL
import TegulaGeometry
import TegulaGeoreference
import TegulaOnDemand
import TegulaPyramid
import TegulaTestSupport
import TegulaWarp
import Testing

/// One fit, one version (issue 27): the editor's version of a session is the fit version of an
/// on-demand source made from the same scan, GCPs, transform and mask, whatever the points'
/// ids and disabled points; another transform or mask is another version.
struct FitVersionTests {
    static let mask = [PixelPoint(x: 100, y: 50), PixelPoint(x: 2600, y: 50), PixelPoint(x: 2600, y: 1300), PixelPoint(x: 100, y: 1300)]

    /// The version `tegula serve` gives the scan with `gcps` fitted by `kind`, clipped by `mask`.
    static func onDemand(_ gcps: [GCP], _ kind: TransformKind, mask: [PixelPoint]) throws -> String? {
        let input = WarpInput(
            path: Schagen1689.scan, gcpSet: GCPSet(gcps: gcps, crs: .wgs84), fit: FitOptions(transform: kind),
            mask: mask)
        let source = try OnDemandSource(id: "scan", queue: RenderQueue(workers: 1), memo: TileMemo(byteBudget: 1 << 20), log: { _ in }) {
            OnDemandSource.Loaded(job: TileJob(source: try input.resolve(), output: "", name: "scan"))
        }
        return source.fitVersion
    }

    @Test func editorAndOnDemandGiveOneFitOneVersion() throws {
        let read = try GCPReader.read(path: Schagen1689.points)
        var session = try EditorSession(read, output: "")
        session.transform = .polynomial2
        session.mask = Self.mask
        session.gcps[3].enabled = false
        let editor = try SessionFit(session, scanPath: Schagen1689.scan, width: 2700, height: 1350).result.version

        // The same fit as a pipeline states it: other ids, the disabled point somewhere else.
        var gcps = read.gcps
        for i in gcps.indices { gcps[i].id = "g\(i)" }
        gcps[3].enabled = false
        gcps[3].pixel = PixelPoint(x: 10, y: 10)
        #expect(try Self.onDemand(gcps, .polynomial2, mask: Self.mask) == editor)
        #expect(try Self.onDemand(gcps, .polynomial1, mask: Self.mask) != editor)
        #expect(try Self.onDemand(gcps, .polynomial2, mask: Array(Self.mask.dropLast())) != editor)
    }
}
