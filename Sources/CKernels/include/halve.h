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

/// The pyramid's alpha of a parent pixel from its four children's: their mean rounded half up.
/// The one home of that rounding: tegula_halve and the tiles rendered on demand (TegulaWarp's
/// PyramidCoverage) both call it.
static inline uint8_t tegula_mean_alpha(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
    return (uint8_t)((a + b + c + d + 2) >> 2);
}

#endif
