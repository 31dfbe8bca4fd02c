import Foundation
import TegulaGDAL
import TegulaGeometry
import TegulaTestSupport
import Testing

@testable import TegulaGeoreference

/// A polynomial 3 that folds 10 % beyond its GCPs (``FoldingCubic``): every answer is the
/// preimage on the GCPs' sheet (a pixel past the crease is never one), an answer found past the
/// crease is solved again onto the sheet, ground beyond the fold's reach has no answer, and a
/// fit that folds nowhere in the image has no ``FoldOver``.
struct FoldOverTests {
    static func fit(width: Int = FoldingCubic.width, kind: TransformKind = .polynomial3) throws -> Georeference {
        let set = GCPSet(
            gcps: FoldingCubic.gcps.enumerated().map { i, g in
                GCP(id: "g\(i + 1)", pixel: PixelPoint(x: g.x, y: g.y), ground: GroundPoint(x: g.X, y: g.Y))
            }, crs: try CRS.parse("EPSG:3857"), source: "folding cubic")
        return try Georeferencer.fit(
            set, imageWidth: width, imageHeight: FoldingCubic.height,
            options: FitOptions(transform: kind, fitCRS: .gcp))
    }

    @Test func answersAreThePreimageOnTheGCPsSheet() throws {
        let fitted = try Self.fit()
        let folds = try #require(fitted.foldOver(.image))
        // The region is the folded columns, to within a grid cell (2 × 1000 / 160 px).
        let cell = 2.0 * Double(FoldingCubic.width) / Double(FoldOver.gridSide - 1)
        #expect(abs(folds.region.minX - FoldingCubic.creaseX) <= cell && folds.region.maxX <= Double(FoldingCubic.width), "\(folds.region)")
        #expect(folds.description.contains("polynomial3 folds over at pixels x 8"), "\(folds.description)")
        // The wrong answer this guards against: Newton started past the crease (as a warp row's
        // previous answer may start it) stays there, on the folded sheet.
        let g950 = FoldingCubic.ground(950, 200), ground950 = GroundPoint(x: g950.x, y: g950.y)
        let folded = try #require(fitted.transform.inverse(ground950, near: PixelPoint(x: 960, y: 200)))
        #expect(abs(folded.x - 950) < 1e-6, "\(folded)")
        let resolved = try #require(folds.answer(folded, for: ground950))
        #expect(resolved.x < FoldingCubic.creaseX - 50 && abs(FoldingCubic.ground(resolved.x, resolved.y).x - g950.x) < 1e-6, "\(resolved)")
        var kept = 0, moved = 0
        for x in stride(from: 0.0, through: 1000, by: 10) where abs(x - FoldingCubic.creaseX) > cell {
            for y in stride(from: 10.0, through: 390, by: 60) {
                let g = FoldingCubic.ground(x, y)
                let answer = try fitted.groundToPixels([GroundPoint(x: g.x, y: g.y)], folds: folds)[0]
                guard case .pixel(let p) = answer else { Issue.record("(\(x), \(y)): \(answer)"); continue }
                if x < FoldingCubic.creaseX {
                    // On the sheet, covered once or (from 755) twice: the pixel itself.
                    #expect(abs(p.x - x) < 1e-6 && abs(p.y - y) < 1e-6, "(\(x), \(y)) → \(p)")
                    kept += 1
                } else {
                    // Past the crease: the other preimage, on the sheet, never the folded pixel.
                    let back = FoldingCubic.ground(p.x, p.y)
                    #expect(p.x < FoldingCubic.creaseX && abs(back.x - g.x) < 1e-6 && abs(back.y - g.y) < 1e-6, "(\(x), \(y)) → \(p)")
                    moved += 1
                }
            }
        }
        #expect(kept > 500 && moved > 50, "\(kept) kept, \(moved) moved onto the sheet")
        // Ground beyond the fold's reach (X past the crease's): its one real preimage lies 1,750
        // px left of the scan, across the other crease (x = −880): no answer.
        let beyond = GroundPoint(x: FoldingCubic.ground(FoldingCubic.creaseX, 0).x + 1_500, y: g950.y)
        let none = try fitted.groundToPixels([beyond], folds: fitted.foldOver(.plane))[0]
        #expect(none == .folded || none == .none, "\(none)")
    }

    @Test func aFitThatFoldsNowhereInTheImageIsUntouched() throws {
        // The same GCPs over a scan 800 px wide: the crease (880) is beyond it.
        #expect(try Self.fit(width: 800).foldOver(.image) == nil)
        // Transforms that cannot fold have none, even over the wide scan.
        #expect(try Self.fit(kind: .polynomial1).foldOver(.plane) == nil)
        #expect(try Self.fit(kind: .helmert).foldOver(.plane) == nil)
    }
}
