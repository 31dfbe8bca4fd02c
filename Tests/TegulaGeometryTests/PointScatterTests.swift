import Foundation
import TegulaGeometry
import Testing

/// A point scatter's axes against points made with known axes: the corners of a rectangle of
/// half-sides a and b, turned by θ and moved, scatter 4a² along the turned x and 4b² across it.
struct PointScatterTests {
    static func rectangle(a: Double, b: Double, turn: Double, at c: (Double, Double)) -> (x: [Double], y: [Double]) {
        let corners = [(a, b), (-a, b), (-a, -b), (a, -b)]
        let x = corners.map { c.0 + $0.0 * cos(turn) - $0.1 * sin(turn) }
        let y = corners.map { c.1 + $0.0 * sin(turn) + $0.1 * cos(turn) }
        return (x, y)
    }

    @Test(arguments: [0.0, 0.4, -1.2, 1.5])
    func theAxesOfATurnedRectanglesCornersAreItsSidesAndItsTurn(turn: Double) {
        let p = Self.rectangle(a: 3, b: 1, turn: turn, at: (100, -20))
        let s = PointScatter(x: p.x, y: p.y)
        #expect(abs(s.meanX - 100) < 1e-12 && abs(s.meanY + 20) < 1e-12)
        #expect(abs(s.axes.major - 36) < 1e-9 && abs(s.axes.minor - 4) < 1e-9)
        #expect(abs(s.majorAngle - turn) < 1e-12)
        let along = s.alongMajor(x: p.x, y: p.y)
        #expect(zip(along, [3.0, -3, -3, 3]).allSatisfy { abs($0 - $1) < 1e-9 })
    }

    @Test func pointsOnALineHaveNoMinorAxis() {
        let s = PointScatter(x: [0, 1, 2, 5], y: [1, 3, 5, 11])
        #expect(s.axes.minor < 1e-12)
        #expect(abs(s.majorAngle - atan(2)) < 1e-12)
    }
}
