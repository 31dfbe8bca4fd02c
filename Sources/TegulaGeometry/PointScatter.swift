import Foundation

/// How a set of plane points scatter about their mean: their 2 × 2 scatter matrix (sums of the
/// centred products, not divided by the count) and its principal axes.
public struct PointScatter: Sendable, Equatable {
    /// The points' mean.
    public let meanX: Double, meanY: Double
    /// Σ(x − x̄)², Σ(y − ȳ)², Σ(x − x̄)(y − ȳ).
    public let sxx: Double, syy: Double, sxy: Double

    /// The scatter of points given by their coordinates; at least one point.
    public init(x: [Double], y: [Double]) {
        precondition(!x.isEmpty && x.count == y.count, "PointScatter: as many x as y, and at least one")
        let n = Double(x.count)
        let mx = x.reduce(0, +) / n, my = y.reduce(0, +) / n
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for (px, py) in zip(x, y) {
            sxx += (px - mx) * (px - mx)
            syy += (py - my) * (py - my)
            sxy += (px - mx) * (py - my)
        }
        (meanX, meanY, self.sxx, self.syy, self.sxy) = (mx, my, sxx, syy, sxy)
    }

    /// The angle of the major axis from +x, radians in (−π/2, π/2].
    public var majorAngle: Double { 0.5 * atan2(2 * sxy, sxx - syy) }

    /// The scatter along the major and the minor axis (the matrix's eigenvalues, largest first).
    public var axes: (major: Double, minor: Double) {
        let t = (sxx + syy) / 2, d = (((sxx - syy) / 2) * ((sxx - syy) / 2) + sxy * sxy).squareRoot()
        return (t + d, max(0, t - d))
    }

    /// Each point's signed distance from the mean along the major axis.
    public func alongMajor(x: [Double], y: [Double]) -> [Double] {
        let ux = cos(majorAngle), uy = sin(majorAngle)
        return zip(x, y).map { ($0 - meanX) * ux + ($1 - meanY) * uy }
    }
}
