import CKernels
import Foundation
import TegulaTestSupport
import Testing

/// The separable kernels' warp row (`separable_row.h`) gives the bytes of the header's formula,
/// written out again here pixel by pixel, both eight pixels at a time (AVX2, where the machine has
/// it) and one at a time: every kernel, at scales from the unwidened one to 2.7 window pixels,
/// with translucent and transparent taps, masked pixels, positions on pixel centres and edges
/// (where the sums round exactly on a half), rows of every length the four-pixel batches leave a
/// tail of (up to 19), and a decimated window away from the scan's origin.
struct SeparableRowTests {
    /// The kernels and the scales each is run at (average: footprints, not widened to one).
    static let kernels: [(kernel: tegula_kernel, scales: [Double])] = [
        (TEGULA_KERNEL_BILINEAR, [1, 1.25, 1.5, 1.9, 2.7]), (TEGULA_KERNEL_CUBIC, [1, 1.5, 2.7]),
        (TEGULA_KERNEL_LANCZOS, [1, 1.9]), (TEGULA_KERNEL_AVERAGE, [0.6, 1, 1.5, 3]),
    ]

    /// A window `w` × `h` of the scan from (ox, oy), each window pixel `scale` scan pixels.
    struct Window {
        let pixels: [UInt8]
        let w: Int, h: Int, ox: Int, oy: Int, scale: Double
    }

