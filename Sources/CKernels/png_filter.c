// See png_filter.h. The pyramid's opaque tiles went through a Swift loop that copied each row's
// RGB out of its RGBA pixels and then took the Up filter: 2.5–2.9 % of a pyramid's samples.
#include "png_filter.h"
#include <string.h>
#if defined(__x86_64__)
#include <tmmintrin.h>
#endif

static void up_rgb_scalar(const uint8_t *cur, const uint8_t *prev, ptrdiff_t from, ptrdiff_t width, uint8_t *out) {
    for (ptrdiff_t i = from; i < width; i++) {
        for (int c = 0; c < 3; c++) out[3 * i + c] = (uint8_t)(cur[4 * i + c] - (prev ? prev[4 * i + c] : 0));
    }
}

#if defined(__x86_64__)
/// Four pixels at a time: 16 bytes in, their 12 RGB bytes stored as 16 (the next four's store
/// overwrites the 4 extra), so the loop stops while a whole 16-byte store still fits in the row.
__attribute__((target("ssse3"))) static void up_rgb_ssse3(const uint8_t *cur, const uint8_t *prev, ptrdiff_t width,
                                                          uint8_t *out) {
    const __m128i pack = _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    ptrdiff_t i = 0;
    for (; i + 6 <= width; i += 4) {
        __m128i c = _mm_loadu_si128((const __m128i *)(cur + 4 * i));
        if (prev) c = _mm_sub_epi8(c, _mm_loadu_si128((const __m128i *)(prev + 4 * i)));
        _mm_storeu_si128((__m128i *)(out + 3 * i), _mm_shuffle_epi8(c, pack));
    }
    up_rgb_scalar(cur, prev, i, width, out);
}

static void (*chosen)(const uint8_t *, const uint8_t *, ptrdiff_t, uint8_t *);
__attribute__((constructor)) static void choose(void) {
    __builtin_cpu_init();
    chosen = __builtin_cpu_supports("ssse3") ? up_rgb_ssse3 : NULL;
}
#endif

void tegula_png_up_rgb_from_rgba(const uint8_t *cur, const uint8_t *prev, ptrdiff_t width, uint8_t *out) {
#if defined(__x86_64__)
    if (chosen) { chosen(cur, prev, width, out); return; }
#endif
    up_rgb_scalar(cur, prev, 0, width, out);
}
