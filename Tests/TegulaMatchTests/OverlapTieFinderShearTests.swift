import Foundation
import TegulaGeometry
import TegulaTestSupport
import Testing

@testable import TegulaMatch

/// ``OverlapTieFinder`` from a prediction sheared across the overlap, as two sheets' fits on GCPs
/// 4 px off put it (on the 64-sheet bench series such fits shear a sheet's pixels by up to 16 %
/// across a 24-px strip, which the ties along the strip cannot fix).
struct OverlapTieFinderShearTests {
    /// Two sheets of a made series at zoom 6 (cells of 128 px, the bench's), over the bench's
    /// r5c7 and r6c7 (`--origin` at that cell's corner: land and sea east of the Adriatic), whose
    /// found ties lay 1.8–1.9 px off across their overlap; the prediction is the truth with the
    /// error of those sheets' fits (numpy's least-squares affines through their GCPs: Jacobian
    /// off by 5.0 %, −15.9 %, −3.0 %, −2.2 %, a shear across the strip) and moved (2, 1) px.
    /// Every tie is checked against `truth.json`: the worst 0.19 px off; with the prediction's
    /// own Jacobian across the strip (``Drift/conformal(_:)`` off) 0.51 px.
    @Test func tiesAlongAStripFromAPredictionShearedAcrossItLieWithinAThirdOfAPixelOfTheTruth() throws {
        let folder = try TemporaryFolder.make("tie-shear").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try MadeSeries.make(in: folder, cols: 1, rows: 2, cell: 128, gcpError: 0, maxZoom: 6, extra: ["--origin=21.8628,39.9266"])
        let a = try SheetLocatorTests.Sheet(folder, "r1c1"), b = try SheetLocatorTests.Sheet(folder, "r2c1")
        let predicted = OverlapTieFinder.gridPoints(a.mask).map { p in
            let t = a.truth(p, on: b)
            let (x, y) = (p.x - 86, p.y - 150)
            return (a: p, b: PixelPoint(x: t.x + 0.050 * x - 0.159 * y + 2, y: t.y - 0.030 * x - 0.022 * y + 1))
        }
        let verdict = try OverlapTieFinder.ties(a: a.reader, maskA: a.mask, b: b.reader, maskB: b.mask, predicted: predicted)
        let found = try #require(SheetLocatorTests.worst(verdict, a, b), "\(String(describing: verdict))")
        print(String(format: "sheared prediction: %d ties, the worst %.2f px from the truth", found.ties, found.worst))
        #expect(found.ties >= 3 && found.worst <= 0.3, "\(found.ties) ties, the worst \(found.worst) px from the truth")
    }
}
