import Foundation
import Testing

@testable import TegulaGeoreference

/// Inputs that would make a fit run for hours are refused before the work starts (issue 16
/// item 2): a thin plate spline is a dense O(n³) solve.
struct ResourceCapTests {
    @Test func tpsRefusesMoreGCPsThanItsCapBeforeSolving() throws {
        let n = ThinPlateSplineTransform.maximumGCPs + 1
        let set = GeoreferenceFixtures.scattered(n)
        do {
            _ = try Georeferencer.fit(
                set, imageWidth: GeoreferenceFixtures.width, imageHeight: GeoreferenceFixtures.height,
                options: FitOptions(transform: .tps))
            Issue.record("fitted a tps through \(n) GCPs")
        } catch let e as GeoreferenceError {
            #expect(e.reason == .tooManyGCPs)
            #expect(
                e.description.hasPrefix("halton: ") && e.description.contains("\(n) enabled GCPs")
                    && e.description.contains("polynomial"), "\(e)")
            #expect(!e.description.contains("\n"))
        }
        // The choice rule never tries it past the cap; at the cap it may.
        #expect(!Georeferencer.allowed(n).contains(.tps))
        #expect(Georeferencer.allowed(n - 1).contains(.tps))
        #expect(
            Georeferencer.fitTransform(
                .tps, pixels: set.gcps.map(\.pixel), grounds: set.gcps.map(\.ground),
                domain: (0, 0, 1, 1)) == nil)
    }
}
