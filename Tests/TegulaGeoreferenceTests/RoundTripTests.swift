import Foundation
import TegulaGDAL
import TegulaGeoreference
import TegulaSupport
import Testing

/// One model, inverted exactly: forward then inverse returns the pixel within 1e-6 px over the
/// whole image and 25% beyond it, for every transform (issue item 3).
struct RoundTripTests {
    @Test(arguments: TransformKind.allCases)
    func inverseUndoesForward(kind: TransformKind) throws {
        let set = GeoreferenceFixtures.synthetic(16)
        let g = try Georeferencer.fit(
            set, imageWidth: GeoreferenceFixtures.width, imageHeight: GeoreferenceFixtures.height,
            options: FitOptions(transform: kind))
        var worst = WorstError()
        for p in GeoreferenceFixtures.widePixels() {
            let q = g.transform.forward(p)
            guard let back = g.transform.inverse(q) else { Issue.record("\(kind): no inverse at \(p)"); continue }
            worst.add(hypot(back.x - p.x, back.y - p.y))
        }
        print("\(kind.rawValue): worst round trip over the image + 25% margin \(worst.value) px; report says \(g.report.roundTripMaxPixels)")
        #expect(worst.value <= 1e-6)
        #expect(g.report.roundTripMaxPixels <= 1e-6)
        #expect(g.report.roundTripFailures == 0)
    }

    @Test func groundToPixelsAndBackThroughTheGCPCRS() throws {
        let set = GeoreferenceFixtures.synthetic(12)
        let g = try Georeferencer.fit(
            set, imageWidth: GeoreferenceFixtures.width, imageHeight: GeoreferenceFixtures.height,
            options: FitOptions(transform: .polynomial2))
        let pixels = GeoreferenceFixtures.widePixels()
        let lonlat = try g.pixelsToGround(pixels)
        let back = try g.groundToPixels(lonlat)
        for (p, b) in zip(pixels, back) {
            let b = try #require(b)
            #expect(hypot(b.x - p.x, b.y - p.y) <= 1e-6)
        }
    }
}
