import CKernels
import TegulaTestSupport
import Testing

/// The warp row's blend gives the same bytes in AVX2's lanes as in SSE2's (on a machine with
/// AVX2; elsewhere both runs take SSE2) and as the exact formula of `warp_row.h`, on rows of every
/// length up to 40 (the four-pixel loop's tail) with translucent taps among opaque ones.
struct WarpRowTests {
    /// Row `n` pixels long warped from `window` (`w` × `h` RGBA) along one span, with the blend
    /// in SSE2 alone or not.
    static func row(_ window: [UInt8], w: Int, h: Int, span: tegula_span, sse2Only: Bool) -> (pixels: [UInt8], rest: [Int32]) {
        let n = span.end
        var out = [UInt8](repeating: 0, count: n * 4)
        var rest = [Int32](repeating: -1, count: n), rx = [Double](repeating: 0, count: n), ry = [Double](repeating: 0, count: n)
        var s = span
        let left =
            sse2Only
            ? tegula_bilinear_spans_sse2(window, w, h, 0, 0, w, h, &s, 1, 0, n, nil, &out, &rest, &rx, &ry)
            : tegula_bilinear_spans(window, w, h, 0, 0, w, h, &s, 1, 0, n, nil, &out, &rest, &rx, &ry)
        return (out, Array(rest[0..<left]))
    }

    @Test func theAVX2BlendGivesTheSSE2BlendsBytesAndTheFormulas() {
        let w = 97, h = 61
        var g = SeededRandom(seed: 11)
        var window = (0..<(w * h * 4)).map { _ in UInt8(truncatingIfNeeded: g.next()) }
        for i in 0..<(w * h) { window[i * 4 + 3] = i % 23 == 0 ? 90 : 255 }
        var rows = 0
        for n in 1...40 {
            for k in 0..<6 {
                let span = tegula_span(
                    start: 0, end: n, x: 3.3 + Double(k) * 1.7, y: 2.9 + Double(k) * 6.1,
                    dx: 0.93 + Double(k) * 0.05, dy: 0.011 * Double(k - 3))
                let a = Self.row(window, w: w, h: h, span: span, sse2Only: false)
                let b = Self.row(window, w: w, h: h, span: span, sse2Only: true)
                #expect(a.pixels == b.pixels && a.rest == b.rest, "row of \(n), span \(k); \(g.replay)")
                // Every blended pixel against the formula, in integers.
                for i in 0..<n where !a.rest.contains(Int32(i)) {
                    let X = Self.fixed(span.x) + i * Self.fixed(span.dx), Y = Self.fixed(span.y) + i * Self.fixed(span.dy)
                    let u = X - 32768, v = Y - 32768
                    let fx = ((u & 0xFFFF) + 128) >> 8, fy = ((v & 0xFFFF) + 128) >> 8
                    let p = (v >> 16) * w + (u >> 16)
                    for c in 0..<4 {
                        let t0 = Int(window[p * 4 + c]), t1 = Int(window[(p + 1) * 4 + c])
                        let b0 = Int(window[(p + w) * 4 + c]), b1 = Int(window[(p + w + 1) * 4 + c])
                        let left = t0 * (256 - fy) + b0 * fy, right = t1 * (256 - fy) + b1 * fy
                        #expect(Int(a.pixels[i * 4 + c]) == (left * (256 - fx) + right * fx + 32768) >> 16, "row of \(n), span \(k), pixel \(i)")
                    }
                }
                rows += 1
            }
        }
        #expect(rows == 240)
    }

    /// A span's start or step in 16.16 fixed point, rounded once as the kernel rounds it (halves
    /// away from zero); a pixel's position is then start + i · step.
    static func fixed(_ v: Double) -> Int { Int((v * 65536).rounded()) }
}
