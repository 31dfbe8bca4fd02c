import Foundation
import TegulaGeometry
import TegulaMatch
import TegulaScan
import TegulaTestSupport
import Testing

/// The editor's snap: the twin of one scan pixel on the reference, against the homography the
/// re-scan was made with (gdalwarp, MatchFixtures). On a re-scan smaller than the reference the
/// scan is the coarser image, so the reference's template is located in the scan and the twin
/// carried back by the match's homography; on a larger one the scan's template is located in
/// the reference.
struct TwinFinderTests {
    @Test(arguments: [0.6, 1.3])
    func theTwinOfAScanPixelIsWhereTheTruthPutsIt(scale: Double) throws {
        let folder = try TemporaryFolder.make("twin")
        let reference = try MatchFixtures.reference(in: folder)
        let rescan = try MatchFixtures.rescan(.init(name: "rescan", degrees: 15, scale: scale), in: folder)
        let scan = try LocalScans().open(rescan.path).reader(), ref = try LocalScans().open(reference).reader()
        guard case .matched(let points, _) = try Matcher.match(scan: scan, reference: ref) else {
            Issue.record("the re-scan at \(scale) did not match")
            return
        }
        // Also from a homography 2 reference pixels off: the window search, not the model, finds the twin.
        let off = points.map { ProposedPoint(scan: $0.scan, reference: PixelPoint(x: $0.reference.x + 2, y: $0.reference.y), score: $0.score) }
        for (model, name) in [(points, "the match's points"), (off, "points 2 px off")] {
            let finder = try #require(TwinFinder(scan: scan, reference: ref, points: model))
            // Pixels near the proposed points (where the map has detail), off them by a few pixels.
            var worst = 0.0, found = 0
            for p in points.prefix(12) {
                let q = PixelPoint(x: p.scan.x + 3.4, y: p.scan.y - 2.7)
                guard let twin = try finder.twin(of: q) else { continue }
                let truth = rescan.truth.apply(q)
                worst = max(worst, hypot(twin.reference.x - truth.x, twin.reference.y - truth.y))
                found += 1
            }
            #expect(found >= 10, "\(name): \(found) of 12 pixels found a twin")
            #expect(worst <= 0.3, "\(name): worst twin \(worst) reference px from the truth at scale \(scale)")
        }
    }
}
