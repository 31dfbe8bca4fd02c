import Foundation
import TegulaScan

/// Resamples output pixels that each cover many scan pixels as the pyramid makes them, in one
/// step: a pyramid tile `k` zooms above the max zoom is the premultiplied mean of `n` × `n`
/// (n = 2^k) max-zoom pixels, each the kernel's sample of the scan at its centre. Per source axis
/// that is a filter of n kernel copies spread over the pixel's footprint (its extent `a` source
/// pixels, from the transform's Jacobian); for n > 4 the copies merge into a box of width `a`
/// convolved with the bilinear tent, integrated exactly over each window cell. The window is a
/// box-reduced copy of the scan (factor F ≤ a/4), so a pixel costs about (a/F + 3)² taps
/// whatever the zoom, where warping all n² samples would cost n² bilinear taps. Away from the
/// scan's edges the weights come from a table of 64 positions per cell, made once per 32-px cell.
///
/// Coverage is the pyramid's own (``PyramidCoverage``, the caller's alpha for each pixel): it is
/// the alpha over an opaque scan and scales the taps' mean alpha over another; colour is the
/// alpha-weighted mean over the taps in the scan.
struct ReductionKernel {
    let resampling: Resampling
    let sourceWidth: Int
    let sourceHeight: Int
    /// True when every pixel of the scan is opaque (no alpha band, no nodata): the windows then
    /// hold α = 255 everywhere and a tap is one multiply–add instead of weighting by α.
    let opaque: Bool
    /// Tap tables by footprint, shared by the cells of one block (see ``Tables``).
    let tables: Tables
    /// Samples per axis up to which the n kernel copies are summed one by one.
    static let discreteSamples = 4

