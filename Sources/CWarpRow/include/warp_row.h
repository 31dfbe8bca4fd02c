// The bilinear warp row at scale 1, the hot loop of every pyramid, in C so its blend runs in
// SSE2 lanes (TegulaWarp's WarpKernel calls it; BENCHMARKS.md, "The warp row in C").
#ifndef TEGULA_WARP_ROW_H
#define TEGULA_WARP_ROW_H
#include <stddef.h>
#include <stdint.h>

/// One output row of `count` pixels, RGBA8 straight alpha, from a window of `window_width` ×
/// `window_height` RGBA8 pixels. `sx`, `sy`: each pixel's source position in full-scan pixels;
/// `origin_x`, `origin_y`: the window's first pixel in the scan, plus 0.5 (pixel centres);
/// `source_width`, `source_height`: the scan's size. A pixel outside the scan, or where `mask`
/// (may be NULL) is 0, becomes transparent black. A pixel whose four taps lie in the window and
/// are all opaque gets the weighted mean in fixed point: positions to 1/256 px, weights summing
/// to 65536, rounded. Every other pixel is left for the caller's premultiplied path: its index
/// goes to `rest`, and the count of those is returned.
ptrdiff_t tegula_bilinear_row(const uint8_t *window, ptrdiff_t window_width, ptrdiff_t window_height,
                              const double *sx, const double *sy, ptrdiff_t count,
                              double origin_x, double origin_y, double source_width, double source_height,
                              const uint8_t *mask, uint8_t *out, int32_t *rest);

#endif
