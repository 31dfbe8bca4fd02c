import Foundation
import TegulaGeometry
import TegulaScan

/// Ties between a sheet of a series that nothing places yet (no GCPs, so no fit to predict its
/// overlaps from) and a neighbour that is placed. First a rough placement: where the neighbour lies
/// (a side, from the series' grid) a strip of the sheet's map along that edge is located by
/// normalised cross-correlation in the near half of the neighbour's map, at the scale of their two
/// outlines (the sheets of a series show about the same ground, so the outlines' ratio is their
/// scale); where the side is not known, each side in turn. Where no strip ties (no peak, or a
/// peak whose overlap then gives no ties: a look-alike), the two whole sheets' features (SIFT and
/// MAGSAC++ on reduced copies, as ``Matcher`` begins) through a similarity (the overlap is a
/// narrow band, where a homography would be free to tilt). From either prediction the overlap
/// is tied at full resolution by ``OverlapTieFinder``, whose verdict is the answer: ties that
/// agree on one placement, so a sheet that shows something else is not tied, however a peak fell.
/// The strip search takes sheets turned by no more than a few degrees to each other.
public enum SheetLocator {
    /// Feature inliers needed before the overlap is tried at all.
    public static let minimumInliers = 6
    /// The neighbour's pixels per sheet pixel a series may have: sheets scanned at up to four times
    /// another's resolution.
    public static let scales = 0.25...4.0

    /// The ties (``ProposedPoint``: `scan` on `sheet`, `reference` on `neighbour`), or why the
    /// two do not match. `mask` and `neighbourMask` are each sheet's map outline (its neatline,
    /// else its border). Throws a ``MatchError`` when an image cannot be read or OpenCV fails.
    public static func ties(
        sheet: any ScanReader, mask: [PixelPoint], neighbour: any ScanReader, neighbourMask: [PixelPoint], side: Side?,
        settings: OverlapTieSettings = OverlapTieSettings(), match: MatchSettings = MatchSettings()
    ) throws -> MatchVerdict {
        for s in side.map({ [$0] }) ?? Side.allCases {
            guard let h = try stripPrediction(sheet: sheet, mask: mask, neighbour: neighbour, neighbourMask: neighbourMask, side: s, match: match)
            else { continue }
            let predicted = OverlapTieFinder.gridPoints(mask).map { (a: $0, b: h.apply($0)) }
            let verdict = try OverlapTieFinder.ties(
                a: sheet, maskA: mask, b: neighbour, maskB: neighbourMask, predicted: predicted, settings: settings, match: match)
            if case .matched = verdict { return verdict! }
        }
        // No strip peak, or a peak the overlap's ties refuse (a look-alike): the features decide.
        return try byFeatures(sheet: sheet, mask: mask, neighbour: neighbour, neighbourMask: neighbourMask, settings: settings, match: match)
    }

    /// Where a neighbour lies from a sheet.
    public enum Side: Sendable, CaseIterable {
        case left, right, above, below
    }

    /// The strip's width across the edge, and its gap from the outline (the neatline's ink), in
    /// the sheet's pixels.
    static let strip = 12.0, gap = 3.0

    /// The sheet → neighbour similarity (no turn) that puts a strip of the sheet's map along
    /// `side` where it correlates best in the neighbour's half of its map towards the sheet; nil
    /// when a window leaves a scan or the peak is weak, flat or on the search's border.
    static func stripPrediction(
        sheet: any ScanReader, mask: [PixelPoint], neighbour: any ScanReader, neighbourMask: [PixelPoint], side: Side, match: MatchSettings
    ) throws -> Homography? {
        let s = Extent(mask), n = Extent(neighbourMask)
        let k = (n.width / s.width + n.height / s.height) / 2
        guard k.isFinite, scales.contains(k) else { return nil }
        let t = s.band(along: side, inset: gap, width: strip)
        let w: Extent
        switch side {
        case .left: w = n.fraction(x: (0.5, 1), y: (-0.1, 1.1))
        case .right: w = n.fraction(x: (0, 0.5), y: (-0.1, 1.1))
        case .above: w = n.fraction(x: (-0.1, 1.1), y: (0.5, 1))
        case .below: w = n.fraction(x: (-0.1, 1.1), y: (0, 0.5))
        }
        guard let tw = t.window(in: sheet), let ww = w.window(in: neighbour) else { return nil }
        let source = try RealGreyImage.read(sheet, x: tw.x, y: tw.y, width: tw.w, height: tw.h)
        let (sw, sh) = (Int((Double(tw.w) * k).rounded()), Int((Double(tw.h) * k).rounded()))
        guard sw >= 8, sh >= 8, sw < ww.w, sh < ww.h else { return nil }
        let template = try source.warped(.scaling(1 / k, 1 / k), blur: k < 1 ? (1 / (k * k) - 1).squareRoot() / 2 : 0, width: sw, height: sh)
        let search = try RealGreyImage.read(neighbour, x: ww.x, y: ww.y, width: ww.w, height: ww.h)
        guard let peak = try search.locate(template), peak.score >= match.verdict.minimumCorrelation else { return nil }
        let (x0, y0) = (Double(ww.x) + peak.x - k * Double(tw.x), Double(ww.y) + peak.y - k * Double(tw.y))
        return Homography([k, 0, x0, 0, k, y0, 0, 0, 1])
    }

