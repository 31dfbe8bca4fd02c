import Foundation
import TegulaGeometry

/// Where a fitted transform folds over, and which preimage is the answer there.
///
/// A polynomial 3 (or a tps, or a projective past its horizon) fitted from GCPs can fold beyond
/// them: its Jacobian's determinant changes sign, the sheet beyond the crease lies over the
/// sheet before it, and a ground point there has two (or more) preimages. Newton returns
/// whichever it reaches, possibly thousands of pixels from the other, without a word. Of those
/// preimages one lies on the GCPs' own sheet (the determinant has the sign it has among the
/// GCPs and the point is reachable from their hull without crossing a zero): that one is the
/// answer the fit means, and the only one kept. An answer off the sheet is solved again from
/// the sheet's nodes nearest in ground; when none reaches a preimage on the sheet, there is no
/// answer. (The 10-GCP Great Britain set of Allmaps' tests, polynomial 3 in the GCP CRS: every
/// point of a 7 × 7 grid 10 % beyond the GCPs has two more preimages 3,000–27,000 px away, off
/// the sheet; measured by hand, all 49 come back as their own pixel.)
///
/// The determinant is sampled on a grid of ``gridSide``² nodes over the image and a margin of
/// half its size around it (the area ``NewtonInverter`` seeds from); a transform that folds
/// nowhere in the ``Scope`` gives no `FoldOver` at all, so its answers are untouched.
public struct FoldOver: Sendable {
    /// Where a fold matters: where answers are checked and the warning's region is sought.
    public enum Scope: Sendable {
        /// Inside the image (a warp: answers beyond the sampled area are pixels outside the
        /// scan, empty anyway, and pass unchecked).
        case image
        /// The image grown by a quarter of its size on each side, and every answer checked
        /// (`tegula transform --inverse`, where points beyond the scan are asked).
        case plane
    }

    /// An axis-aligned box in pixels.
    public struct PixelBox: Sendable, Equatable {
        public var minX: Double, minY: Double, maxX: Double, maxY: Double

        func contains(_ p: PixelPoint) -> Bool { p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY }
    }

    /// Grid nodes per side of the sampled area (twice the image): a cell is 1/80 of the image's
    /// side, so a fold band 10 % of the image wide is eight cells across.
    static let gridSide = 161

    let transform: any PixelTransform
    /// The determinant's sign among the GCPs: +1 or −1.
    let sign: Double
    let scope: Scope
    let area: PixelBox
    let step: (x: Double, y: Double)
    /// Per node: on the GCPs' sheet (their sign, reachable from their hull).
    let onSheet: [Bool]
    /// Every second node on the sheet in each direction, with its ground: where an answer off
    /// the sheet is solved again from.
    let seeds: [(pixel: PixelPoint, ground: GroundPoint)]
    let gcpCentroid: PixelPoint
    /// The folded nodes' extent within the scope.
    public let region: PixelBox
    /// The GCPs' extent, for the warning.
    public let gcpBox: PixelBox

