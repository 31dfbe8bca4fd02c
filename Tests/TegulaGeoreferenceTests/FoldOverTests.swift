import Foundation
import Testing
import TegulaGDAL
import TegulaTestSupport
@testable import TegulaGeoreference

/// A polynomial 3 that folds 10 % beyond its GCPs (``FoldingCubic``): the inverse's answers
/// past the crease, and for ground the folded part covers twice, are no answer; the others are
/// the exact inverse as before; a fit that folds nowhere in the image has no ``FoldOver``.
struct FoldOverTests {
    static func fit(width: Int = FoldingCubic.width, kind: TransformKind = .polynomial3) throws -> Georeference {
        let set = GCPSet(gcps: FoldingCubic.gcps.enumerated().map { i, g in
            GCP(id: "g\(i + 1)", pixel: PixelPoint(x: g.x, y: g.y), ground: GroundPoint(x: g.X, y: g.Y))
        }, crs: try CRS.parse("EPSG:3857"), source: "folding cubic")
        return try Georeferencer.fit(set, imageWidth: width, imageHeight: FoldingCubic.height,
                                     options: FitOptions(transform: kind, fitCRS: .gcp))
    }

    @Test func answersPastTheCreaseOrCoveredTwiceAreNoAnswer() throws {
        let fitted = try Self.fit()
        // The fixture does fold: Newton, seeded as usual, answers x = 950 with a pixel on the
        // other side of the crease (the wrong answer this guards against).
        let g950 = FoldingCubic.ground(950, 200)
        let wrong = try #require(fitted.transform.inverse(GroundPoint(x: g950.x, y: g950.y)))
        #expect(abs(wrong.x - 950) > 100, "\(wrong)")
        let folds = try #require(fitted.foldOver(.image))
        // (At the crease itself the one preimage is the crease: that answer is kept.)
        // The region is the folded columns, to within a grid cell (2 × 1000 / 160 px).
        let cell = 2.0 * Double(FoldingCubic.width) / Double(FoldOver.gridSide - 1)
        #expect(abs(folds.region.minX - FoldingCubic.creaseX) <= cell && folds.region.maxX <= Double(FoldingCubic.width), "\(folds.region)")
        #expect(folds.description.contains("polynomial3 folds over at pixels x 8"), "\(folds.description)")
        let twice = FoldingCubic.coveredTwiceFrom
        #expect(abs(twice - 755) < 5, "\(twice)")
        var kept = 0, refused = 0
        for x in stride(from: 0.0, through: 1000, by: 10) {
            for y in stride(from: 10.0, through: 390, by: 60) {
                let g = FoldingCubic.ground(x, y)
                let answer = try fitted.groundToPixels([GroundPoint(x: g.x, y: g.y)], folds: folds)[0]
                if x < twice - cell {
                    guard case .pixel(let p) = answer else { Issue.record("(\(x), \(y)): \(answer)"); continue }
                    #expect(abs(p.x - x) < 1e-6 && abs(p.y - y) < 1e-6, "(\(x), \(y)) → \(p)")
                    kept += 1
                } else if x > twice + cell && abs(x - FoldingCubic.creaseX) > cell {
                    // No answer: refused as folded, or none found at all (Newton lost past the crease).
                    #expect(answer != .pixel(PixelPoint(x: x, y: y)) && !(answer != .folded && answer != .none), "(\(x), \(y)): \(answer)")
                    refused += 1
                }
            }
        }
        #expect(kept > 400 && refused > 100, "\(kept) kept, \(refused) refused")
    }

    @Test func aFitThatFoldsNowhereInTheImageIsUntouched() throws {
        // The same GCPs over a scan 800 px wide: the crease (880) is beyond it.
        #expect(try Self.fit(width: 800).foldOver(.image) == nil)
        // Transforms that cannot fold have none, even over the wide scan.
        #expect(try Self.fit(kind: .polynomial1).foldOver(.plane) == nil)
        #expect(try Self.fit(kind: .helmert).foldOver(.plane) == nil)
    }
}
