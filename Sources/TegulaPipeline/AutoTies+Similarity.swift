import Foundation
import TegulaGeometry

extension AutoTies {
    /// A similarity between two sheets' pixels (a scale, a turn and a shift: x′ = a·x − b·y + tx,
    /// y′ = b·x + a·y + ty), the least-squares one through a pair's ties: two sheets of one series
    /// meet in their overlap by little more than a shift, so a similarity is the least that fixes
    /// a pair from ties along one line (a narrow overlap's) and the most such ties can fix.
    struct Similarity {
        let a: Double, b: Double, tx: Double, ty: Double

        /// The similarity through the pairs (a point of the first sheet, its twin on the second),
        /// in closed form about their centroids; nil for fewer than two pairs or pairs all at one point.
        init?(through pairs: [(from: PixelPoint, to: PixelPoint)]) {
            guard pairs.count >= 2 else { return nil }
            let n = Double(pairs.count)
            let cf = PixelPoint(x: pairs.map(\.from.x).reduce(0, +) / n, y: pairs.map(\.from.y).reduce(0, +) / n)
            let ct = PixelPoint(x: pairs.map(\.to.x).reduce(0, +) / n, y: pairs.map(\.to.y).reduce(0, +) / n)
            var along = 0.0, across = 0.0, norm = 0.0
            for (f, t) in pairs {
                let (fx, fy, tx, ty) = (f.x - cf.x, f.y - cf.y, t.x - ct.x, t.y - ct.y)
                along += fx * tx + fy * ty
                across += fx * ty - fy * tx
                norm += fx * fx + fy * fy
            }
            guard norm > 0 else { return nil }
            (a, b) = (along / norm, across / norm)
            (tx, ty) = (ct.x - (a * cf.x - b * cf.y), ct.y - (b * cf.x + a * cf.y))
        }

        private init(a: Double, b: Double, tx: Double, ty: Double) { (self.a, self.b, self.tx, self.ty) = (a, b, tx, ty) }

        /// The point's twin on the second sheet.
        func apply(_ p: PixelPoint) -> PixelPoint { PixelPoint(x: a * p.x - b * p.y + tx, y: b * p.x + a * p.y + ty) }

        /// The similarity back from the second sheet to the first; nil when this one is degenerate.
        var inverse: Similarity? {
            let d = a * a + b * b
            guard d > 0 else { return nil }
            let (ia, ib) = (a / d, -b / d)
            return Similarity(a: ia, b: ib, tx: -(ia * tx - ib * ty), ty: -(ib * tx + ia * ty))
        }
    }
}
