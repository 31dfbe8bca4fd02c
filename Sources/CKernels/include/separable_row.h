// The warp row of the separable kernels (bilinear or cubic widened by the warp's shrink, lanczos,
// average), in C: the loop a block runs when it shrinks the scan, so that a tile matrix set whose
// pixels span more than one scan pixel (UTM far from its meridian, a national grid) warps at the
// speed of one that does not (TegulaWarp's WarpKernel calls it; BENCHMARKS.md, issue 44).
#ifndef TEGULA_SEPARABLE_ROW_H
#define TEGULA_SEPARABLE_ROW_H
#include <stddef.h>
#include <stdint.h>
#include "warp_row.h"

/// The separable kernels, by the weight they give a window pixel at offset d (window pixels,
/// from the output pixel's position) along one axis, for a `scale` (tegula_separable_spans):
/// bilinear max(0, 1 − |d/scale|); cubic Keys' with a = −0.5 (GDAL's GWKCubic) at d/scale;
/// lanczos 3 sin(πt) sin(πt/3) / (πt)² at t = d/scale, |t| < 3; average the length of
/// [d − ½, d + ½] inside [−scale/2, scale/2] (the footprint, `scale` pixels wide).
typedef enum {
    TEGULA_KERNEL_BILINEAR = 0,
    TEGULA_KERNEL_CUBIC = 1,
    TEGULA_KERNEL_LANCZOS = 2,
    TEGULA_KERNEL_AVERAGE = 3,
} tegula_kernel;

/// Warp the output pixels [first, end) of a row, given as `span_count` spans covering them in
/// order (as tegula_bilinear_spans takes them), with `kernel` at `scale_x`, `scale_y` (window
/// pixels), into `out` (RGBA8 straight alpha, pixel `first` at `out`; `mask`, when not NULL, a
/// byte per pixel from `first`, 0 = masked out).
///
/// Pixel i of a span is at scan position (x, y) = (sx + dx·t, sy + dy·t), t = i − start, in
/// doubles. It is transparent black unless 0 ≤ x < `source_width`, 0 ≤ y < `source_height` and
/// the mask keeps it. Its window position is (bx, by) = ((x − origin_x) / `window_scale_x`, …),
/// the window `window_width` × `window_height` RGBA8 pixels from scan pixel (origin_x, origin_y),
/// each `window_scale_x` × `window_scale_y` scan pixels. With (u, v) = (bx − ½, by − ½), the taps
/// are the window pixels (px, py) with ⌈u − r⌉ ≤ px ≤ ⌊u + r⌋ (r: the kernel's reach, its radius
/// 1, 2 or 3 times the scale, or scale/2 + ½ for average) and likewise in y, inside the window,
/// each weighted w = wx(px − u) · wy(py − v). In doubles, summed a window row at a time, left to
/// right, over the taps whose weight is not 0: Σw, Σw·α, Σw·α·c; the pixel is transparent black
/// when Σw = 0 or Σw·α ≤ 0, else colour Σw·α·c / Σw·α and alpha Σw·α / Σw, each rounded half
/// away from zero and clamped to 0...255. No fused multiply-add, so the bytes are those of the
/// formula in any language that evaluates it in that order.
void tegula_separable_spans(const uint8_t *window, ptrdiff_t window_width, ptrdiff_t window_height,
                            ptrdiff_t origin_x, ptrdiff_t origin_y, double window_scale_x, double window_scale_y,
                            ptrdiff_t source_width, ptrdiff_t source_height, const tegula_span *spans,
                            ptrdiff_t span_count, ptrdiff_t first, ptrdiff_t end, const uint8_t *mask, uint8_t *out,
                            tegula_kernel kernel, double scale_x, double scale_y);

/// tegula_separable_spans one pixel at a time even where AVX2 runs eight: the same bytes, for the
/// tests that compare the two (a call's choice, not a process-wide switch).
void tegula_separable_spans_scalar(const uint8_t *window, ptrdiff_t window_width, ptrdiff_t window_height,
                                   ptrdiff_t origin_x, ptrdiff_t origin_y, double window_scale_x,
                                   double window_scale_y, ptrdiff_t source_width, ptrdiff_t source_height,
                                   const tegula_span *spans, ptrdiff_t span_count, ptrdiff_t first, ptrdiff_t end,
                                   const uint8_t *mask, uint8_t *out, tegula_kernel kernel, double scale_x,
                                   double scale_y);

#endif
