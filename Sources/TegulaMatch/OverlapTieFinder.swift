import Foundation
import TegulaGeometry
import TegulaScan

/// How ``OverlapTieFinder`` ties two sheets of a series: one validated value with its defaults in
/// one initializer (the pipeline's `ties: {auto: {max_per_pair, min_overlap_px}}`).
public struct OverlapTieSettings: Sendable, Hashable {
    /// Ties kept at most per pair of sheets: one per cell of a grid over their overlap.
    public var maximumTies: Int
    /// The overlap's width across, in pixels of the first sheet, under which a pair is not tied.
    public var minimumWidth: Double
    /// How far from where the sheets' own fits put it a tie is searched for, in pixels: the fits'
    /// disagreement it can take up.
    public var searchRadius: Int
    /// Ties that must agree for the overlap to match.
    public var minimumTies: Int
    /// When the prediction comes from two sheets' own fits (GCPs): how far, at most, a tie may lie
    /// from where they put it, pixels of the second sheet, and the least share of the overlap's
    /// length the ties must span (the verdict's ``VerdictThresholds/minimumSpread``). A look-alike
    /// found by the drift's correction can sit far from any place the fits allow; such a pair is
    /// refused, not tied. Nil (the default) for a prediction that is itself a guess (a sheet being
    /// placed by matching), which its own checks judge.
    public var fitsAgreement: Double?

    /// The defaults (docs/pipelines-and-collections.md).
    public init(maximumTies: Int = 16, minimumWidth: Double = 16, searchRadius: Int = 32, minimumTies: Int = 3, fitsAgreement: Double? = nil) {
        self.maximumTies = maximumTies
        self.minimumWidth = minimumWidth
        self.searchRadius = searchRadius
        self.minimumTies = minimumTies
        self.fitsAgreement = fitsAgreement
    }
}

/// Ties between two overlapping sheets, found by matching their overlap at full resolution on the
/// matching engine: the overlap (both masks, through the predicted homography a → b from the
/// sheets' fits) is cut into a grid of cells; in each cell a few points are refined by
/// ``PointRefiner`` (a template of one sheet located in the other by normalised
/// cross-correlation, a sub-pixel peak, only two small windows read) and the best is kept. The
/// ties must agree on one smooth drift from the prediction (``Drift``), else the pair does not
/// match. A second round from the corrected prediction, with a small search and templates long
/// along the overlap, places the ties where the overlap truly is and removes the bias of a
/// template warped slightly wrong; each of its ties is found again re-centred
/// (``PointRefiner/recentres``). That round runs again from its own ties' drift
/// (``lastRounds``), then again with both pictures smoothed (``smoothedRounds``).
public enum OverlapTieFinder {
    /// The ties (``ProposedPoint``: `scan` on sheet a, `reference` on sheet b, the correlation)
    /// or why the overlap does not match; nil when the overlap is too small to tie (narrower than
    /// the settings' width, or room for fewer cells than ties needed; where it does not match, a
    /// corner with no room for the last round's templates, ``smallCorner(maskA:maskB:_:_:_:)``).
    /// `predicted` pairs points of a with where the sheets' fits put them on b (four or more,
    /// spread over a: a grid).
    public static func ties(
        a: any ScanReader, maskA: [PixelPoint], b: any ScanReader, maskB: [PixelPoint], predicted: [(a: PixelPoint, b: PixelPoint)],
        settings: OverlapTieSettings = OverlapTieSettings(), match: MatchSettings = MatchSettings()
    ) throws -> MatchVerdict? {
        guard let h = MatchEngine.homography(predicted.map { MatchEngine.Pair(a: $0.a, b: $0.b, distinctiveness: 0) }) else { return nil }
        // A corner two diagonal neighbours share may hold the first round's small templates but
        // not the last round's: where it does not match, it is too small to tie, not named.
        var figures = MatchFigures()
        // Where the refined points place the sheets (`at`), a corner the fits put wider than it is
        // is seen as the corner it is.
        func refused(_ why: String, at placement: Homography? = nil) -> MatchVerdict? {
            let small = [h, placement].contains { $0.map { smallCorner(maskA: maskA, maskB: maskB, $0, settings, match) } ?? false }
            return small ? nil : .noMatch(why, figures)
        }
        let margin = match.templateHalfSide + settings.searchRadius + 8
        let pa = PaddedScan(a, margin: margin), pb = PaddedScan(b, margin: margin)
        guard
            let first = try round(
                pa, pb, maskA: maskA, maskB: maskB, h, radius: settings.searchRadius, gap: 1, cells: max(settings.maximumTies, 16), settings, match)?
                .ties
        else { return nil }
        figures.refined = first.count
        guard let drift = Drift.agreeing(first, h, tolerance: 1, settings: settings, match: match) else {
            return refused(
                first.isEmpty
                    ? "no point of the overlap could be refined (too flat, or the sheets differ there)"
                    : "\(first.count) points refined in the overlap, but they do not agree on one placement of the sheets")
        }
        guard var better = corrected(h, by: drift, over: maskA) else {
            return refused("the refined points give no placement of the sheets")
        }
        // The last round: a 4-px search, templates long along the overlap, from `placement`.
        func last(_ placement: Homography, smoothing: Double = 0) throws -> (ties: [ProposedPoint], length: Double)? {
            try round(
                pa, pb, maskA: maskA, maskB: maskB, placement, radius: 4, gap: edgeGap, cells: settings.maximumTies, settings, match,
                lengthened: true,
                smoothing: smoothing
            )
        }
        guard var second = try last(better) else {
            return refused("where the refined points place the sheets, their overlap is too narrow to tie", at: better)
        }
        guard var final = Drift.agreeing(second.ties, better, tolerance: 1, settings: settings, match: match) else {
            return refused("the ties do not hold at full resolution from the corrected placement")
        }
        // The last round again from its own ties' drift; then as often with both pictures smoothed.
        func rerun(_ times: Int, smoothing: Double) throws {
            for _ in 0..<times {
                guard let again = corrected(better, by: final, over: maskA), let next = try last(again, smoothing: smoothing),
                    let agreeing = Drift.agreeing(next.ties, again, tolerance: 1, settings: settings, match: match)
                else { return }
                (better, second, final) = (again, next, agreeing)
            }
        }
        try rerun(lastRounds - 1, smoothing: 0)
        try rerun(smoothedRounds, smoothing: Self.smoothing)
        figures.inliers = final.kept.count
        figures.leaveOneOutRMS = final.rms
        if let limit = settings.fitsAgreement, let why = disagreement(final.kept, h, limit: limit, along: second.length, match, &figures) {
            return refused(why)
        }
        return .matched(final.kept.sorted { ($0.scan.y, $0.scan.x) < ($1.scan.y, $1.scan.x) }, figures)
    }