    /// Fill `out` (RGBA8 straight alpha, `stride` pixels per row) for pixels `columns` × `rows`
    /// of `grid`; `extents` the footprint in source pixels (x, y) of the pixels of each row (the
    /// scale changes along a column where a tile spans many degrees of latitude), `samples`
    /// n; `coverage` (same layout as `out`, one byte a pixel) the pixels' alpha by the pyramid's
    /// coverage rule (``PyramidCoverage``).
    func run(
        grid: MappingGrid, window: SourceWindow, extents: [(x: Double, y: Double)], samples n: Int,
        coverage: UnsafePointer<UInt8>,
        out: UnsafeMutablePointer<UInt8>, columns: Range<Int>, rows: Range<Int>, stride: Int
    ) {
        let w = columns.count, c0 = columns.lowerBound
        let sxRow = UnsafeMutablePointer<Double>.allocate(capacity: grid.width)
        let syRow = UnsafeMutablePointer<Double>.allocate(capacity: grid.width)
        func axes(_ e: (x: Double, y: Double)) -> (Axis, Axis) {
            (
                Axis(
                    extent: e.x, samples: n, resampling: resampling, limit: Double(sourceWidth),
                    origin: Double(window.originX), scale: window.scaleX, size: window.width),
                Axis(
                    extent: e.y, samples: n, resampling: resampling, limit: Double(sourceHeight),
                    origin: Double(window.originY), scale: window.scaleY, size: window.height)
            )
        }
        // Tap weights along each axis: the footprint plus the kernel's reach, in window cells.
        let widest = axes((extents.map(\.x).max() ?? 1, extents.map(\.y).max() ?? 1))
        let capacity = widest.0.capacity + widest.1.capacity
        let wd = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
        let wf = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
        defer { sxRow.deallocate(); syRow.deallocate(); wd.deallocate(); wf.deallocate() }
        var (ax, ay) = axes(tables.quantized(extents[0]))
        var tx = tables.table(ax), ty = tables.table(ay)
        let ww = window.width, px = window.pixels
        for j in rows {
            // The row's footprint on the tables' 1 % steps: a pixel's weights depend only on its
            // row's footprint, not on which tile or cell asked, and a step's tables are made once
            // per block (at z4/z5 the footprint changes by > 1 % within a cell along Mercator's
            // latitude, and rebuilding per row and cell cost 4 % of a cold pass).
            let e = tables.quantized(extents[min(j - rows.lowerBound, extents.count - 1)])
            if e.x != ax.extent || e.y != ay.extent {
                (ax, ay) = axes(e)
                tx = tables.table(ax); ty = tables.table(ay)
            }
            grid.row(j, sx: sxRow, sy: syRow, columns: columns)
            let rowOut = out + (j - rows.lowerBound) * stride * 4
            let rowCov = coverage + (j - rows.lowerBound) * stride
            for i in 0..<w {
                let o = rowOut + i * 4
                let x = sxRow[c0 + i], y = syRow[c0 + i]
                let alpha = rowCov[i]
                guard x.isFinite, y.isFinite, alpha > 0 else { o[0] = 0; o[1] = 0; o[2] = 0; o[3] = 0; continue }
                let hx = ax.weights(at: x, table: tx, scratch: wd, into: wf)
                let hy = ay.weights(at: y, table: ty, scratch: wd + widest.0.capacity, into: wf + widest.0.capacity)
                guard hx.count > 0, hy.count > 0 else { o[0] = 0; o[1] = 0; o[2] = 0; o[3] = 0; continue }
                // Σ w·α·(r, g, b) and Σ w·α in one vector; Σ w is the product of the axes' sums.
                // Opaque: Σ w·(r, g, b) and Σ w·255, the same means with α = 255 factored out.
                var acc = SIMD4<Float>.zero
                for v in 0..<hy.count {
                    let wv = hy.weights[v]
                    if wv == 0 { continue }
                    let row = UnsafeRawPointer(px + ((hy.first + v) * ww + hx.first) * 4)
                    var racc = SIMD4<Float>.zero
                    if opaque {
                        // Four partial sums: one sum's chain of dependent adds (4 cycles each)
                        // would bound the loop, not the loads.
                        var r1 = SIMD4<Float>.zero, r2 = SIMD4<Float>.zero, r3 = SIMD4<Float>.zero
                        var u = 0
                        @inline(__always) func tap(_ u: Int) -> SIMD4<Float> {
                            hx.weights[u] * SIMD4<Float>(row.loadUnaligned(fromByteOffset: u * 4, as: SIMD4<UInt8>.self))
                        }
                        while u + 4 <= hx.count {
                            racc += tap(u); r1 += tap(u + 1); r2 += tap(u + 2); r3 += tap(u + 3)
                            u += 4
                        }
                        while u < hx.count { racc += tap(u); u += 1 }
                        racc += (r1 + r2) + r3
                    } else {
                        for u in 0..<hx.count {
                            var f = SIMD4<Float>(row.loadUnaligned(fromByteOffset: u * 4, as: SIMD4<UInt8>.self))
                            let a = f[3] * hx.weights[u]
                            f[3] = 1
                            racc += a * f
                        }
                    }
                    acc += wv * racc
                }
                let sw = hx.sum * hy.sum, sa = acc[3]
                guard sw > 0, sa > 0 else { o[0] = 0; o[1] = 0; o[2] = 0; o[3] = 0; continue }
                @inline(__always) func byte(_ v: Float) -> UInt8 { v <= 0 ? 0 : v >= 255 ? 255 : UInt8(v + 0.5) }
                let colour = opaque ? sa / 255 : sa
                o[0] = byte(acc[0] / colour); o[1] = byte(acc[1] / colour); o[2] = byte(acc[2] / colour)
                o[3] = opaque ? alpha : byte(sa / sw * Float(alpha) / 255)
            }
        }
    }

    /// Tap tables made once per footprint step and window scale, for the cells of one block
    /// (one thread: a block is warped by one worker).
    final class Tables {
        /// Footprints are rounded to steps of 1 % (a factor 1.01^k).
        static let step = 1.01
        private var made: [Key: Axis.Table] = [:]
        struct Key: Hashable { let extent: Double; let samples: Int; let scale: Double }
        init() {}

        /// `e` on the steps.
        func quantized(_ e: (x: Double, y: Double)) -> (x: Double, y: Double) {
            func q(_ v: Double) -> Double { pow(Self.step, (log(v) / log(Self.step)).rounded()) }
            return (q(e.x), q(e.y))
        }

        /// The axis's table, made on first use.
        func table(_ axis: Axis) -> Axis.Table {
            let key = Key(extent: axis.extent, samples: axis.samples, scale: axis.scale)
            if let t = made[key] { return t }
            let t = axis.table()
            made[key] = t
            return t
        }
    }

