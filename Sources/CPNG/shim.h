// libpng as Swift sees it. Tegula uses libpng's simplified API (png_image_*), which reports
// errors through return codes instead of longjmp, so no setjmp shim is needed.
#ifndef TEGULA_CPNG_SHIM_H
#define TEGULA_CPNG_SHIM_H
#include <png.h>

/// PNG_IMAGE_SIZE and friends are macros; expose the row stride and buffer size as functions.
static inline size_t tegula_png_image_size(const png_image *image) { return PNG_IMAGE_SIZE(*image); }
static inline int tegula_png_image_failed(const png_image *image) { return PNG_IMAGE_FAILED(*image); }
/// PNG_FORMAT_RGBA is a macro built from flag macros.
static const unsigned int tegula_png_format_rgba = PNG_FORMAT_RGBA;
#endif
