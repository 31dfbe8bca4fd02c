import TegulaGeometry
import Testing

/// The one even–odd rule: known points of a concave ring, and the scanline spans agree with the
/// point test at every pixel centre.
struct EvenOddRuleTests {
    /// A "U": a 10 × 10 square with the notch x 3…7, y 0…6 cut from its top (y down).
    static let u: [EvenOddRule.Vertex] = [(0, 0), (3, 0), (3, 6), (7, 6), (7, 0), (10, 0), (10, 10), (0, 10)]

    @Test func pointsOfAConcaveRing() {
        #expect(EvenOddRule.contains(Self.u, x: 1.5, y: 2))  // left arm
        #expect(EvenOddRule.contains(Self.u, x: 8.5, y: 2))  // right arm
        #expect(!EvenOddRule.contains(Self.u, x: 5, y: 2))  // in the notch
        #expect(EvenOddRule.contains(Self.u, x: 5, y: 8))  // the base
        #expect(!EvenOddRule.contains(Self.u, x: -1, y: 5))
        #expect(!EvenOddRule.contains(Self.u, x: 11, y: 5))
        #expect(!EvenOddRule.contains(Array(Self.u.prefix(2)), x: 1, y: 0))  // not a ring
        // The order of the vertices does not matter.
        let reversed = Array(Self.u.reversed())
        #expect(EvenOddRule.contains(reversed, x: 8.5, y: 2) && !EvenOddRule.contains(reversed, x: 5, y: 2))
    }

    @Test func crossingsAreSortedAndCountedOnceAtVertices() {
        #expect(EvenOddRule.crossings(Self.u, y: 2) == [0, 3, 7, 10])
        #expect(EvenOddRule.crossings(Self.u, y: 8) == [0, 10])
        // y = 6 passes through the notch's bottom corners: each vertex counts once.
        #expect(EvenOddRule.crossings(Self.u, y: 6).count % 2 == 0)
    }

    @Test func spansMatchThePointTestAtPixelCentres() {
        let ring: [EvenOddRule.Vertex] = [(1.2, 0.7), (13.9, 2.1), (6.4, 5.5), (12.8, 11.3), (0.3, 9.6)]
        for row in 0..<13 {
            let y = Double(row) + 0.5
            var fromSpans = Set<Int>()
            for s in EvenOddRule.spans(ring, y: y, width: 12) { fromSpans.formUnion(s) }
            let fromPoints = Set((0..<12).filter { EvenOddRule.contains(ring, x: Double($0) + 0.5, y: y) })
            #expect(fromSpans == fromPoints, "row \(row)")
        }
        #expect(EvenOddRule.spans(Self.u, y: 2.5, width: 10) == [0..<3, 7..<10])
        #expect(EvenOddRule.spans(Self.u, y: 2.5, width: 8) == [0..<3, 7..<8])  // clipped to the row
    }
}
