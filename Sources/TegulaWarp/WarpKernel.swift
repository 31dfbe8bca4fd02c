import CKernels
import Foundation
import TegulaScan

/// Resamples one output block from a source window, with premultiplied alpha in every filter:
/// colour = Σ w·α·c / Σ w·α, alpha = Σ w·α / Σ w over the taps inside the scan, so transparent
/// neighbours never darken an edge.
///
/// An output pixel is drawn when its centre maps inside the scan (0 ≤ sx < width,
/// 0 ≤ sy < height), as gdalwarp decides, and inside the mask when there is one.
struct WarpKernel {
    let resampling: Resampling
    let sourceWidth: Int
    let sourceHeight: Int

    /// Fill `out` (RGBA8, straight alpha) for the pixels `columns` × `rows` of the block described
    /// by `grid` (the whole block when nil); `out` and `mask` hold just that rectangle. A pixel's
    /// value does not depend on the rectangle asked for, so a tile cut from a block render equals
    /// the same tile rendered alone.
    /// `stride` is the pixels per row of `out` and `mask` (default: the rectangle's width);
    /// `kernelScale` replaces the grid's (the block centre's) source pixels per output pixel
    /// (its footprint, which average covers, and the other kernels' widening, at least 1).
    func run(
        grid: MappingGrid, window: SourceWindow, mask: UnsafePointer<UInt8>?,
        out: UnsafeMutablePointer<UInt8>, columns: Range<Int>? = nil, rows: Range<Int>? = nil,
        stride: Int? = nil, kernelScale: (x: Double, y: Double)? = nil
    ) {
        let columns = columns ?? 0..<grid.width, rows = rows ?? 0..<grid.height
        let w = columns.count, c0 = columns.lowerBound, stride = stride ?? w
        let ks = kernelScale ?? grid.footprint
        // Kernel scale in window pixels: widened by the warp's shrink, narrowed by decimation.
        let scaleX = max(1, ks.x / window.scaleX), scaleY = max(1, ks.y / window.scaleY)
        let fastBilinear = resampling == .bilinear && scaleX == 1 && scaleY == 1 && window.scaleX == 1 && window.scaleY == 1
        // The other kernels' rows in C too (`tegula_separable_spans`); average covers the
        // footprint in window pixels, not widened to one (GDAL's).
        let separable = fastBilinear ? nil : separableKernel
        let scales = resampling == .average ? (ks.x / window.scaleX, ks.y / window.scaleY) : (scaleX, scaleY)
        let scratch = RowScratch(grid: grid, rest: fastBilinear)
        // Per-pixel positions for nearest (the C rows step their own).
        let rowWidth = fastBilinear || separable != nil ? 0 : grid.width
        let sxRow = UnsafeMutablePointer<Double>.allocate(capacity: rowWidth)
        let syRow = UnsafeMutablePointer<Double>.allocate(capacity: rowWidth)
        defer { sxRow.deallocate(); syRow.deallocate() }
        let sx = sxRow + c0, sy = syRow + c0
        let srcW = Double(sourceWidth), srcH = Double(sourceHeight)
        for j in rows {
            let rowOut = out + (j - rows.lowerBound) * stride * 4
            let rowMask = mask.map { $0 + (j - rows.lowerBound) * stride }
            if fastBilinear {
                bilinearRow(window, grid, j, columns, rowMask, rowOut, scratch)
                continue
            }
            if let separable {
                let n = grid.spans(j, columns: columns, into: scratch.spans)
                tegula_separable_spans(
                    window.pixels, window.width, window.height, window.originX, window.originY, window.scaleX, window.scaleY,
                    sourceWidth, sourceHeight, scratch.spans, n, columns.lowerBound, columns.upperBound, rowMask, rowOut,
                    separable, scales.0, scales.1)
                continue
            }
            grid.row(j, sx: sxRow, sy: syRow, columns: columns)
            for i in 0..<w {
                let x = sx[i], y = sy[i]
                let o = rowOut + i * 4
                guard x >= 0, y >= 0, x < srcW, y < srcH, rowMask.map({ $0[i] != 0 }) ?? true else {
                    o[0] = 0; o[1] = 0; o[2] = 0; o[3] = 0
                    continue
                }
                nearest(window, (x - Double(window.originX)) / window.scaleX, (y - Double(window.originY)) / window.scaleY, o)
            }
        }
    }

    /// The C row's kernel for `resampling`, nil for nearest (whose row is here).
    private var separableKernel: tegula_kernel? {
        switch resampling {
        case .near: return nil
        case .bilinear: return TEGULA_KERNEL_BILINEAR
        case .cubic: return TEGULA_KERNEL_CUBIC
        case .lanczos: return TEGULA_KERNEL_LANCZOS
        case .average: return TEGULA_KERNEL_AVERAGE
        }
    }

