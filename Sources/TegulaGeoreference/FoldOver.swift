import Foundation

/// Where a fitted transform folds over, and which inverse answers that fold makes wrong.
///
/// A polynomial 3 (or a tps, or a projective past its horizon) fitted from GCPs can fold beyond
/// them: its Jacobian's determinant changes sign, the sheet beyond the crease lies over the
/// sheet before it, and a ground point there has two preimages. Newton then returns whichever it
/// reaches, possibly thousands of pixels from the other, without a word. An inverse answer is
/// kept only when it lies on the GCPs' own sheet (the determinant has the sign it has among the
/// GCPs and is reachable from their hull without crossing a zero) and no point of the folded
/// sheet maps to the same ground point; every other answer is "no answer".
///
/// The determinant is sampled on a grid of ``gridSide``² nodes over the image and a margin of
/// half its size around it (the area ``NewtonInverter`` seeds from); a transform that folds
/// nowhere in the ``Scope`` gives no `FoldOver` at all, so its answers are untouched.
public struct FoldOver: Sendable {
    /// Which answers are checked, and where a second, folded preimage makes an answer ambiguous.
    public enum Scope: Sendable {
        /// Answers inside the image, against folded points inside it (a warp: pixels outside
        /// the scan are empty anyway).
        case image
        /// Every answer, against folded points within the image grown by a quarter of its size
        /// on each side (`tegula transform --inverse`, where points beyond the scan are asked).
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
    /// The box of ambiguity: the image, or for the plane the image grown by a quarter.
    let image: PixelBox
    let area: PixelBox
    let step: (x: Double, y: Double)
    /// Per node: on the GCPs' sheet (their sign, reachable from their hull).
    let onSheet: [Bool]
    /// Per node: the forward image, for the folded cells' outlines on the ground.
    let grounds: [GroundPoint]
    /// Cells with a node off the sheet, within the scope, bucketed by their ground box.
    let folded: FoldedCells
    let gcpCentroid: PixelPoint
    /// The folded nodes' extent within the scope.
    public let region: PixelBox
    /// The GCPs' extent, for the warning.
    public let gcpBox: PixelBox

    /// Sample `transform` over a `width` × `height` image; nil when it folds nowhere in `scope`.
    public init?(transform: any PixelTransform, gcpPixels: [PixelPoint], width: Double, height: Double, scope: Scope) {
        guard !gcpPixels.isEmpty, ![TransformKind.helmert, .polynomial1].contains(transform.kind) else { return nil }
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
        let image = scope == .image ? PixelBox(minX: 0, minY: 0, maxX: width, maxY: height)
            : PixelBox(minX: -width / 4, minY: -height / 4, maxX: width * 1.25, maxY: height * 1.25)
        // The cells that matter: any node off the sheet, and (for an image scope) touching the image.
        var region: PixelBox?
        var cells: [(index: Int, interior: Bool)] = []
        for j in 0..<(n - 1) {
            for i in 0..<(n - 1) {
                let corners = [j * n + i, j * n + i + 1, (j + 1) * n + i + 1, (j + 1) * n + i]
                guard corners.contains(where: { !onSheet[$0] }) else { continue }
                let lo = node(i, j), hi = node(i + 1, j + 1)
                guard hi.x > image.minX && lo.x < image.maxX && hi.y > image.minY && lo.y < image.maxY else { continue }
                cells.append((j * n + i, corners.allSatisfy { !onSheet[$0] }))
                for c in corners where !onSheet[c] && image.contains(node(c % n, c / n)) {
                    let p = node(c % n, c / n)
                    region = PixelBox(minX: min(region?.minX ?? p.x, p.x), minY: min(region?.minY ?? p.y, p.y),
                                      maxX: max(region?.maxX ?? p.x, p.x), maxY: max(region?.maxY ?? p.y, p.y))
                }
            }
        }
        // A fold only beyond the scope's box still refuses answers past it on the plane.
        if region == nil && scope == .plane, let k = onSheet.indices.first(where: { !onSheet[$0] }) {
            let p = node(k % n, k / n)
            region = PixelBox(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y)
            for m in onSheet.indices where !onSheet[m] {
                let q = node(m % n, m / n)
                region = PixelBox(minX: min(region!.minX, q.x), minY: min(region!.minY, q.y), maxX: max(region!.maxX, q.x), maxY: max(region!.maxY, q.y))
            }
        }
        guard let region else { return nil }
        var grounds = [GroundPoint](repeating: GroundPoint(x: 0, y: 0), count: n * n)
        for j in 0..<n { for i in 0..<n { grounds[j * n + i] = transform.forward(node(i, j)) } }
        self.transform = transform
        self.sign = sign
        self.scope = scope
        self.image = image
        self.area = area
        self.step = step
        self.onSheet = onSheet
        self.grounds = grounds
        self.folded = FoldedCells(cells: cells, side: n, grounds: grounds)
        self.gcpCentroid = PixelPoint(x: cx, y: cy)
        self.region = region
        self.gcpBox = PixelBox(minX: gcpPixels.map(\.x).min()!, minY: gcpPixels.map(\.y).min()!,
                               maxX: gcpPixels.map(\.x).max()!, maxY: gcpPixels.map(\.y).max()!)
    }

