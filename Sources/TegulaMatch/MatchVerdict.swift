import TegulaGeometry

/// One proposed control point: a scan pixel, the reference pixel that shows the same place, and
/// the normalised cross-correlation (0–1) of the two at full resolution.
public struct ProposedPoint: Sendable, Hashable {
    /// Scan pixel (GDAL's convention).
    public var scan: PixelPoint
    /// Reference pixel (GDAL's convention).
    public var reference: PixelPoint
    /// TM_CCOEFF_NORMED's peak where the point was refined.
    public var score: Double

    /// A point from its parts.
    public init(scan: PixelPoint, reference: PixelPoint, score: Double) {
        self.scan = scan
        self.reference = reference
        self.score = score
    }
}

/// The figures a verdict is made from, reported with it either way.
public struct MatchFigures: Sendable, Hashable {
    /// Pairs that passed the ratio test and mutual nearest neighbours.
    public var tentative = 0
    /// MAGSAC++'s inliers among them.
    public var inliers = 0
    /// Reference pixels per scan pixel at the scan's centre (nil before a model was found).
    public var scale: Double?
    /// The share of the scan the reference covers, 0–1.
    public var coverage: Double?
    /// Points refined at full resolution (before any were dropped as outliers).
    public var refined = 0
    /// The kept points' convex hull over the area both images show, 0–1.
    public var spread: Double?
    /// Leave-one-out RMS of the kept points under a homography, in pixels of the coarser image.
    public var leaveOneOutRMS: Double?
    /// The same in scan pixels.
    public var leaveOneOutScanPixels: Double?

    /// Empty figures.
    public init() {}
}

/// What matching a scan against a reference concluded: points to trust, or a plain no.
public enum MatchVerdict: Sendable {
    /// The images show the same map: the points, well spread, and the figures that say so.
    case matched([ProposedPoint], MatchFigures)
    /// They do not, or not surely enough: why, in one sentence, and the figures so far.
    case noMatch(String, MatchFigures)

    /// The figures, either way.
    public var figures: MatchFigures {
        switch self {
        case .matched(_, let f), .noMatch(_, let f): return f
        }
    }
}