    /// Sample `transform` over a `width` × `height` image; nil when it folds nowhere in `scope`.
    public init?(transform: any PixelTransform, gcpPixels: [PixelPoint], width: Double, height: Double, scope: Scope) {
        guard !gcpPixels.isEmpty, ![TransformKind.helmert, .polynomial1, .straight].contains(transform.kind) else { return nil }
        let n = Self.gridSide
        let area = PixelBox(minX: -width / 2, minY: -height / 2, maxX: width * 1.5, maxY: height * 1.5)
        let step = ((area.maxX - area.minX) / Double(n - 1), (area.maxY - area.minY) / Double(n - 1))
        func node(_ i: Int, _ j: Int) -> PixelPoint { PixelPoint(x: area.minX + Double(i) * step.0, y: area.minY + Double(j) * step.1) }
        var dets = [Double](repeating: 0, count: n * n)
        for j in 0..<n { for i in 0..<n { dets[j * n + i] = transform.jacobian(at: node(i, j)).determinant } }
        // The GCPs' sign: the majority among them (their centroid's on a tie).
        let cx = gcpPixels.map(\.x).reduce(0, +) / Double(gcpPixels.count)
        let cy = gcpPixels.map(\.y).reduce(0, +) / Double(gcpPixels.count)
        let votes = gcpPixels.map { transform.jacobian(at: $0).determinant }.reduce(0.0) { $0 + ($1 > 0 ? 1 : $1 < 0 ? -1 : 0) }
        let centre = transform.jacobian(at: PixelPoint(x: cx, y: cy)).determinant
        let sign: Double = votes != 0 ? (votes > 0 ? 1 : -1) : (centre >= 0 ? 1 : -1)
        // Flood the sheet from the nodes inside the GCPs' hull (or the one nearest their centroid).
        let hull = ConvexHull(gcpPixels)
        var onSheet = [Bool](repeating: false, count: n * n)
        var queue: [Int] = []
        for j in 0..<n { for i in 0..<n where dets[j * n + i] * sign > 0 && hull.contains(node(i, j)) { queue.append(j * n + i) } }
        if queue.isEmpty {
            let i = min(n - 1, max(0, Int(((cx - area.minX) / step.0).rounded())))
            let j = min(n - 1, max(0, Int(((cy - area.minY) / step.1).rounded())))
            if dets[j * n + i] * sign > 0 { queue.append(j * n + i) }
        }
        for k in queue { onSheet[k] = true }
        while let k = queue.popLast() {
            let i = k % n, j = k / n
            for (a, b) in [(i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)] where a >= 0 && a < n && b >= 0 && b < n {
                let m = b * n + a
                if !onSheet[m] && dets[m] * sign > 0 { onSheet[m] = true; queue.append(m) }
            }
        }
        let image =
            scope == .image
            ? PixelBox(minX: 0, minY: 0, maxX: width, maxY: height)
            : PixelBox(minX: -width / 4, minY: -height / 4, maxX: width * 1.25, maxY: height * 1.25)
        // The folded nodes within the scope's box, for the warning.
        var region: PixelBox?
        for k in onSheet.indices where !onSheet[k] && image.contains(node(k % n, k / n)) {
            let p = node(k % n, k / n)
            region = PixelBox(
                minX: min(region?.minX ?? p.x, p.x), minY: min(region?.minY ?? p.y, p.y),
                maxX: max(region?.maxX ?? p.x, p.x), maxY: max(region?.maxY ?? p.y, p.y))
        }
        // A fold only beyond the scope's box still has answers past it checked on the plane.
        if region == nil && scope == .plane, let k = onSheet.indices.first(where: { !onSheet[$0] }) {
            let p = node(k % n, k / n)
            region = PixelBox(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y)
            for m in onSheet.indices where !onSheet[m] {
                let q = node(m % n, m / n)
                region = PixelBox(
                    minX: min(region!.minX, q.x), minY: min(region!.minY, q.y), maxX: max(region!.maxX, q.x), maxY: max(region!.maxY, q.y))
            }
        }
        guard let region else { return nil }
        var seeds: [(pixel: PixelPoint, ground: GroundPoint)] = []
        for j in stride(from: 0, to: n, by: 2) {
            for i in stride(from: 0, to: n, by: 2) where onSheet[j * n + i] {
                let g = transform.forward(node(i, j))
                if g.x.isFinite && g.y.isFinite { seeds.append((node(i, j), g)) }
            }
        }
        self.transform = transform
        self.sign = sign
        self.scope = scope
        self.area = area
        self.step = step
        self.onSheet = onSheet
        self.seeds = seeds
        self.gcpCentroid = PixelPoint(x: cx, y: cy)
        self.region = region
        self.gcpBox = PixelBox(
            minX: gcpPixels.map(\.x).min()!, minY: gcpPixels.map(\.y).min()!,
            maxX: gcpPixels.map(\.x).max()!, maxY: gcpPixels.map(\.y).max()!)
    }

