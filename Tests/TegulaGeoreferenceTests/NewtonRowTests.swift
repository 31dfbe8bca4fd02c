import Foundation
import TegulaGeometry
import TegulaSupport
import Testing

@testable import TegulaGeoreference

/// A row of points inverted by continuing each Newton iteration from the last answer (as the
/// warp's mapping grid asks for its nodes) lands where the exact inverse does, in about two
/// evaluations of the transform a point.
struct NewtonRowTests {
    /// Rows of pixels `spacing` apart over the fixture scan, off the integer grid, and their
    /// ground points: the truth a row inversion must give back.
    static func rows(_ t: any PixelTransform, spacing: Double) -> [[(pixel: PixelPoint, ground: GroundPoint)]] {
        stride(from: 0.3, to: Double(GeoreferenceFixtures.height), by: 61).map { y in
            stride(from: 0.7, to: Double(GeoreferenceFixtures.width), by: spacing).map { x in
                let p = PixelPoint(x: x, y: y)
                return (p, t.forward(p))
            }
        }
    }

    @Test(arguments: [TransformKind.tps, .polynomial2, .polynomial3])
    func aRowContinuedFromEachAnswerLandsOnTheExactInverse(kind: TransformKind) throws {
        let g = try Georeferencer.fit(
            GeoreferenceFixtures.synthetic(16), imageWidth: GeoreferenceFixtures.width,
            imageHeight: GeoreferenceFixtures.height, options: FitOptions(transform: kind))
        var worst = WorstError()
        for row in Self.rows(g.transform, spacing: 16) {
            var start: NewtonStart?
            for (p, q) in row {
                let back = try #require(g.transform.inverse(q, continuing: &start))
                worst.add(hypot(back.x - p.x, back.y - p.y))
                #expect(start != nil)
            }
        }
        print("\(kind.rawValue): a row continued from each answer misses the pixels by \(worst.value) px at worst")
        #expect(worst.value <= 1e-9)
    }

    @Test func aContinuedTPSPointCostsAboutTwoEvaluations() throws {
        let g = try Georeferencer.fit(
            GeoreferenceFixtures.synthetic(16), imageWidth: GeoreferenceFixtures.width,
            imageHeight: GeoreferenceFixtures.height, options: FitOptions(transform: .tps))
        let tps = try #require(g.transform as? ThinPlateSplineTransform)
        var continued = 0, seeded = 0, points = 0
        var worst = WorstError()
        for row in Self.rows(tps, spacing: 16) {
            var start: NewtonStart?
            var seed: PixelPoint?
            for (p, q) in row {
                points += 1
                // As the warp inverted a row before: Newton from the last answer, evaluated there first.
                if let s = seed {
                    let back = try #require(
                        NewtonInverter.newton(
                            from: s, target: q,
                            evaluate: {
                                seeded += 1; return tps.valueAndJacobian($0)
                            }))
                    worst.add(hypot(back.x - p.x, back.y - p.y))
                    seed = back
                } else {
                    seed = tps.inverse(q)
                }
                // Now: continued from where the last point's iteration stopped.
                if let s = start {
                    let found = try #require(
                        NewtonInverter.newton(
                            from: s, target: q,
                            evaluate: {
                                continued += 1; return tps.valueAndJacobian($0)
                            }))
                    worst.add(hypot(found.point.x - p.x, found.point.y - p.y))
                    start = found.last
                } else {
                    start = tps.inverter.invert(q, evaluate: tps.valueAndJacobian)?.last
                }
            }
        }
        let rows = Self.rows(tps, spacing: 16).count
        let perSeeded = Double(seeded) / Double(points - rows), perContinued = Double(continued) / Double(points - rows)
        print(
            "tps row of nodes 16 px apart: \(perSeeded) evaluations a point seeded from the last answer, \(perContinued) continued; worst miss \(worst.value) px"
        )
        #expect(worst.value <= 1e-9)
        #expect(perContinued <= 2.5)
    }

    /// The Newton iteration's one-pass TPS evaluation (logarithms first, sums in SIMD pairs)
    /// gives the very bits of ``ThinPlateSplineTransform/forward(_:)`` and
    /// ``ThinPlateSplineTransform/jacobian(at:)``, which sum one GCP at a time: so the warp's
    /// grid nodes, and the tiles, are those the scalar loop gave. Checked over the fixture scan,
    /// off and on the GCPs themselves (where a kernel term is 0).
    @Test func theOnePassTPSEvaluationHasTheBitsOfForwardAndJacobian() throws {
        let set = GeoreferenceFixtures.synthetic(16)
        let g = try Georeferencer.fit(
            set, imageWidth: GeoreferenceFixtures.width,
            imageHeight: GeoreferenceFixtures.height, options: FitOptions(transform: .tps))
        let tps = try #require(g.transform as? ThinPlateSplineTransform)
        var points = set.gcps.map(\.pixel)
        for y in stride(from: -100.3, to: Double(GeoreferenceFixtures.height) + 100, by: 37) {
            for x in stride(from: -100.7, to: Double(GeoreferenceFixtures.width) + 100, by: 41) { points.append(PixelPoint(x: x, y: y)) }
        }
        var differ = 0
        for p in points {
            let (value, j) = tps.valueAndJacobian(p)
            let f = tps.forward(p), k = tps.jacobian(at: p)
            if value.x.bitPattern != f.x.bitPattern || value.y.bitPattern != f.y.bitPattern
                || [j.xx, j.xy, j.yx, j.yy].map(\.bitPattern) != [k.xx, k.xy, k.yx, k.yy].map(\.bitPattern)
            {
                differ += 1
            }
        }
        #expect(differ == 0, "\(differ) of \(points.count) points differ")
    }
}
