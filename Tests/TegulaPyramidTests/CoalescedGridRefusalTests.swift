import Foundation
import TegulaGeometry
import TegulaTestSupport
import TegulaWarp
import Testing

@testable import TegulaPyramid

/// Sets whose rows coalesce tiles (TMS 2.0 `variableMatrixWidths`: GNOSISGlobalGrid,
/// CDB1GlobalGrid) are refused at the zooms that have them, in one line naming the zooms that
/// can be cut (those morecantile, PyPI, lists without coalesced rows), and nothing is written.
struct CoalescedGridRefusalTests {
    /// morecantile's zooms of a set whose matrices coalesce no row.
    static func wholeZooms(_ id: String) throws -> [Int] {
        let r = try ProgramRun.run(
            "python3",
            [
                "-c",
                "import sys, morecantile; t = morecantile.tms.get(sys.argv[1]); print(' '.join(m.id for m in t.tileMatrices if not m.variableMatrixWidths))",
                id,
            ])
        try #require(r.status == 0, "morecantile: \(r.stderr.suffix(600))")
        return r.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    @Test(arguments: ["GNOSISGlobalGrid", "CDB1GlobalGrid"])
    func aZoomWithCoalescedRowsIsRefusedInOneLineAndNothingIsWritten(id: String) throws {
        let dir = try TemporaryFolder.make("coalesced")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tms = try TileMatrixSet.named(id)
        let whole = try Self.wholeZooms(id)
        let coalesced = try #require(tms.zooms.first { $0 >= 0 && !whole.contains($0) }, "\(id) has no coalesced zoom from 0")
        var job = TileJob(
            source: try WarpInput(path: try PyramidFixtures.geotiff(in: dir)).resolve(), output: dir.appendingPathComponent("tiles").path,
            name: "t")
        job.tms = tms
        job.settings = try TileSettings(zooms: ZoomRequest(min: coalesced, max: coalesced)!)
        let error = #expect(throws: PyramidError.self) { try job.run() }
        let line = "\(error.map { "\($0)" } ?? "")"
        #expect(line.contains("zoom \(coalesced) coalesces") && line.contains("variableMatrixWidths") && !line.contains("\n"), "\(line)")
        let runs = TileJob.ranges(whole)
        #expect(whole.isEmpty ? line.contains("choose another set") : line.contains("choose zooms \(runs) "), "\(line) (morecantile: \(whole))")
        #expect(!FileManager.default.fileExists(atPath: job.output))
    }
}