    /// True when `p`, the inverse's answer for `g`, is the answer: on the GCPs' sheet, with no
    /// point of the folded sheet (within the scope's box) over the same ground point. For an
    /// image scope, answers outside the image pass.
    public func accepts(_ p: PixelPoint, for g: GroundPoint) -> Bool {
        if scope == .image && !image.contains(p) { return true }
        guard isOnSheet(p) else { return false }
        return !folded.covers(g, side: Self.gridSide) { seed, interior in
            // Inside the folded sheet's outline: interior cells are folded outright; a cell on
            // the crease is decided by where Newton, started there, lands.
            if interior { return true }
            guard let q = transform.inverse(g, near: self.node(seed)) else { return true }
            return !isOnSheet(q)
        }
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

/// The outlines on the ground of a fold's cells, bucketed so a ground point finds the few it
/// may lie in.
struct FoldedCells: Sendable {
    /// Per cell: its index (j · side + i) and whether all four nodes are off the sheet.
    let cells: [(index: Int, interior: Bool)]
    let corners: [[GroundPoint]]
    let box: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    /// 64 × 64 buckets over `box`, each listing the cells whose ground box meets it.
    let buckets: [[Int]]
    static let bucketSide = 64

    init(cells found: [(index: Int, interior: Bool)], side n: Int, grounds: [GroundPoint]) {
        var cells: [(index: Int, interior: Bool)] = [], corners: [[GroundPoint]] = []
        var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
        for (k, interior) in found {
            let q = [grounds[k], grounds[k + 1], grounds[k + n + 1], grounds[k + n]]
            guard q.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { continue }
            cells.append((k, interior))
            corners.append(q)
            for g in q { box = (min(box.minX, g.x), min(box.minY, g.y), max(box.maxX, g.x), max(box.maxY, g.y)) }
        }
        self.box = box
        let b = Self.bucketSide
        var buckets = [[Int]](repeating: [], count: b * b)
        for (c, q) in corners.enumerated() {
            let xs = q.map(\.x), ys = q.map(\.y)
            let (i0, j0) = Self.bucket(xs.min()!, ys.min()!, box), (i1, j1) = Self.bucket(xs.max()!, ys.max()!, box)
            for j in j0...j1 { for i in i0...i1 { buckets[j * b + i].append(c) } }
        }
        self.buckets = buckets
        self.cells = cells
        self.corners = corners
    }

    static func bucket(_ x: Double, _ y: Double, _ box: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> (Int, Int) {
        let b = bucketSide
        let i = (x - box.minX) / max(box.maxX - box.minX, .leastNormalMagnitude) * Double(b)
        let j = (y - box.minY) / max(box.maxY - box.minY, .leastNormalMagnitude) * Double(b)
        return (min(b - 1, max(0, Int(i.isFinite ? i : 0))), min(b - 1, max(0, Int(j.isFinite ? j : 0))))
    }

    /// True when `g` lies in a cell's ground outline and `decide(seed, interior)` says it is
    /// folded there; `seed` is the grid position linear interpolation gives for `g` in that cell.
    func covers(_ g: GroundPoint, side n: Int, decide: ((Double, Double), Bool) -> Bool) -> Bool {
        guard !cells.isEmpty, g.x >= box.minX, g.x <= box.maxX, g.y >= box.minY, g.y <= box.maxY else { return false }
        let (i, j) = Self.bucket(g.x, g.y, box)
        for c in buckets[j * Self.bucketSide + i] {
            let q = corners[c]
            // Two triangles: (0, 1, 2) and (0, 2, 3), in cell coordinates (0,0) (1,0) (1,1) (0,1).
            for (a, b, d, ua, ub, ud) in [(q[0], q[1], q[2], (0.0, 0.0), (1.0, 0.0), (1.0, 1.0)),
                                          (q[0], q[2], q[3], (0.0, 0.0), (1.0, 1.0), (0.0, 1.0))] {
                let det = (b.x - a.x) * (d.y - a.y) - (d.x - a.x) * (b.y - a.y)
                guard det != 0 else { continue }
                let s = ((g.x - a.x) * (d.y - a.y) - (d.x - a.x) * (g.y - a.y)) / det
                let t = ((b.x - a.x) * (g.y - a.y) - (g.x - a.x) * (b.y - a.y)) / det
                guard s >= 0, t >= 0, s + t <= 1 else { continue }
                let k = cells[c].index
                let u = ua.0 + s * (ub.0 - ua.0) + t * (ud.0 - ua.0), v = ua.1 + s * (ub.1 - ua.1) + t * (ud.1 - ua.1)
                if decide((Double(k % n) + u, Double(k / n) + v), cells[c].interior) { return true }
            }
        }
        return false
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
