/// How `tegula match` searches, and the thresholds of its verdict: one validated value with its
/// defaults in one initializer (the figures are explained in docs/matching.md).
public struct MatchSettings: Sendable, Hashable {
    /// Long side, in pixels, of the reduced copies of scan and reference that SIFT runs on.
    public var reducedLongSide: Int
    /// SIFT keypoints kept per image, strongest first.
    public var maximumFeatures: Int
    /// Lowe's ratio test.
    public var ratio: Double
    /// MAGSAC++'s threshold in reduced pixels.
    public var magsacThreshold: Double
    /// Half the side of a refinement template, in pixels of the coarser image (template 2h + 1).
    public var templateHalfSide: Int
    /// Points proposed at most (one per grid cell).
    public var maximumPoints: Int
    /// The verdict's thresholds.
    public var verdict: VerdictThresholds

    /// The defaults: what BENCHMARKS.md measures.
    public init(
        reducedLongSide: Int = 1200, maximumFeatures: Int = 4000, ratio: Double = 0.8, magsacThreshold: Double = 3,
        templateHalfSide: Int = 15, maximumPoints: Int = 36, verdict: VerdictThresholds = VerdictThresholds()
    ) {
        self.reducedLongSide = reducedLongSide
        self.maximumFeatures = maximumFeatures
        self.ratio = ratio
        self.magsacThreshold = magsacThreshold
        self.templateHalfSide = templateHalfSide
        self.maximumPoints = maximumPoints
        self.verdict = verdict
    }
}

/// What a match must show to be believed: judged on geometry only, never on how many features
/// an image happens to have. Documented, with their reasons, in docs/matching.md.
public struct VerdictThresholds: Sendable, Hashable {
    /// MAGSAC++ inliers at the reduced level, at least.
    public var minimumInliers: Int
    /// Refined points, at least.
    public var minimumPoints: Int
    /// Normalised cross-correlation a refined point needs (TM_CCOEFF_NORMED's peak).
    public var minimumCorrelation: Double
    /// The refined points' convex hull over the area both images show, at least.
    public var minimumSpread: Double
    /// Leave-one-out RMS of the refined points under a homography, at most, in pixels of the
    /// coarser of the two images (the match's own scale).
    public var maximumLeaveOneOut: Double

    /// The defaults.
    public init(
        minimumInliers: Int = 20, minimumPoints: Int = 12, minimumCorrelation: Double = 0.6,
        minimumSpread: Double = 0.2, maximumLeaveOneOut: Double = 1.0
    ) {
        self.minimumInliers = minimumInliers
        self.minimumPoints = minimumPoints
        self.minimumCorrelation = minimumCorrelation
        self.minimumSpread = minimumSpread
        self.maximumLeaveOneOut = maximumLeaveOneOut
    }
}