    /// Bilinear at scale 1 for a whole row: the hot loop of every pyramid, in C
    /// (`tegula_bilinear_spans`), which steps positions along the grid's straight pieces in fixed
    /// point and blends interior pixels whose four taps are opaque; the few it leaves (beside
    /// transparency or the window's edge) go through the premultiplied path here.
    private func bilinearRow(
        _ win: SourceWindow, _ grid: MappingGrid, _ j: Int, _ columns: Range<Int>,
        _ rowMask: UnsafePointer<UInt8>?, _ rowOut: UnsafeMutablePointer<UInt8>, _ scratch: RowScratch
    ) {
        let n = grid.spans(j, columns: columns, into: scratch.spans)
        let left = tegula_bilinear_spans(
            win.pixels, win.width, win.height, win.originX, win.originY, sourceWidth, sourceHeight,
            scratch.spans, n, columns.lowerBound, columns.upperBound,
            rowMask, rowOut, scratch.rest, scratch.restX, scratch.restY)
        for k in 0..<left {
            bilinear(win, scratch.restX[k] - Double(win.originX), scratch.restY[k] - Double(win.originY), rowOut + Int(scratch.rest[k]) * 4)
        }
    }

    /// What the C rows work in, allocated once per ``run``.
    private final class RowScratch {
        let spans: UnsafeMutablePointer<tegula_span>
        let rest: UnsafeMutablePointer<Int32>
        let restX: UnsafeMutablePointer<Double>
        let restY: UnsafeMutablePointer<Double>
        /// `rest`: room for the pixels the bilinear row leaves (none for the other rows).
        init(grid: MappingGrid, rest withRest: Bool) {
            let n = withRest ? grid.width : 0
            spans = .allocate(capacity: grid.maxSpans)
            rest = .allocate(capacity: n)
            restX = .allocate(capacity: n)
            restY = .allocate(capacity: n)
        }
        deinit { spans.deallocate(); rest.deallocate(); restX.deallocate(); restY.deallocate() }
    }

    @inline(__always)
    private func nearest(_ win: SourceWindow, _ bx: Double, _ by: Double, _ o: UnsafeMutablePointer<UInt8>) {
        let ix = min(max(Int(bx), 0), win.width - 1), iy = min(max(Int(by), 0), win.height - 1)
        let p = win.pixels + (iy * win.width + ix) * 4
        o[0] = p[0]; o[1] = p[1]; o[2] = p[2]; o[3] = p[3]
    }

    /// Bilinear in premultiplied alpha, for the few pixels the C row leaves (on the window's edge
    /// or beside transparency).
    private func bilinear(_ win: SourceWindow, _ bx: Double, _ by: Double, _ o: UnsafeMutablePointer<UInt8>) {
        let u = bx - 0.5, v = by - 0.5
        let fu = u.rounded(.down), fv = v.rounded(.down)
        let x0 = Int(fu), y0 = Int(fv)
        let ax = u - fu, ay = v - fv
        var sw = 0.0, sa = 0.0, sr = 0.0, sg = 0.0, sb = 0.0
        let ww = win.width, wh = win.height
        @inline(__always) func tap(_ x: Int, _ y: Int, _ wt: Double) {
            guard x >= 0, y >= 0, x < ww, y < wh, wt > 0 else { return }
            let p = win.pixels + (y * ww + x) * 4
            let a = Double(p[3]) * wt
            sw += wt
            sa += a
            sr += a * Double(p[0]); sg += a * Double(p[1]); sb += a * Double(p[2])
        }
        tap(x0, y0, (1 - ax) * (1 - ay))
        tap(x0 + 1, y0, ax * (1 - ay))
        tap(x0, y0 + 1, (1 - ax) * ay)
        tap(x0 + 1, y0 + 1, ax * ay)
        store(sw, sa, sr, sg, sb, o)
    }

    @inline(__always)
    private func store(
        _ sw: Double, _ sa: Double, _ sr: Double, _ sg: Double, _ sb: Double,
        _ o: UnsafeMutablePointer<UInt8>
    ) {
        guard sw != 0, sa > 0 else { o[0] = 0; o[1] = 0; o[2] = 0; o[3] = 0; return }
        @inline(__always) func clamp(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
        o[0] = clamp(sr / sa); o[1] = clamp(sg / sa); o[2] = clamp(sb / sa)
        o[3] = clamp(sa / sw)
    }
}
