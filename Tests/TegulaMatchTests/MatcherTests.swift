import Foundation
import TegulaGeometry
import TegulaScan
import TegulaTestSupport
import Testing

@testable import TegulaMatch

/// The engine against a truth made by GDAL: re-scans of the real 1689 scan warped by a known
/// homography and degraded, matched against the scan given a geotransform; and pairs that do not
/// show the same map, which must get no points.
@Suite struct MatcherTests {
    /// Each distortion of issue 42 alone, and three combined.
    static let distortions: [MatchFixtures.Distortion] = [
        .init(name: "rotated-33", degrees: 33),
        .init(name: "rotated-200", degrees: 200),
        .init(name: "reduced-0.4", scale: 0.4),
        .init(name: "enlarged-2.5", scale: 2.5),
        .init(name: "perspective", perspective: 1e-4),
        .init(name: "cropped-60", crop: 0.6),
        .init(name: "jpeg-40", jpegQuality: 40),
        .init(name: "gamma-2.2", gamma: 2.2),
        .init(name: "blurred-2", blur: 2),
        .init(name: "combined-a", degrees: 120, scale: 0.7, perspective: 1e-4, crop: 0.6, jpegQuality: 40, gamma: 1.6, blur: 1.5),
        .init(name: "combined-b", degrees: -15, scale: 1.8, crop: 0.6, jpegQuality: 40, gamma: 0.6),
        .init(name: "combined-c", degrees: 75, scale: 0.5, perspective: -8e-5, jpegQuality: 40, blur: 2),
    ]

    @Test("a re-scan's points fit the true transform within 0.4 px RMS and 1.5 px at worst over the sheet", arguments: distortions)
    func rescanPointsFitTheTrueTransform(_ d: MatchFixtures.Distortion) throws {
        let folder = try TemporaryFolder.make("match-\(d.name)")
        let reference = try MatchFixtures.reference(in: folder)
        let rescan = try MatchFixtures.rescan(d, in: folder)
        let verdict = try Matcher.match(scan: try LocalScans().open(rescan.path).reader(), reference: try LocalScans().open(reference).reader())
        guard case .matched(let points, let figures) = verdict else {
            Issue.record("\(d): no match: \(verdict)")
            return
        }
        #expect((12...40).contains(points.count), "\(d): \(points.count) points")
        let fitted = try #require(MatchEngine.homography(points.map { .init(a: $0.scan, b: $0.reference, distinctiveness: 0) }))
        let e = MatchFixtures.error(of: fitted, against: rescan.truth, width: rescan.width, height: rescan.height)
        // The figures BENCHMARKS.md records (`… --filter MatcherTests | grep match-figures`).
        print(
            "match-figures \(d.name): "
                + String(
                    format: "%d × %d, %d points, RMS %.3f px, worst %.3f px, %d inliers of %d, coverage %.0f%%",
                    rescan.width, rescan.height, points.count, e.rms, e.worst, figures.inliers, figures.tentative, 100 * (figures.coverage ?? 0)))
        #expect(e.rms <= 0.4, "\(d): RMS \(e.rms) px; \(figures)")
        #expect(e.worst <= 1.5, "\(d): worst \(e.worst) px; \(figures)")
        #expect(points.allSatisfy { $0.score >= 0.6 && $0.score <= 1 })
    }

    @Test func theShareOfTheScanTheReferenceCoversIsMeasured() throws {
        let folder = try TemporaryFolder.make("match-cover")
        let reference = try MatchFixtures.reference(in: folder)
        // Rotated by 45°, the sheet covers its own area over the bounding box's: 2700·1350 / (2025·√2)².
        let rescan = try MatchFixtures.rescan(.init(name: "rotated-45", degrees: 45), in: folder)
        let verdict = try Matcher.match(scan: try LocalScans().open(rescan.path).reader(), reference: try LocalScans().open(reference).reader())
        let coverage = try #require(verdict.figures.coverage)
        let expected = 2700.0 * 1350 / Double(rescan.width * rescan.height)
        #expect(abs(coverage - expected) < 0.01, "coverage \(coverage), expected \(expected)")
    }

    /// Pairs that do not show the same map, by name.
    static let unrelated = ["noise", "blank", "blue-marble", "other-half-of-the-sheet"]

    @Test("a pair that does not show the same map gets no points", arguments: unrelated)
    func unrelatedPairsAreRefused(_ name: String) throws {
        let folder = try TemporaryFolder.make("match-unrelated")
        var reference = try MatchFixtures.reference(in: folder)
        let scan: String
        switch name {
        case "noise": scan = try MatchFixtures.flat("noise", in: folder)
        case "blank": scan = try MatchFixtures.flat("blank", value: 236, in: folder)
        case "blue-marble": scan = BlueMarble.path
        default:
            // The same engraver's hand, lettering and hatching, another place: the sheet's west
            // against its east, which do not overlap.
            scan = folder.appendingPathComponent("west.tif").path
            try ProgramRun.output("gdal_translate", ["-q", "-srcwin", "0", "0", "1200", "1350", Schagen1689.scan, scan])
            let east = folder.appendingPathComponent("east.tif").path
            try ProgramRun.output("gdal_translate", ["-q", "-srcwin", "1500", "0", "1200", "1350", reference, east])
            reference = east
        }
        let verdict = try Matcher.match(scan: try LocalScans().open(scan).reader(), reference: try LocalScans().open(reference).reader())
        if case .matched(let points, let figures) = verdict {
            Issue.record("\(name): matched with \(points.count) points: \(figures)")
        }
    }
}
