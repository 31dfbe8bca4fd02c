import Foundation
import TegulaGeometry
import TegulaScan

/// The twin of one scan pixel on the reference, found by matching a small window around it, for a
/// point placed by hand (the editor's snap). The homography through a match's refined points
/// says roughly where the twin lies; ``PointRefiner`` then locates it at full resolution with a
/// sub-pixel peak, reading only the two small windows around it.
public struct TwinFinder {
    private let refiner: PointRefiner
    private let homography: Homography

    /// A finder on the homography through `points` (scan → reference, from a
    /// ``MatchVerdict/matched(_:_:)``); nil when they determine none (fewer than four, or all on a line).
    public init?(scan: any ScanReader, reference: any ScanReader, points: [ProposedPoint], settings: MatchSettings = MatchSettings()) {
        let pairs = points.map { MatchEngine.Pair(a: $0.scan, b: $0.reference, distinctiveness: 0) }
        guard points.count >= 4, let h = MatchEngine.homography(pairs), let inverse = h.inverse else { return nil }
        homography = h
        refiner = PointRefiner(
            scan: scan, reference: reference, homography: h, inverse: inverse, settings: settings,
            searchRadius: Self.searchRadius)
    }

    /// How far from where the homography puts it the twin is searched for, in pixels of the
    /// coarser image.
    public static let searchRadius = 8

    /// The reference pixel that shows what scan pixel `p` shows, and the correlation there; nil
    /// when the window around `p` is flat, leaves an image, or correlates less than the
    /// verdict's minimum. Where the scan is the coarser image the reference's template is located
    /// in the scan, near `p`, and the twin is carried the few pixels back by the homography.
    public func twin(of p: PixelPoint) throws -> ProposedPoint? {
        guard let found = try refiner.refine(scanPoint: p) else { return nil }
        let shift = homography.apply(p), at = homography.apply(found.scan)
        let twin = PixelPoint(x: found.reference.x + shift.x - at.x, y: found.reference.y + shift.y - at.y)
        return ProposedPoint(scan: p, reference: twin, score: found.score)
    }
}
