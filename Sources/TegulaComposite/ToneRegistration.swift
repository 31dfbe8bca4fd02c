extension ToneMatch {
    /// How far one sheet's view of an overlap lies from the other's, in samples of the overlap's
    /// window: the whole-sample shift of sheet `b`'s pixels against sheet `a`'s at which their
    /// levels (red + green + blue, where both are opaque) correlate best, found by climbing from
    /// no shift to the best of the eight neighbouring shifts while the correlation grows, at most
    /// ``maximumShift`` samples each way.
    ///
    /// Two sheets fitted a few pixels apart (GCPs a few pixels off, a sheet placed by ties that
    /// missed) show different ground in the same window: along a coastline one sees more land
    /// than the other, and their spreads and means differ by that, not by their tones. Compared
    /// at the shift that lines their content up, they show the same ground again.
    struct Registration {
        /// Each sample's level (red + green + blue), or −1 where the sheet is not opaque.
        let a: [Int32]
        let b: [Int32]
        let width: Int
        let height: Int

        init(_ pa: UnsafePointer<UInt8>, _ pb: UnsafePointer<UInt8>, width: Int, height: Int) {
            func levels(_ p: UnsafePointer<UInt8>) -> [Int32] {
                (0..<(width * height)).map { i in
                    let q = p + i * 4
                    return q[3] == 255 ? Int32(q[0]) + Int32(q[1]) + Int32(q[2]) : -1
                }
            }
            (a, b, self.width, self.height) = (levels(pa), levels(pb), width, height)
        }

        /// The shift (dx, dy): sample (x, y) of `a` is compared with (x + dx, y + dy) of `b`; no
        /// shift unless it raises the correlation by at least ``minimumShiftGain`` and halves
        /// what it lacks of 1 (a correlation of 0.9 to 0.95 or more).
        func bestShift() -> (dx: Int, dy: Int) {
            let unshifted = correlation(dx: 0, dy: 0)
            let (at, best) = climb(from: unshifted)
            return best >= unshifted + minimumShiftGain && 1 - best <= (1 - unshifted) / 2 ? at : (0, 0)
        }

        /// The shift the climb from no shift ends at, and its correlation.
        func climb(from unshifted: Double) -> (at: (dx: Int, dy: Int), correlation: Double) {
            var at = (dx: 0, dy: 0), best = unshifted
            while true {
                var next = at, nextBest = best
                for dy in -1...1 {
                    for dx in -1...1 where dx != 0 || dy != 0 {
                        let s = (dx: at.dx + dx, dy: at.dy + dy)
                        guard abs(s.dx) <= maximumShift, abs(s.dy) <= maximumShift else { continue }
                        let r = correlation(dx: s.dx, dy: s.dy)
                        if r > nextBest + shiftGain { (next, nextBest) = (s, r) }
                    }
                }
                guard next != at else { return (at, best) }
                (at, best) = (next, nextBest)
            }
        }

        /// The correlation of the two sheets' levels at a shift, over the samples opaque in both
        /// (−∞ when fewer than ``minimumPixels`` or either is flat).
        func correlation(dx: Int, dy: Int) -> Double {
            var n = 0, sa = 0, sb = 0, qa = 0, qb = 0, ab = 0
            for y in max(0, -dy)..<min(height, height - dy) {
                for x in max(0, -dx)..<min(width, width - dx) {
                    let u = Int(a[y * width + x]), v = Int(b[(y + dy) * width + x + dx])
                    guard u >= 0, v >= 0 else { continue }
                    n += 1; sa += u; sb += v; qa += u * u; qb += v * v; ab += u * v
                }
            }
            guard n >= minimumPixels else { return -.infinity }
            let m = Double(n), va = Double(qa) - Double(sa) * Double(sa) / m, vb = Double(qb) - Double(sb) * Double(sb) / m
            guard va > 0, vb > 0 else { return -.infinity }
            return (Double(ab) - Double(sa) * Double(sb) / m) / (va * vb).squareRoot()
        }
    }
}
