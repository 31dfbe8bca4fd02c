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
        // Not yet at the true corners: 0.77 px, where r3c1 meets r4c1. Their overlap is open sea
        // but for its east third, so the ties hold only there and the far corner is extrapolated
        // through fits still pulled by GCPs 4 px off; the truth's own ties at the same places
        // leave 0.66 px there. A matter for the joint fit (ties as constraints), not the ties.
        let atCorners = try worst(corners, "after")
        withKnownIssue("ties: auto at zoom 6 leaves 0.77 px at a true corner beyond an overlap of open sea (issue 43)") {
            #expect(atCorners <= 0.5)
        }
    }
}