    /// The prediction `h` corrected by the drift, as a homography over the whole first sheet (its
    /// mask's box); across a strip, conformal (``Drift/conformal(_:)``).
    static func corrected(_ h: Homography, by drift: Drift, over mask: [PixelPoint]) -> Homography? {
        let field =
            drift.conformal(h) ?? { p in
                let q = h.apply(p), d = drift.model(p)
                return PixelPoint(x: q.x + d.x, y: q.y + d.y)
            }
        return MatchEngine.homography(gridPoints(mask).map { MatchEngine.Pair(a: $0, b: field($0), distinctiveness: 0) })
    }

    /// Why ties that hold together still cannot be trusted, or nil: the farthest lies over `limit`
    /// pixels from where the fits' prediction `h` puts it, or they span less of the overlap's
    /// `length` (along their own principal axis) than the verdict's least spread.
    static func disagreement(
        _ ties: [ProposedPoint], _ h: Homography, limit: Double, along length: Double, _ match: MatchSettings, _ figures: inout MatchFigures
    ) -> String? {
        let offsets = ties.map { t in
            let q = h.apply(t.scan)
            return hypot(t.reference.x - q.x, t.reference.y - q.y)
        }
        let farthest = offsets.max() ?? 0
        figures.spread = length > 0 ? min(1, extent(ties.map(\.scan)) / length) : 0
        if farthest > limit {
            return String(format: "the ties lie up to %.1f px from where the sheets' fits put them, at most %.1f allowed", farthest, limit)
        }
        guard let spread = figures.spread, spread >= match.verdict.minimumSpread else {
            return String(
                format: "the ties span %.0f%% of the overlap, at least %.0f%% needed", 100 * (figures.spread ?? 0), 100 * match.verdict.minimumSpread)
        }
        return nil
    }

    /// The points' length along their principal axis (the long side of a strip).
    static func extent(_ points: [PixelPoint]) -> Double {
        guard points.count > 1 else { return 0 }
        let n = Double(points.count)
        let cx = points.map(\.x).reduce(0, +) / n, cy = points.map(\.y).reduce(0, +) / n
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for p in points {
            sxx += (p.x - cx) * (p.x - cx); syy += (p.y - cy) * (p.y - cy); sxy += (p.x - cx) * (p.y - cy)
        }
        let angle = 0.5 * atan2(2 * sxy, sxx - syy)
        let s = points.map { ($0.x - cx) * cos(angle) + ($0.y - cy) * sin(angle) }
        return s.max()! - s.min()!
    }

