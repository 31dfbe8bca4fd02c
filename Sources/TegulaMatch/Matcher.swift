import Foundation
import TegulaGeometry
import TegulaScan

/// Proposes control points between a scan and a reference image of the same map: SIFT and
/// MAGSAC++ on reduced copies, each proposed point refined at full resolution in a small window
/// (``PointRefiner``), one point per cell of a grid over the matched area, and a verdict from the
/// geometry alone (``VerdictThresholds``). Both images are read through ``ScanReader`` windows, so
/// memory does not grow with their size.
public enum Matcher {
    /// Match `scan` against `reference`; a ``MatchVerdict/noMatch(_:_:)`` when they do not show the
    /// same map. Throws a ``MatchError`` when an image cannot be read or OpenCV fails.
    public static func match(scan: any ScanReader, reference: any ScanReader, settings: MatchSettings = MatchSettings()) throws -> MatchVerdict {
        var figures = MatchFigures()
        for (name, image) in [("scan", scan), ("reference", reference)] where min(image.width, image.height) < 64 {
            throw MatchError(.tooSmall, "the \(name) is \(image.width) × \(image.height) pixels; matching needs at least 64 on each side")
        }
        let (scanReduced, scanFactor) = try reduced(scan, longSide: settings.reducedLongSide)
        let (referenceReduced, referenceFactor) = try reduced(reference, longSide: settings.reducedLongSide)
        let features = try MatchEngine.features(scanReduced, referenceReduced, settings: settings)
        figures.tentative = features.tentative
        figures.inliers = features.inliers.count
        guard let reducedModel = features.homography, features.inliers.count >= settings.verdict.minimumInliers else {
            return .noMatch(
                "\(features.inliers.count) consistent feature matches of \(features.tentative) candidates; at least \(settings.verdict.minimumInliers) are needed",
                figures)
        }
        // Full resolution: scan → reduced scan → reduced reference → reference.
        let toScan = Homography.scaling(1 / scanFactor.x, 1 / scanFactor.y)
        let model = Homography.scaling(1 / referenceFactor.x, 1 / referenceFactor.y).after(reducedModel).after(.scaling(scanFactor.x, scanFactor.y))
        let centre = PixelPoint(x: Double(scan.width) / 2, y: Double(scan.height) / 2)
        let scale = model.localScale(at: centre)
        figures.scale = scale
        guard let inverse = model.inverse, scale.isFinite, scale > 0.05, scale < 20 else {
            return .noMatch("the feature matches fit no plausible transform (scale \(String(format: "%.3g", scale)))", figures)
        }
        let scanRect = rectangle(scan.width, scan.height)
        let footprint = densified(rectangle(reference.width, reference.height)).map(inverse.apply)
        let overlap = footprint.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) ? MatchEngine.intersectionArea(scanRect, footprint) : 0
        figures.coverage = overlap / Double(scan.width * scan.height)
        guard overlap > 0 else { return .noMatch("the feature matches put the reference outside the scan", figures) }

