// RGB rows widened to RGBA (opaque), for window reads from a mapped scan (TegulaWarp's
// MappedScan): the copy that replaces GDAL's per-row reads.
#ifndef TEGULA_EXPAND_RGB_H
#define TEGULA_EXPAND_RGB_H
#include <stddef.h>
#include <stdint.h>

/// Write `count` pixels of packed RGB from `src` to `dst` as RGBA with alpha 255.
void tegula_expand_rgb(const uint8_t *src, uint8_t *dst, ptrdiff_t count);

#endif