    /// The answer for ground point `g`, given what the inverse `found` for it: `found` when it
    /// lies on the GCPs' sheet; else the preimage on the sheet that Newton reaches from the
    /// sheet's nodes nearest `g` in ground (the nearest four tried); nil when there is none.
    /// With an image scope, a pixel beyond the sampled area passes (it is outside the scan).
    public func answer(_ found: PixelPoint?, for g: GroundPoint) -> PixelPoint? {
        if let p = found {
            if scope == .image && !area.contains(p) { return p }
            if isOnSheet(p) { return p }
        }
        guard g.x.isFinite, g.y.isFinite else { return nil }
        var nearest: [(distance: Double, pixel: PixelPoint)] = []
        for s in seeds {
            let d = hypot(s.ground.x - g.x, s.ground.y - g.y)
            guard nearest.count < 4 || d < nearest[3].distance else { continue }
            nearest.append((d, s.pixel))
            nearest.sort { $0.distance < $1.distance }
            if nearest.count > 4 { nearest.removeLast() }
        }
        for (_, seed) in nearest {
            if let q = transform.inverse(g, near: seed), isOnSheet(q) { return q }
        }
        return nil
    }

    /// The pixel at fractional grid position `seed`.
    func node(_ seed: (Double, Double)) -> PixelPoint {
        PixelPoint(x: area.minX + seed.0 * step.x, y: area.minY + seed.1 * step.y)
    }

    /// On the GCPs' sheet: the determinant's sign there, and a node of its cell on the sheet;
    /// outside the sampled area, no sign change on the way from the GCPs' centroid.
    func isOnSheet(_ p: PixelPoint) -> Bool {
        guard transform.jacobian(at: p).determinant * sign > 0 else { return false }
        let n = Self.gridSide
        let fx = (p.x - area.minX) / step.x, fy = (p.y - area.minY) / step.y
        if fx >= 0, fy >= 0, fx <= Double(n - 1), fy <= Double(n - 1) {
            let i = min(n - 2, Int(fx)), j = min(n - 2, Int(fy))
            return [j * n + i, j * n + i + 1, (j + 1) * n + i, (j + 1) * n + i + 1].contains { onSheet[$0] }
        }
        // Beyond the grid: sample the segment from the centroid at the grid's spacing (≤ 4096).
        let d = hypot((p.x - gcpCentroid.x) / step.x, (p.y - gcpCentroid.y) / step.y)
        let count = min(4096, Int(d.rounded(.up)))
        for k in 0..<count {
            let t = Double(k) / Double(count)
            let q = PixelPoint(x: gcpCentroid.x + t * (p.x - gcpCentroid.x), y: gcpCentroid.y + t * (p.y - gcpCentroid.y))
            if transform.jacobian(at: q).determinant * sign <= 0 { return false }
        }
        return true
    }

    /// One line for a warning: the transform, where it folds, and what becomes of the points.
    public var description: String {
        func r(_ v: Double) -> String { String(Int(v.rounded())) }
        return "\(transform.kind.rawValue) folds over at pixels x \(r(region.minX))…\(r(region.maxX)), y \(r(region.minY))…\(r(region.maxY))"
            + " (its GCPs span x \(r(gcpBox.minX))…\(r(gcpBox.maxX)), y \(r(gcpBox.minY))…\(r(gcpBox.maxY)))"
    }
}

/// The convex hull of a set of pixels (Andrew's monotone chain), for "inside the GCPs".
struct ConvexHull {
    let ring: [PixelPoint]

    init(_ points: [PixelPoint]) {
        let p = points.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
        guard p.count >= 3 else { ring = p; return }
        func cross(_ o: PixelPoint, _ a: PixelPoint, _ b: PixelPoint) -> Double { (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x) }
        var lower: [PixelPoint] = [], upper: [PixelPoint] = []
        for q in p {
            while lower.count >= 2 && cross(lower[lower.count - 2], lower[lower.count - 1], q) <= 0 { lower.removeLast() }
            lower.append(q)
        }
        for q in p.reversed() {
            while upper.count >= 2 && cross(upper[upper.count - 2], upper[upper.count - 1], q) <= 0 { upper.removeLast() }
            upper.append(q)
        }
        ring = Array(lower.dropLast() + upper.dropLast())
    }

    /// Inside or on the hull (a hull of fewer than three points contains nothing).
    func contains(_ q: PixelPoint) -> Bool {
        guard ring.count >= 3 else { return false }
        for k in ring.indices {
            let a = ring[k], b = ring[(k + 1) % ring.count]
            if (b.x - a.x) * (q.y - a.y) - (b.y - a.y) * (q.x - a.x) < 0 { return false }
        }
        return true
    }
}
