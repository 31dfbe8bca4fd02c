// PNG's Up filter on a row of opaque RGBA pixels written as RGB, in C for SSSE3's byte shuffle:
// the pyramid writes every opaque tile this way (TegulaCodec's PNGEncoder calls it).
#ifndef TEGULA_PNG_FILTER_H
#define TEGULA_PNG_FILTER_H
#include <stddef.h>
#include <stdint.h>

/// The Up filter (PNG §9.2, filter type 2) of a row of `width` RGBA pixels taken as RGB, their
/// alpha dropped: `out[3i + c] = cur[4i + c] − prev[4i + c]` modulo 256 for c in 0...2, with
/// `prev` the row above (NULL for the first row: nothing subtracted). Writes 3 × `width` bytes.
void tegula_png_up_rgb_from_rgba(const uint8_t *cur, const uint8_t *prev, ptrdiff_t width, uint8_t *out);

#endif
