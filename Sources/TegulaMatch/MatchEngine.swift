import CMatch
import COpenCV
import TegulaGeometry

/// The one Swift home of the C calls into OpenCV (CMatch): SIFT and MAGSAC++ on two pictures,
/// a template located by normalised cross-correlation, a least-squares homography, polygon areas.
/// Positions cross this border in GDAL's convention ((0, 0) the top-left pixel's corner) and are
/// shifted by half a pixel to OpenCV's (pixel centres at integers) inside it.
enum MatchEngine {
    /// One correspondence between two images, and how distinctive its descriptors were.
    struct Pair {
        var a: PixelPoint
        var b: PixelPoint
        var distinctiveness: Double
    }

    /// What the feature match found.
    struct Features {
        /// a → b, nil when MAGSAC++ found no model.
        var homography: Homography?
        /// MAGSAC++'s inliers.
        var inliers: [Pair]
        /// Pairs that passed the ratio test and mutual nearest neighbours.
        var tentative: Int
    }

    /// SIFT, RootSIFT, ratio test, mutual nearest neighbours and MAGSAC++ (cmatch_features).
    static func features(_ a: GreyImage, _ b: GreyImage, settings: MatchSettings) throws -> Features {
        let capacity = settings.maximumFeatures
        var pairs = [cmatch_pair](repeating: cmatch_pair(), count: capacity)
        var h = [Double](repeating: 0, count: 9)
        var tentative: Int32 = 0
        let params = cmatch_params(
            max_features: Int32(settings.maximumFeatures), ratio: settings.ratio,
            threshold: settings.magsacThreshold, max_iterations: 10_000)
        let n = a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                cmatch_features(
                    cmatch_image(pixels: pa.baseAddress, width: Int32(a.width), height: Int32(a.height), stride: Int32(a.width)),
                    cmatch_image(pixels: pb.baseAddress, width: Int32(b.width), height: Int32(b.height), stride: Int32(b.width)),
                    params, &h, &pairs, Int32(capacity), &tentative)
            }
        }
        guard n >= 0 else { throw MatchError(.engineFailed, "OpenCV failed in the feature match (cmatch_features)") }
        let kept = pairs.prefix(min(Int(n), capacity)).map {
            Pair(
                a: PixelPoint(x: $0.ax + 0.5, y: $0.ay + 0.5), b: PixelPoint(x: $0.bx + 0.5, y: $0.by + 0.5),
                distinctiveness: $0.distinctiveness)
        }
        // OpenCV's model maps pixel centres; in GDAL's convention it is shifted by half a pixel.
        let model = n > 0 ? Homography.scaling(1, 1, moving: 0.5, 0.5).after(Homography(h)).after(.scaling(1, 1, moving: -0.5, -0.5)) : nil
        return Features(homography: model, inliers: kept, tentative: Int(tentative))
    }

    /// The least-squares homography a → b through the pairs (cmatch_homography); nil when they
    /// do not determine one.
    static func homography(_ pairs: [Pair]) -> Homography? {
        let c = pairs.map { cmatch_pair(ax: $0.a.x, ay: $0.a.y, bx: $0.b.x, by: $0.b.y, distinctiveness: 0) }
        var h = [Double](repeating: 0, count: 9)
        guard cmatch_homography(c, Int32(c.count), &h) == 0 else { return nil }
        return Homography(h)
    }

    /// The area of the intersection of two convex polygons.
    static func intersectionArea(_ a: [PixelPoint], _ b: [PixelPoint]) -> Double {
        let fa = a.flatMap { [$0.x, $0.y] }, fb = b.flatMap { [$0.x, $0.y] }
        return max(0, cmatch_convex_intersection(fa, Int32(a.count), fb, Int32(b.count)))
    }

    /// The area of the convex hull of the points.
    static func hullArea(_ points: [PixelPoint]) -> Double {
        max(0, cmatch_hull_area(points.flatMap { [$0.x, $0.y] }, Int32(points.count)))
    }
}
