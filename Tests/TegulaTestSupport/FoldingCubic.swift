import Foundation

/// A scan whose pixel → ground map folds over 10 % beyond its GCPs, for the fold-over tests:
/// X = X0 + 100·(x − x³ / (3 · 880²)), Y = Y0 − 100·y in EPSG:3857 metres. Polynomial 3
/// reproduces it exactly from the GCPs; its Jacobian's determinant, 100²·(1 − x² / 880²), is
/// zero at the crease x = 880 (the GCPs end at x = 800) and negative past it, so the part of the
/// 1000-px-wide scan past the crease lies folded back over the strip before it.
public enum FoldingCubic {
    public static let width = 1000, height = 400
    /// Where dX/dx = 0: 10 % beyond the GCPs' last column (800).
    public static let creaseX = 880.0
    /// The ground's origin (EPSG:3857 metres, in the Netherlands) and metres per pixel.
    static let origin = (x: 500_000.0, y: 6_800_000.0), scale = 100.0

    /// Ground (EPSG:3857 metres) of pixel (x, y).
    public static func ground(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        (origin.x + scale * (x - x * x * x / (3 * creaseX * creaseX)), origin.y - scale * y)
    }

    /// 20 GCPs on a 5 × 4 grid over x 0…800, y 0…300 (x, y, X, Y).
    public static var gcps: [(x: Double, y: Double, X: Double, Y: Double)] {
        var out: [(Double, Double, Double, Double)] = []
        for j in 0..<4 {
            for i in 0..<5 {
                let x = Double(i) * 200, y = Double(j) * 100
                let g = ground(x, y)
                out.append((x, y, g.x, g.y))
            }
        }
        return out
    }

    /// The GCPs as CSV `x,y,X,Y` (read with `--gcp-srs EPSG:3857`).
    public static var csv: String {
        "x,y,X,Y\n" + gcps.map { "\($0.x),\($0.y),\($0.X),\($0.Y)" }.joined(separator: "\n") + "\n"
    }

    /// The column before the crease whose ground X equals that of the scan's right edge (x =
    /// 1000): ground between there and the crease's is covered twice within the scan (≈ 755).
    public static var coveredTwiceFrom: Double {
        let target = ground(Double(width), 0).x
        var lo = 0.0, hi = creaseX
        for _ in 0..<100 {
            let mid = (lo + hi) / 2
            if ground(mid, 0).x < target { lo = mid } else { hi = mid }
        }
        return lo
    }
}