        // One point per cell of a grid over the matched features, the most distinctive that refines.
        let candidates = features.inliers.map { (point: toScan.apply($0.a), rank: $0.distinctiveness) }
        let coarse = scale <= 1 ? referenceFactor.x : scanFactor.x
        let refiner = PointRefiner(
            scan: scan, reference: reference, homography: model, inverse: inverse, settings: settings,
            searchRadius: max(4, Int(ceil(2.5 / coarse)) + 1))
        var points: [ProposedPoint] = []
        for cell in grid(candidates.map(\.point), cells: settings.maximumPoints) {
            let ranked = cell.map { (candidates[$0].point, candidates[$0].rank) }.sorted { $0.1 > $1.1 }
            for (p, _) in ranked.prefix(6) {
                if let r = try refiner.refine(scanPoint: p) {
                    points.append(ProposedPoint(scan: r.scan, reference: r.reference, score: r.score))
                    break
                }
            }
        }
        // Once more from the homography through the refined points: the reduced level's model
        // warps each template slightly wrong, which biases the correlation peak by a fraction of a
        // pixel; the second pass starts from full-resolution agreement.
        if points.count >= settings.verdict.minimumPoints,
            let better = MatchEngine.homography(
                points.map {
                    MatchEngine.Pair(a: $0.scan, b: $0.reference, distinctiveness: 0)
                }), let betterInverse = better.inverse
        {
            let second = PointRefiner(
                scan: scan, reference: reference, homography: better, inverse: betterInverse, settings: settings,
                searchRadius: 4)
            points = try points.compactMap { p in
                try second.refine(scanPoint: p.scan).map { ProposedPoint(scan: $0.scan, reference: $0.reference, score: $0.score) }
            }
        }
        figures.refined = points.count
        // In pixels of the coarser image: the reference's when it has fewer per map unit.
        let toCoarse = min(1, 1 / scale)
        points = dropOutliers(points, toCoarse: toCoarse, settings: settings.verdict)
        guard points.count >= settings.verdict.minimumPoints else {
            return .noMatch("\(points.count) points agree at full resolution; at least \(settings.verdict.minimumPoints) are needed", figures)
        }
        let errors = leaveOneOut(points).map { $0 * toCoarse }
        let rms = (errors.map { $0 * $0 }.reduce(0, +) / Double(errors.count)).squareRoot()
        figures.leaveOneOutRMS = rms
        figures.leaveOneOutScanPixels = rms / toCoarse / scale
        figures.spread = min(1, MatchEngine.hullArea(points.map(\.scan)) / overlap)
        guard rms <= settings.verdict.maximumLeaveOneOut else {
            return .noMatch(
                String(format: "the points disagree: leave-one-out RMS %.2f px, at most %.2f allowed", rms, settings.verdict.maximumLeaveOneOut),
                figures)
        }
        guard let spread = figures.spread, spread >= settings.verdict.minimumSpread else {
            return .noMatch(
                String(
                    format: "the points cover %.0f%% of the matched area, at least %.0f%% needed", 100 * (figures.spread ?? 0),
                    100 * settings.verdict.minimumSpread), figures)
        }
        return .matched(points.sorted { ($0.scan.y, $0.scan.x) < ($1.scan.y, $1.scan.x) }, figures)
    }

    /// The whole image reduced so its long side is at most `longSide`, and the factor per axis
    /// (reduced pixels per full pixel).
    static func reduced(_ reader: any ScanReader, longSide: Int) throws -> (GreyImage, (x: Double, y: Double)) {
        let f = min(1, Double(longSide) / Double(max(reader.width, reader.height)))
        let w = max(1, Int((Double(reader.width) * f).rounded())), h = max(1, Int((Double(reader.height) * f).rounded()))
        let image = try GreyImage.read(reader, x: 0, y: 0, width: reader.width, height: reader.height, bufferWidth: w, bufferHeight: h)
        return (image, (Double(w) / Double(reader.width), Double(h) / Double(reader.height)))
    }

    /// Indices of `points` by cell of a grid of about `cells` near-square cells over their
    /// bounding box, row by row; empty cells left out.
    static func grid(_ points: [PixelPoint], cells: Int) -> [[Int]] {
        guard let minX = points.map(\.x).min(), let maxX = points.map(\.x).max(),
            let minY = points.map(\.y).min(), let maxY = points.map(\.y).max()
        else { return [] }
        let w = max(maxX - minX, 1), h = max(maxY - minY, 1)
        let cols = max(1, min(cells, Int((Double(cells) * w / h).squareRoot().rounded())))
        let rows = max(1, cells / cols)
        var buckets = [[Int]](repeating: [], count: cols * rows)
        for (i, p) in points.enumerated() {
            let c = min(cols - 1, Int((p.x - minX) / w * Double(cols))), r = min(rows - 1, Int((p.y - minY) / h * Double(rows)))
            buckets[r * cols + c].append(i)
        }
        return buckets.filter { !$0.isEmpty }
    }

    /// Each point's distance, in reference pixels, from where the homography through all the
    /// others puts it.
    static func leaveOneOut(_ points: [ProposedPoint]) -> [Double] {
        let pairs = points.map { MatchEngine.Pair(a: $0.scan, b: $0.reference, distinctiveness: 0) }
        return pairs.indices.map { i in
            var others = pairs
            others.remove(at: i)
            guard let h = MatchEngine.homography(others) else { return .infinity }
            let q = h.apply(pairs[i].a)
            let d = hypot(q.x - pairs[i].b.x, q.y - pairs[i].b.y)
            return d.isFinite ? d : .infinity
        }
    }

    /// Drops the worst point while its leave-one-out error is over three times the median and over
    /// the verdict's limit, at most a quarter of the points.
    static func dropOutliers(_ points: [ProposedPoint], toCoarse: Double, settings: VerdictThresholds) -> [ProposedPoint] {
        var kept = points
        let floor = max(settings.minimumPoints, points.count - points.count / 4)
        while kept.count > floor {
            let errors = leaveOneOut(kept).map { $0 * toCoarse }
            let median = errors.sorted()[errors.count / 2]
            guard let worst = errors.indices.max(by: { errors[$0] < errors[$1] }),
                errors[worst] > max(3 * median, settings.maximumLeaveOneOut)
            else { break }
            kept.remove(at: worst)
        }
        return kept
    }

    static func rectangle(_ w: Int, _ h: Int) -> [PixelPoint] {
        [PixelPoint(x: 0, y: 0), PixelPoint(x: Double(w), y: 0), PixelPoint(x: Double(w), y: Double(h)), PixelPoint(x: 0, y: Double(h))]
    }

    /// The ring with 8 points per edge, so a projective image of it stays close to the true outline.
    static func densified(_ ring: [PixelPoint]) -> [PixelPoint] {
        ring.indices.flatMap { i -> [PixelPoint] in
            let a = ring[i], b = ring[(i + 1) % ring.count]
            return (0..<8).map { k in PixelPoint(x: a.x + (b.x - a.x) * Double(k) / 8, y: a.y + (b.y - a.y) * Double(k) / 8) }
        }
    }
}