    /// One round: the overlap under `h`, at most `most` cells over it, the best point refined in
    /// each within `radius`, templates `gap` pixels inside the overlap (nil when the overlap is too
    /// small to tie), with the length of the overlap's candidate points (``extent(_:)``). The first round, which only finds the drift, tries at least 16 cells
    /// whatever the ties asked for, so a few wrong peaks cannot outvote the right ones. In a
    /// `lengthened` round each template runs along the overlap as far as it fits, up to
    /// ``lengthening`` times its width (``longest(_:across:most:horizontal:rings:gap:)``), and a
    /// tie whose template where it was found nears a sheet's paper is left out
    /// (``clearOfPaper(a:b:half:mask:ring:)``).
    static func round(
        _ a: PaddedScan, _ b: PaddedScan, maskA: [PixelPoint], maskB: [PixelPoint], _ h: Homography, radius: Int, gap: Int, cells most: Int,
        _ settings: OverlapTieSettings, _ match: MatchSettings, lengthened: Bool = false, smoothing: Double = 0
    ) throws -> (ties: [ProposedPoint], length: Double)? {
        guard let inverse = h.inverse else { return nil }
        let ringB = maskB.map(inverse.apply)
        guard let (t, candidates, cells) = room(Overlap(maskA, ringB), gap: gap, cells: most, settings, match) else { return nil }
        var tuned = match
        tuned.templateHalfSide = t
        let m = Double(a.margin)
        let padded = Homography.scaling(1, 1, moving: m, m).after(h).after(.scaling(1, 1, moving: -m, -m))
        guard let paddedInverse = padded.inverse else { return nil }
        var refiner = PointRefiner(scan: a, reference: b, homography: padded, inverse: paddedInverse, settings: tuned, searchRadius: radius)
        refiner.recentres = lengthened
        refiner.smoothing = smoothing
        let long = lengthened ? max(t, min(lengthening * t, 2 * match.templateHalfSide)) : t
        let horizontal = alongX(candidates)
        var best: [ProposedPoint] = []
        for cell in Matcher.grid(candidates, cells: cells) {
            var kept: ProposedPoint?
            for i in spread(cell, count: 9) {
                let p = candidates[i]
                let along = longest(p, across: t, most: long, horizontal: horizontal, rings: [maskA, ringB], gap: gap)
                refiner.halfSize = horizontal ? (along, t) : (t, along)
                guard let r = try refiner.refine(scanPoint: PixelPoint(x: p.x + m, y: p.y + m)), r.score > (kept?.score ?? -1) else { continue }
                let onA = PixelPoint(x: r.scan.x - m, y: r.scan.y - m), onB = PixelPoint(x: r.reference.x - m, y: r.reference.y - m)
                guard !lengthened || clearOfPaper(a: onA, b: inverse.apply(onB), half: refiner.halfSize ?? (t, t), mask: maskA, ring: ringB)
                else { continue }
                kept = ProposedPoint(scan: onA, reference: onB, score: r.score)
            }
            if let kept { best.append(kept) }
        }
        return (best, extent(candidates))
    }

    /// The templates' half side, their candidate points and the cells they make for a round over
    /// `overlap` with templates `gap` pixels inside it and at most `most` cells; nil when the
    /// overlap is too small to tie.
    static func room(_ overlap: Overlap, gap: Int, cells most: Int, _ settings: OverlapTieSettings, _ match: MatchSettings) -> (
        t: Int, candidates: [PixelPoint], cells: Int
    )? {
        guard 2 * overlap.widest >= settings.minimumWidth else { return nil }
        return templateSide(overlap, most: match.templateHalfSide, gap: gap, cells: most, settings: settings)
    }

    /// Whether the overlap under `h` is a corner (as two diagonal neighbours share): shorter than
    /// three times its width, with no room for the last round's templates.
    static func smallCorner(maskA: [PixelPoint], maskB: [PixelPoint], _ h: Homography, _ settings: OverlapTieSettings, _ match: MatchSettings)
        -> Bool
    {
        guard let inverse = h.inverse else { return false }
        let overlap = Overlap(maskA, maskB.map(inverse.apply))
        return room(overlap, gap: edgeGap, cells: settings.maximumTies, settings, match) == nil && extent(overlap.lattice) < 6 * overlap.widest
    }

    /// The template's half side for this overlap, its candidate points (those a template fits
    /// around) and how many cells they make: the half side, from 7 up to `most`, that gives
    /// cells × side² the most (a large template on a wedge-shaped overlap fits only at its
    /// widest end); nil when no side gives the ties needed.
    static func templateSide(_ overlap: Overlap, most: Int, gap: Int, cells limit: Int, settings: OverlapTieSettings) -> (Int, [PixelPoint], Int)? {
        var best: (Int, [PixelPoint], Int)?
        var bestValue = 0
        for t in stride(from: min(most, Int(overlap.widest) - gap), through: 7, by: -1) {
            let candidates = overlap.points(clearance: Double(t + gap))
            let cells = cellCount(candidates, side: Double(2 * t + 1), most: limit)
            guard cells >= settings.minimumTies, cells * t * t > bestValue else { continue }
            (best, bestValue) = ((t, candidates, cells), cells * t * t)
        }
        return best
    }

