import Foundation
import TegulaGeometry

/// How far refined ties lie from where a prediction put them, as one smooth field over the
/// overlap: a shift plus a gradient along each of the ties' principal axes where they spread
/// along it (a strip along a sheet's edge fixes only the one along it). Ties off the field are
/// dropped, worst first, as long as they are over three times the median and over `tolerance`,
/// and at most half of them; what is left must be enough ties, agreeing within the verdict's
/// leave-one-out limit.
struct Drift {
    /// The ties on the field.
    var kept: [ProposedPoint]
    /// Their RMS distance from it, pixels of the second sheet.
    var rms: Double
    private var centre = PixelPoint(x: 0, y: 0)
    private var axes: [(Double, Double)] = []
    private var shift = (x: 0.0, y: 0.0)
    private var gradients: [(x: Double, y: Double)] = []
    /// The ties' variance along each of ``axes``, pixels².
    private var variances: [Double] = []

    /// The drift at a point of the first sheet.
    func model(_ p: PixelPoint) -> (x: Double, y: Double) {
        var d = shift
        for (axis, g) in zip(axes, gradients) {
            let s = (p.x - centre.x) * axis.0 + (p.y - centre.y) * axis.1
            d.x += g.x * s
            d.y += g.y * s
        }
        return d
    }

    /// For ties along a strip (along one axis only, or across it less than a quarter as far as
    /// along it: a few pixels across a 24-px overlap, too short a base to fix a gradient): `h`
    /// corrected by the drift as an affine map about the ties' centre whose Jacobian across the
    /// strip is its Jacobian along it turned a quarter, the two sheets' pixels related by a
    /// similarity there (as two scans of one map are); nil for ties that spread both ways, which
    /// fix both. The prediction's own
    /// Jacobian across a strip comes from the sheets' fits alone, which GCPs 4 px off get wrong
    /// by up to 16 % (a shear), and a template warped through it matches a fraction of a pixel
    /// to two pixels off across the strip.
    func conformal(_ h: Homography) -> ((PixelPoint) -> PixelPoint)? {
        guard axes.count == 1 || (axes.count == 2 && 16 * variances[1] < variances[0]) else { return nil }
        let u = axes[0], g = gradients[0], c = centre
        let q = h.apply(c), d = model(c), next = h.apply(PixelPoint(x: c.x + u.0, y: c.y + u.1))
        let along = (x: next.x - q.x + g.x, y: next.y - q.y + g.y)
        return { p in
            let s = (p.x - c.x) * u.0 + (p.y - c.y) * u.1, t = (p.y - c.y) * u.0 - (p.x - c.x) * u.1
            return PixelPoint(x: q.x + d.x + s * along.x - t * along.y, y: q.y + d.y + s * along.y + t * along.x)
        }
    }

    /// The field the ties agree on under `h`, or nil when too few of them do.
    static func agreeing(_ ties: [ProposedPoint], _ h: Homography, tolerance: Double, settings: OverlapTieSettings, match: MatchSettings) -> Drift? {
        var kept = ties
        let floor = max(settings.minimumTies, (ties.count + 1) / 2)
        while kept.count >= settings.minimumTies {
            let drift = fit(kept, h)
            let errors = kept.map { t -> Double in
                let q = h.apply(t.scan), d = drift.model(t.scan)
                return hypot(t.reference.x - q.x - d.x, t.reference.y - q.y - d.y)
            }
            let median = errors.sorted()[errors.count / 2]
            let worst = errors.indices.max { errors[$0] < errors[$1] }!
            if kept.count > floor, errors[worst] > max(3 * median, tolerance) {
                kept.remove(at: worst)
                continue
            }
            var result = drift
            result.kept = kept
            result.rms = (errors.map { $0 * $0 }.reduce(0, +) / Double(errors.count)).squareRoot()
            return result.rms <= match.verdict.maximumLeaveOneOut ? result : nil
        }
        return nil
    }

    /// The least-squares field through the ties: centred on their mean, along their principal
    /// axes (uncorrelated, so each gradient is fitted on its own), an axis left out where the
    /// ties spread less than 2 pixels along it.
    static func fit(_ ties: [ProposedPoint], _ h: Homography) -> Drift {
        let n = Double(ties.count)
        let c = PixelPoint(x: ties.map(\.scan.x).reduce(0, +) / n, y: ties.map(\.scan.y).reduce(0, +) / n)
        let d = ties.map { t -> (Double, Double) in
            let q = h.apply(t.scan)
            return (t.reference.x - q.x, t.reference.y - q.y)
        }
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for t in ties {
            let x = t.scan.x - c.x, y = t.scan.y - c.y
            sxx += x * x; syy += y * y; sxy += x * y
        }
        let angle = 0.5 * atan2(2 * sxy, sxx - syy)
        var drift = Drift(kept: ties, rms: 0, centre: c)
        drift.shift = (d.map(\.0).reduce(0, +) / n, d.map(\.1).reduce(0, +) / n)
        for axis in [(cos(angle), sin(angle)), (-sin(angle), cos(angle))] {
            let s = ties.map { ($0.scan.x - c.x) * axis.0 + ($0.scan.y - c.y) * axis.1 }
            let variance = s.map { $0 * $0 }.reduce(0, +) / n
            guard variance >= 4 else { continue }
            let gx = zip(s, d).map { $0 * ($1.0 - drift.shift.x) }.reduce(0, +) / n / variance
            let gy = zip(s, d).map { $0 * ($1.1 - drift.shift.y) }.reduce(0, +) / n / variance
            drift.axes.append(axis)
            drift.gradients.append((gx, gy))
            drift.variances.append(variance)
        }
        return drift
    }
}
