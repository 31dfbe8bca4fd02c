// The bilinear warp row at scale 1, the hot loop of every pyramid, in C: positions stepped in
// fixed point along the transform grid's straight pieces, the blend in SSE2 lanes (TegulaWarp's
// WarpKernel calls it; BENCHMARKS.md, "The warp row in C").
#ifndef TEGULA_WARP_ROW_H
#define TEGULA_WARP_ROW_H
#include <stddef.h>
#include <stdint.h>

/// Output pixels [start, end) of a row, at source position (x + dx·t, y + dy·t), t = pixel − start,
/// in scan pixels: one straight piece of the transform grid's interpolation.
typedef struct {
    ptrdiff_t start;
    ptrdiff_t end;
    double x;
    double y;
    double dx;
    double dy;
} tegula_span;

/// Warp the output pixels [first, end) of a row, given as `span_count` spans covering them in
/// order, into `out` (RGBA8 straight alpha, pixel `first` at `out`; `mask`, when not NULL, holds
/// a byte per pixel from `first`, 0 = masked out).
///
/// Positions are taken to 1/65536 px: a span's start and step are rounded once, and each pixel's
/// position is the start plus t steps, exactly, in scan coordinates, so it depends neither on
/// `first` nor on the window. A pixel outside the scan (`source_width` × `source_height`) or
/// masked out becomes transparent black. One whose four taps lie in the window (`window_width` ×
/// `window_height` RGBA8 pixels from scan pixel (`origin_x`, `origin_y`)) and are all opaque gets
/// their mean weighted to 1/256 px, in fixed point with weights summing to 65536, rounded. Every
/// other pixel is left to the caller: its index (from `first`) goes to `rest` and its position to
/// `rest_x`, `rest_y`; the count of those is returned.
ptrdiff_t tegula_bilinear_spans(const uint8_t *window, ptrdiff_t window_width, ptrdiff_t window_height,
                                ptrdiff_t origin_x, ptrdiff_t origin_y, ptrdiff_t source_width, ptrdiff_t source_height,
                                const tegula_span *spans, ptrdiff_t span_count, ptrdiff_t first, ptrdiff_t end,
                                const uint8_t *mask, uint8_t *out, int32_t *rest, double *rest_x, double *rest_y);

/// tegula_bilinear_spans with the blend in SSE2 even where AVX2 runs: the same bytes, for the
/// tests and fuzz target that compare the two (a call's choice, not a process-wide switch).
ptrdiff_t tegula_bilinear_spans_sse2(const uint8_t *window, ptrdiff_t window_width, ptrdiff_t window_height,
                                     ptrdiff_t origin_x, ptrdiff_t origin_y, ptrdiff_t source_width,
                                     ptrdiff_t source_height, const tegula_span *spans, ptrdiff_t span_count,
                                     ptrdiff_t first, ptrdiff_t end, const uint8_t *mask, uint8_t *out, int32_t *rest,
                                     double *rest_x, double *rest_y);

#endif