    /// How many times the last round runs, each from the placement the one before corrected by
    /// its own ties' drift. A template warped through a placement turned or stretched by a
    /// fraction of a percent matches its picture a little off where the correlation is nearly
    /// flat one way (a smooth strip, sea), and the ties carry part of the placement's error; the
    /// next round, from their drift, carries less. On the 64-sheet bench series the found ties'
    /// mean distance from the truth went 0.092 → 0.064 → 0.061 px with one and two more rounds,
    /// those over 0.5 px 6 → 0 → 2 (at most 0.52 px); on the 1,024-sheet series 0.098 → 0.071 →
    /// 0.069 px, over 0.5 px 126 → 65 → 54; four more rounds left 56.
    static let lastRounds = 3

    /// How many times more the last round runs after ``lastRounds``, each from the one before's
    /// drift, with both pictures smoothed by ``smoothing`` before they are correlated; a round
    /// whose ties do not agree ends them, its predecessor's ties kept. Over a smooth strip (sea
    /// a few levels deep) each sheet's grey, rounded to whole levels, is a staircase whose steps
    /// fall elsewhere on the other sheet (its own gains), and their sharp edges steer the
    /// correlation more than the picture's own slow change: a whole strip of the 1,024-sheet
    /// bench series correlated at every shift peaked 0.37 px from the truth (the median over the
    /// pairs with a found tie over 0.5 px), smoothed by σ = 1 px 0.08 px
    /// (`scripts/strip_oracle.py`). Smoothing decides no pair: smoothed from the first round on,
    /// more pairs agreed, some of them wrong. On the bench's 1,024 sheets (GCPs 4 px off) the true
    /// seams at both runs' found ties, 75 → 34 over 0.5 px, the worst 1.64 → 1.52 px; with exact
    /// GCPs on one sheet in nine 27 → 6, 1.18 → 0.62 px; on its 64 sheets the worst 0.46 → 0.27
    /// px. Loading the 1,024 sheets takes 42 → 59 s on two threads. Measured at the ties of
    /// several runs: two smoothed rounds (51 s) or one last round before three (49 s) about as
    /// good (the worst 1.40 and 1.56 px against 1.52–1.55, 86 and 67 over 0.5 against 84 and 67);
    /// one last round before two, or one smoothed round, worse (1.85 and 1.58 px, 122 and 144
    /// over); σ = 0.5 or 1 px: 103 and 107 over, against 101.
    static let smoothedRounds = 3

    /// The Gaussian σ, in pixels, of ``smoothedRounds`` (``PointRefiner/smoothing``).
    static let smoothing = 0.7

    /// Pixels kept, in the last round, between a template and the overlap's edge: the correlation
    /// peak's neighbours (one pixel either way, which the sub-pixel parabola reads) and some play
    /// must not reach a sheet's paper, whose edge pulls the peak away from it. Measured on a made
    /// 4 × 4 series with 24-px overlaps: 3 px left the seams at the true shared corners at up to
    /// 0.50 px, 4 px at 0.26 px; 5 px leaves most such overlaps too narrow to tie.
    static let edgeGap = 4

    /// How many cells of about a template's side the candidates' bounding box holds, at most `most`.
    static func cellCount(_ points: [PixelPoint], side: Double, most: Int) -> Int {
        guard let x0 = points.map(\.x).min(), let x1 = points.map(\.x).max(), let y0 = points.map(\.y).min(), let y1 = points.map(\.y).max()
        else { return 0 }
        return min(most, (Int((x1 - x0) / side) + 1) * (Int((y1 - y0) / side) + 1))
    }

    /// At most `count` of the indices, evenly spaced.
    static func spread(_ indices: [Int], count: Int) -> [Int] {
        guard indices.count > count else { return indices }
        return (0..<count).map { indices[$0 * (indices.count - 1) / (count - 1)] }
    }

    /// A 5 × 5 grid over the mask's bounding box.
    static func gridPoints(_ mask: [PixelPoint]) -> [PixelPoint] {
        let x0 = mask.map(\.x).min() ?? 0, x1 = mask.map(\.x).max() ?? 1, y0 = mask.map(\.y).min() ?? 0, y1 = mask.map(\.y).max() ?? 1
        return (0..<25).map { PixelPoint(x: x0 + (x1 - x0) * Double($0 % 5) / 4, y: y0 + (y1 - y0) * Double($0 / 5) / 4) }
    }
}
