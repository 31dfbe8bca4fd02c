import Foundation
import TegulaSupport
import TegulaTestSupport
import Testing

@testable import TegulaPipeline

extension AutoTiesTests {
    /// The done-when at a higher max zoom than the suite's 4: a 4 × 4 series at zoom 6, where
    /// Blue Marble is smoother under the templates (a source pixel every 6–8 scan pixels), made
    /// over the Alps and the land east of them (`--origin 5,48`; from the suite's North Sea corner
    /// five of the 24 edge pairs are open sea and do not match). The seams are measured as in
    /// ``tiesAutoAloneBringsTheSeamAtEveryTieOfASeriesWithFourPixelGCPErrorsWithinHalfAPixel()``:
    /// numpy and gdaltransform on the files the run wrote, in pixels of zoom 6.
    @Test func atMaxZoomSixTiesAutoAloneAlsoBringsTheSeamAtEveryTieWithinHalfAPixelOfThatZoom() throws {
        let (folder, file) = try Self.series("autoties-z6", cols: 4, rows: 4, maxZoom: 6, extra: ["--origin=5,48"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pipeline = try Pipeline.load(path: file)
        let found = try #require(pipeline.foundTies)
        let edges = Self.edgePairs(cols: 4, rows: 4)
        #expect(edges.isSubset(of: Set(found.pairs.filter(\.matched).map { "\($0.mapA) \($0.mapB)" })), "\(found.pairs.filter { !$0.matched })")
        try Self.runner(file, RunOptions(stage: .georeference, jobs: 2)).run()

        let (ties, corners) = try Self.seams(folder, pipeline)
        let worst = Self.worst
        print(
            String(
                format:
                    "ties: auto at zoom 6: %d ties; seams at the found ties before max %.2f px, after max %.4f px; at the true corners after max %.4f px",
                ties.count, try worst(ties, "before"), try worst(ties, "after"), try worst(corners, "after")))
        #expect(try worst(ties, "before") > 2, "GCP errors of 4 px must show as seams before the joint fit")
        // The last round's templates run along the overlap (OverlapTieFinder.lengthening): with
        // squares as wide as the 24-px overlap the found ties lay up to 1.1 px from the truth here
        // and left seams of 0.89 px at them; now 0.74 px and 0.47 px.
        #expect(try worst(ties, "after") <= 0.5, "the seam at every found tie within half a pixel of zoom 6")
        // Not yet at the true corners: 0.82 px with three more last rounds correlating both
        // pictures smoothed (`OverlapTieFinder.smoothedRounds`; the seams at the found ties 0.26 px),
        // 0.93 px with the last round run three times
        // (`OverlapTieFinder.lastRounds`; r3c1–r4c1's west corner, 100 px beyond its five ties,
        // which lie within 0.08 px of the truth; the seams at the found ties 0.24 px, the found
        // ties' mean distance from the truth 0.075 → 0.055 px), 0.69 px with it run once,
        // re-centred (the seams at the found ties 0.25 px), 0.65 px correlated in real levels (`705d3f8`; 0.40 px), 0.84 px in whole levels with the conformal strips and the joint
        // fit's check (`c97fdf1`; the seams at the found ties 0.38 px); before them 0.77 px at the east end of r2c3–r3c3 (then 0.60 at the
        // west end of r3c1–r4c1, 0.51 on r3c1–r3c2), beyond the last found tie: those overlaps
        // are open sea at that end, and the corner is extrapolated through ties whose errors run
        // together (r2c3–r3c3's last five ties 0.26, 0.34, 0.74, 0.73, 0.14 px off; the similarity
        // through its eight ties alone misses that corner by 0.88 px). No tie weight brings it
        // under half a pixel (numpy, the same least squares: 0.77, 0.66, 0.64, 0.72 px at weight
        // 100, 300, 400, 1000; 0.56 at 10⁴ only as the series is squashed, a sheet 6.9 px off),
        // nor do ties as constraints (``SeriesFit/defaultTieWeight``). The truth's ties at the
        // same pixels leave 0.66 px at 100 and 0.10 at 1000: at the default weight, most of what
        // is left there is the GCPs' pull on a sheet tied over a short span, not the ties' error.
        let atCorners = try worst(corners, "after")
        withKnownIssue("ties: auto at zoom 6 leaves 0.82 px at a true corner beyond the found ties, where the overlap is open sea (issue 43)") {
            #expect(atCorners <= 0.5)
        }
    }
}