    /// The sheet → neighbour similarity through the two whole sheets' feature matches, and the
    /// overlap tied from it.
    static func byFeatures(
        sheet: any ScanReader, mask: [PixelPoint], neighbour: any ScanReader, neighbourMask: [PixelPoint], settings: OverlapTieSettings,
        match: MatchSettings
    ) throws -> MatchVerdict {
        let (a, fa) = try Matcher.reduced(sheet, longSide: match.reducedLongSide)
        let (b, fb) = try Matcher.reduced(neighbour, longSide: match.reducedLongSide)
        let features = try MatchEngine.features(a, b, settings: match)
        var figures = MatchFigures()
        (figures.tentative, figures.inliers) = (features.tentative, features.inliers.count)
        let pairs = features.inliers.map {
            MatchEngine.Pair(
                a: PixelPoint(x: $0.a.x / fa.x, y: $0.a.y / fa.y), b: PixelPoint(x: $0.b.x / fb.x, y: $0.b.y / fb.y), distinctiveness: 0)
        }
        guard pairs.count >= minimumInliers, let s = similarity(pairs) else {
            return .noMatch("\(pairs.count) consistent feature matches; at least \(minimumInliers) are needed", figures)
        }
        figures.scale = s.localScale(at: PixelPoint(x: 0, y: 0))
        guard let scale = figures.scale, scales.contains(scale) else {
            return .noMatch(String(format: "the feature matches put the sheets at a scale of %.3g to each other", figures.scale ?? .nan), figures)
        }
        let predicted = OverlapTieFinder.gridPoints(mask).map { (a: $0, b: s.apply($0)) }
        guard
            let verdict = try OverlapTieFinder.ties(
                a: sheet, maskA: mask, b: neighbour, maskB: neighbourMask, predicted: predicted, settings: settings, match: match)
        else { return .noMatch("where the feature matches put the sheets, their overlap is too small to tie", figures) }
        return verdict
    }

    /// The least-squares similarity a → b through the pairs (x' = a·x − b·y + c, y' = b·x + a·y +
    /// d, about their centroids); nil when the points of a coincide.
    static func similarity(_ pairs: [MatchEngine.Pair]) -> Homography? {
        let n = Double(pairs.count)
        let ax = pairs.map(\.a.x).reduce(0, +) / n, ay = pairs.map(\.a.y).reduce(0, +) / n
        let bx = pairs.map(\.b.x).reduce(0, +) / n, by = pairs.map(\.b.y).reduce(0, +) / n
        var norm = 0.0, c = 0.0, s = 0.0
        for p in pairs {
            let (px, py, qx, qy) = (p.a.x - ax, p.a.y - ay, p.b.x - bx, p.b.y - by)
            norm += px * px + py * py
            c += px * qx + py * qy
            s += px * qy - py * qx
        }
        guard norm > 0 else { return nil }
        let (m, r) = (c / norm, s / norm)
        return Homography([m, -r, bx - m * ax + r * ay, r, m, by - r * ax - m * ay, 0, 0, 1])
    }

    /// An outline's bounding box, in pixels.
    struct Extent {
        var x0: Double, y0: Double, x1: Double, y1: Double
        var width: Double { x1 - x0 }
        var height: Double { y1 - y0 }

        init(_ ring: [PixelPoint]) {
            (x0, x1) = (ring.map(\.x).min() ?? 0, ring.map(\.x).max() ?? 0)
            (y0, y1) = (ring.map(\.y).min() ?? 0, ring.map(\.y).max() ?? 0)
        }

        init(x0: Double, y0: Double, x1: Double, y1: Double) { (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1) }

        /// A part given by fractions of the box along each axis.
        func fraction(x: (Double, Double), y: (Double, Double)) -> Extent {
            Extent(x0: x0 + width * x.0, y0: y0 + height * y.0, x1: x0 + width * x.1, y1: y0 + height * y.1)
        }

        /// The band `inset` to `inset + width` pixels inside the edge on `side`, over the middle
        /// three fifths of that edge.
        func band(along side: Side, inset: Double, width w: Double) -> Extent {
            switch side {
            case .left: return Extent(x0: x0 + inset, y0: y0 + 0.2 * height, x1: x0 + inset + w, y1: y1 - 0.2 * height)
            case .right: return Extent(x0: x1 - inset - w, y0: y0 + 0.2 * height, x1: x1 - inset, y1: y1 - 0.2 * height)
            case .above: return Extent(x0: x0 + 0.2 * width, y0: y0 + inset, x1: x1 - 0.2 * width, y1: y0 + inset + w)
            case .below: return Extent(x0: x0 + 0.2 * width, y0: y1 - inset - w, x1: x1 - 0.2 * width, y1: y1 - inset)
            }
        }

        /// The whole pixels of the box inside the scan, or nil when fewer than 8 a side.
        func window(in reader: any ScanReader) -> (x: Int, y: Int, w: Int, h: Int)? {
            let x = max(0, Int(ceil(x0))), y = max(0, Int(ceil(y0)))
            let w = min(reader.width, Int(floor(x1))) - x, h = min(reader.height, Int(floor(y1))) - y
            return w >= 8 && h >= 8 ? (x, y, w, h) : nil
        }
    }
}