    @Test func theSeparableRowGivesTheFormulasBytesEightPixelsAtATimeAndOneAtATime() {
        var g = SeededRandom(seed: 44)
        let windows = [Self.window(w: 53, h: 41, ox: 0, oy: 0, scale: 1, &g), Self.window(w: 29, h: 23, ox: 17, oy: 9, scale: 2, &g)]
        var rows = 0, pixels = 0
        for win in windows {
            let sourceW = win.ox + Int(Double(win.w) * win.scale) + 3, sourceH = win.oy + Int(Double(win.h) * win.scale) + 3
            for (kernel, scales) in Self.kernels {
                for sx in scales {
                    for sy in [1, sx] {
                        for n in 1...19 {
                            let span = Self.span(n: n, window: win, &g, onCentres: n % 3 == 0)
                            let mask: [UInt8]? = n % 4 == 0 ? (0..<n).map { _ in g.next() % 5 == 0 ? 0 : 1 } : nil
                            let want = (0..<n).flatMap { i in
                                Self.formula(win, span, i, mask, kernel, sx, sy, sourceW: sourceW, sourceH: sourceH)
                            }
                            for scalar in [false, true] {
                                let got = Self.row(win, span, mask, kernel, sx, sy, sourceW: sourceW, sourceH: sourceH, scalar: scalar)
                                #expect(
                                    got == want,
                                    "kernel \(kernel.rawValue), scales \(sx) × \(sy), row of \(n), \(scalar ? "one" : "eight") at a time: first pixel off \(Self.firstDifference(got, want) ?? -1); \(g.replay)"
                                )
                            }
                            rows += 1
                            pixels += n
                        }
                    }
                }
            }
        }
        #expect(rows == 2 * 2 * 19 * Self.kernels.reduce(0) { $0 + $1.scales.count })
        #expect(pixels > 1000)
    }

    /// Random RGBA with every 7th pixel translucent and every 11th transparent.
    static func window(w: Int, h: Int, ox: Int, oy: Int, scale: Double, _ g: inout SeededRandom) -> Window {
        var p = (0..<(w * h * 4)).map { _ in UInt8(truncatingIfNeeded: g.next()) }
        for i in 0..<(w * h) { p[i * 4 + 3] = i % 11 == 0 ? 0 : i % 7 == 0 ? 120 : 255 }
        return Window(pixels: p, w: w, h: h, ox: ox, oy: oy, scale: scale)
    }

    /// A span of `n` pixels over the window (reaching past its edges now and then); with
    /// `onCentres`, starting on a window pixel's centre and stepping half a pixel, so that taps
    /// lie exactly on the kernel's edges and sums round on exact halves.
    static func span(n: Int, window win: Window, _ g: inout SeededRandom, onCentres: Bool) -> tegula_span {
        func unit() -> Double { Double(g.next() % 1_000_000) / 1_000_000 }
        let spanW = Double(win.w) * win.scale, spanH = Double(win.h) * win.scale
        if onCentres {
            let x = Double(win.ox) + (Double(g.next() % UInt64(win.w / 2)) + 0.5) * win.scale
            let y = Double(win.oy) + (Double(g.next() % UInt64(win.h)) + 0.5) * win.scale
            return tegula_span(start: 0, end: n, x: x, y: y, dx: 0.5 * win.scale, dy: 0)
        }
        return tegula_span(
            start: 0, end: n, x: Double(win.ox) - 2 + unit() * (spanW + 4), y: Double(win.oy) - 2 + unit() * (spanH + 4),
            dx: (unit() - 0.3) * 3, dy: (unit() - 0.5) * 1.5)
    }

    /// The C row, eight at a time where AVX2 runs or (`scalar`) one at a time.
    static func row(
        _ win: Window, _ span: tegula_span, _ mask: [UInt8]?, _ kernel: tegula_kernel, _ sx: Double, _ sy: Double,
        sourceW: Int, sourceH: Int, scalar: Bool
    ) -> [UInt8] {
        let n = span.end
        var out = [UInt8](repeating: 7, count: n * 4)
        var s = span
        let call = scalar ? tegula_separable_spans_scalar : tegula_separable_spans
        win.pixels.withUnsafeBufferPointer { p in
            if let mask {
                call(p.baseAddress, win.w, win.h, win.ox, win.oy, win.scale, win.scale, sourceW, sourceH, &s, 1, 0, n, mask, &out, kernel, sx, sy)
            } else {
                call(p.baseAddress, win.w, win.h, win.ox, win.oy, win.scale, win.scale, sourceW, sourceH, &s, 1, 0, n, nil, &out, kernel, sx, sy)
            }
        }
        return out
    }

    /// Pixel `i` of the span by the header's formula.
    static func formula(
        _ win: Window, _ span: tegula_span, _ i: Int, _ mask: [UInt8]?, _ kernel: tegula_kernel, _ sx: Double, _ sy: Double,
        sourceW: Int, sourceH: Int
    ) -> [UInt8] {
        let t = Double(i - span.start)
        let x = span.x + span.dx * t, y = span.y + span.dy * t
        guard x >= 0, y >= 0, x < Double(sourceW), y < Double(sourceH), mask.map({ $0[i] != 0 }) ?? true else { return [0, 0, 0, 0] }
        let u = (x - Double(win.ox)) / win.scale - 0.5, v = (y - Double(win.oy)) / win.scale - 0.5
        let rx = reach(kernel, sx), ry = reach(kernel, sy)
        let x0 = max(0, Int((u - rx).rounded(.up))), x1 = min(win.w - 1, Int((u + rx).rounded(.down)))
        let y0 = max(0, Int((v - ry).rounded(.up))), y1 = min(win.h - 1, Int((v + ry).rounded(.down)))
        var sw = 0.0, sa = 0.0, sr = 0.0, sg = 0.0, sb = 0.0
        if x0 <= x1 && y0 <= y1 {
            for py in y0...y1 {
                for px in x0...x1 {
                    let wt = weight(kernel, Double(px) - u, sx) * weight(kernel, Double(py) - v, sy)
                    if wt == 0 { continue }
                    let p = (py * win.w + px) * 4
                    let a = Double(win.pixels[p + 3]) * wt
                    sw += wt
                    sa += a
                    sr += a * Double(win.pixels[p])
                    sg += a * Double(win.pixels[p + 1])
                    sb += a * Double(win.pixels[p + 2])
                }
            }
        }
        guard sw != 0, sa > 0 else { return [0, 0, 0, 0] }
        func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded(.toNearestOrAwayFromZero)))) }
        return [byte(sr / sa), byte(sg / sa), byte(sb / sa), byte(sa / sw)]
    }

    /// The header's reach: the radius (1, 2, 3) times the scale, or half the footprint and half a pixel.
    static func reach(_ kernel: tegula_kernel, _ s: Double) -> Double {
        switch kernel {
        case TEGULA_KERNEL_CUBIC: return 2 * s
        case TEGULA_KERNEL_LANCZOS: return 3 * s
        case TEGULA_KERNEL_AVERAGE: return s / 2 + 0.5
        default: return s
        }
    }

    /// The header's weights.
    static func weight(_ kernel: tegula_kernel, _ d: Double, _ s: Double) -> Double {
        if kernel == TEGULA_KERNEL_AVERAGE {
            let h = s / 2
            let hi = d + 0.5 < h ? d + 0.5 : h, lo = d - 0.5 >= -h ? d - 0.5 : -h
            return hi - lo >= 0 ? hi - lo : 0
        }
        let x = abs(d / s)
        switch kernel {
        case TEGULA_KERNEL_CUBIC:
            if x < 1 { return (1.5 * x - 2.5) * x * x + 1 }
            return x < 2 ? ((-0.5 * x + 2.5) * x - 4) * x + 2 : 0
        case TEGULA_KERNEL_LANCZOS:
            if x == 0 { return 1 }
            if x >= 3 { return 0 }
            let px = Double.pi * x
            return 3 * sin(px) * sin(px / 3) / (px * px)
        default:
            return x < 1 ? 1 - x : 0
        }
    }

    /// The first pixel whose bytes differ, nil when none does.
    static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int? {
        (0..<min(a.count, b.count)).first { a[$0] != b[$0] }.map { $0 / 4 }
    }
}