    /// The filter along one source axis, for output pixels of footprint `extent` source pixels.
    struct Axis {
        let extent: Double
        let samples: Int
        let resampling: Resampling
        /// The scan's size along the axis, in source pixels.
        let limit: Double
        /// The window: first source pixel, source pixels per cell, cells.
        let origin: Double
        let scale: Double
        let size: Int
        /// How far from a pixel's centre its taps reach, in source pixels.
        let reach: Double
        /// The max-zoom kernel's widening along the axis: its source pixels per max-zoom pixel,
        /// at least 1 (the pyramid widens its kernel by the shrink as the warp stage does).
        let widening: Double
        /// Most cells a pixel's taps span, plus room.
        let capacity: Int
        /// Positions within a cell that ``table()`` tabulates (a position is off by at most
        /// 1/128 of a cell: a quarter source pixel in pixels 64 source pixels wide).
        static let phases = 64

        init(extent: Double, samples: Int, resampling: Resampling, limit: Double, origin: Double, scale: Double, size: Int) {
            self.extent = extent
            self.samples = samples
            self.resampling = resampling
            self.limit = limit
            self.origin = origin
            self.scale = scale
            self.size = size
            widening = max(1, extent / Double(max(1, samples)))
            reach = extent / 2 + (samples <= ReductionKernel.discreteSamples ? resampling.radius : 1) * widening
            capacity = Int(2 * reach / scale) + 4
        }

        /// Weights by position within a cell: row p (of ``phases``) holds the weights of cells
        /// `offset ..< offset + taps` from the pixel's cell, for a pixel centred in that phase,
        /// away from the scan's edges.
        final class Table {
            let offset: Int
            let taps: Int
            /// ``phases`` rows of `taps` weights, and each row's sum.
            let weights: UnsafeMutablePointer<Float>
            let sums: UnsafeMutablePointer<Float>
            /// Each row's non-zero span within its `taps` (the rows share one span of cells, and
            /// a row's own is up to a tap shorter at each end: a quarter of z7's taps).
            let starts: UnsafeMutablePointer<Int>
            let counts: UnsafeMutablePointer<Int>
            init(offset: Int, taps: Int) {
                self.offset = offset
                self.taps = taps
                weights = .allocate(capacity: max(1, Axis.phases * taps))
                weights.initialize(repeating: 0, count: max(1, Axis.phases * taps))
                sums = .allocate(capacity: Axis.phases)
                sums.initialize(repeating: 0, count: Axis.phases)
                starts = .allocate(capacity: Axis.phases)
                starts.initialize(repeating: 0, count: Axis.phases)
                counts = .allocate(capacity: Axis.phases)
                counts.initialize(repeating: taps, count: Axis.phases)
            }
            deinit { weights.deallocate(); sums.deallocate(); starts.deallocate(); counts.deallocate() }
        }

        /// The filter tabulated for pixels whose taps are all inside the scan and the window.
        func table() -> Table {
            let far = Axis(extent: extent, samples: samples, resampling: resampling, limit: .infinity, origin: 0, scale: scale, size: Int.max / 4)
            let base = 1 << 20, p = Self.phases
            let w = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
            defer { w.deallocate() }
            var rows: [(first: Int, weights: [Double])] = []
            for k in 0..<p {
                let s = (Double(base) + (Double(k) + 0.5) / Double(p)) * scale
                let h = far.exact(at: s, into: w)
                rows.append((h.first - base, Array(UnsafeBufferPointer(start: w, count: h.count))))
            }
            let offset = rows.map(\.first).min() ?? 0
            let taps = (rows.map { $0.first + $0.weights.count }.max() ?? 0) - offset
            let table = Table(offset: offset, taps: taps)
            for (k, r) in rows.enumerated() {
                for (m, v) in r.weights.enumerated() { table.weights[k * taps + r.first - offset + m] = Float(v) }
                table.sums[k] = Float(r.weights.reduce(0, +))
                // Zero weights add nothing: a row sums only its own span.
                let row = UnsafeBufferPointer(start: table.weights + k * taps, count: taps)
                if let lo = row.firstIndex(where: { $0 != 0 }), let hi = row.lastIndex(where: { $0 != 0 }) {
                    table.starts[k] = lo
                    table.counts[k] = hi - lo + 1
                }
            }
            return table
        }

