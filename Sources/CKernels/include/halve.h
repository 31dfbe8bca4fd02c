// Halving an RGBA8 image with a 2×2 box filter, the pyramid's downsampling, in C for its SSE2
// lanes (TegulaPyramid's Downsampler calls it).
#ifndef TEGULA_HALVE_H
#define TEGULA_HALVE_H
#include <stddef.h>
#include <stdint.h>

/// `src` is `width` × `height` RGBA8 straight alpha (both even); writes `width/2` × `height/2`
/// into `dst`. In premultiplied alpha: alpha is the rounded mean alpha, colour the
/// alpha-weighted mean colour rounded to nearest, so transparent pixels never darken their
/// neighbours; four transparent pixels give transparent black, four opaque ones the rounded mean.
void tegula_halve(const uint8_t *src, ptrdiff_t width, ptrdiff_t height, uint8_t *dst);

#endif