        /// Weights of window cells `first ..< first + count` for a pixel centred at source
        /// coordinate `s` (from `table` away from the edges, else computed into `scratch`), their
        /// sum, and the share of the pixel's samples (or footprint) inside the scan.
        @inline(__always)
        func weights(at s: Double, table: Table, scratch: UnsafeMutablePointer<Double>, into w: UnsafeMutablePointer<Float>)
            -> (first: Int, count: Int, weights: UnsafePointer<Float>, sum: Float, coverage: Float)
        {
            let t = (s - origin) / scale
            let cell = t.rounded(.down)
            let first = Int(cell) + table.offset
            if s - reach >= 0, s + reach < limit, first >= 0, first + table.taps <= size {
                let k = min(Self.phases - 1, Int((t - cell) * Double(Self.phases)))
                let start = table.starts[k]
                return (first + start, table.counts[k], UnsafePointer(table.weights + k * table.taps + start), table.sums[k], 1)
            }
            let h = exact(at: s, into: scratch)
            var sum: Float = 0
            for c in 0..<h.count { w[c] = Float(scratch[c]); sum += w[c] }
            return (h.first, h.count, UnsafePointer(w), sum, Float(h.coverage))
        }

        /// Weights of window cells `first ..< first + count` for a pixel centred at source
        /// coordinate `s`, and the share of its samples (or footprint) inside the scan.
        func exact(at s: Double, into w: UnsafeMutablePointer<Double>) -> (first: Int, count: Int, coverage: Double) {
            let n = samples
            if n <= ReductionKernel.discreteSamples {
                // The n sample positions, those inside the scan only (the pyramid draws a
                // max-zoom pixel when its centre maps into the scan).
                let step = extent / Double(n)
                var lo = Double.infinity, hi = -Double.infinity, inside = 0
                for m in 0..<n {
                    let p = s + (Double(m) + 0.5 - Double(n) / 2) * step
                    if p >= 0 && p < limit { inside += 1; lo = min(lo, p); hi = max(hi, p) }
                }
                guard inside > 0 else { return (0, 0, 0) }
                let r = resampling.radius * widening
                let first = max(0, Int(((lo - r - origin) / scale).rounded(.down)))
                let last = min(size - 1, Int(((hi + r - origin) / scale).rounded(.down)))
                guard first <= last, last - first < capacity else { return (0, 0, 0) }
                // A cell's weight: the kernel copies summed at each source pixel centre it holds
                // (at its centre alone when the window's cells are not whole pixels).
                let f = Int(scale), whole = Double(f) == scale
                for c in first...last {
                    var sum = 0.0
                    let c0 = origin + Double(c) * scale
                    for k in 0..<(whole ? f : 1) {
                        let centre = whole ? c0 + Double(k) + 0.5 : c0 + scale / 2
                        for m in 0..<n {
                            let p = s + (Double(m) + 0.5 - Double(n) / 2) * step
                            guard p >= 0 && p < limit else { continue }
                            // Average weighs by the part of the pixel its footprint (`step`) covers.
                            sum +=
                                resampling == .average
                                ? Resampling.areaWeight(offset: centre - p, footprint: step)
                                : resampling.weight((centre - p) / widening)
                        }
                    }
                    w[c - first] = whole ? sum : sum * scale
                }
                return (first, last - first + 1, Double(inside) / Double(n))
            }
            // The footprint [s − a/2, s + a/2] clipped to the scan, convolved with the tent
            // widened as the max zoom's kernel is.
            let l = max(0, s - extent / 2), r = min(limit, s + extent / 2), k = widening
            guard l < r else { return (0, 0, 0) }
            let first = max(0, Int(((l - k - origin) / scale).rounded(.down)))
            let last = min(size - 1, Int(((r + k - origin) / scale).rounded(.down)))
            guard first <= last, last - first < capacity else { return (0, 0, 0) }
            for c in first...last {
                let a = origin + Double(c) * scale, b = a + scale
                w[c - first] = (Self.u((b - l) / k) - Self.u((a - l) / k)) - (Self.u((b - r) / k) - Self.u((a - r) / k))
            }
            return (first, last - first + 1, (r - l) / extent)
        }

        /// The second antiderivative of the unit tent (radius 1): ∫∫ tent, 0 below −1, t above 1.
        @inline(__always)
        static func u(_ t: Double) -> Double {
            if t <= -1 { return 0 }
            if t <= 0 { let v = t + 1; return v * v * v / 6 }
            if t <= 1 { let v = 1 - t; return t + v * v * v / 6 }
            return t
        }
    }
}
