// See warp_row.h. Every step is exact integer or exactly rounded IEEE arithmetic, so the row is
// the same on every machine and equals the Swift loop it replaced byte for byte (2420 tile MD5s
// of the benchmark pyramid).
#include "warp_row.h"
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#pragma clang fp contract(off)

/// ⌊t⌋ for |t| < 2^31 without libm or a checked conversion: t + 1.5 · 2^52 rounds t to an integer
/// held in the sum's low bits; one less where that rounded up.
static inline double floor_split(double t, int32_t *n) {
    const double magic = 6755399441055744.0;
    double m = t + magic;
    double r = m - magic;
    int64_t bits;
    memcpy(&bits, &m, sizeof bits);
    int32_t k = (int32_t)(uint32_t)bits;
    if (r > t) { r -= 1; k -= 1; }
    *n = k;
    return r;
}

/// (Σ tap · weight + 32768) >> 16 for the four taps of one pixel, weights from fx, fy in 0...256:
/// (256 − fx)(256 − fy), fx(256 − fy), (256 − fx)fy, fx·fy.
static inline void blend(const uint8_t *p00, const uint8_t *p10, int32_t fx, int32_t fy, uint8_t *o) {
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    // Two pixels a row, 16-bit lanes: [left r g b a, right r g b a].
    __m128i top = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)p00), zero);
    __m128i bottom = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)p10), zero);
    // Down the columns first: at most 255 · 256, so the sum fits 16 unsigned bits exactly.
    __m128i column = _mm_add_epi16(_mm_mullo_epi16(top, _mm_set1_epi16((short)(256 - fy))),
                                   _mm_mullo_epi16(bottom, _mm_set1_epi16((short)fy)));
    // Then across, in 32 bits: the low and high halves of each unsigned 16 × 16 product.
    __m128i wx = _mm_set_epi16((short)fx, (short)fx, (short)fx, (short)fx,
                               (short)(256 - fx), (short)(256 - fx), (short)(256 - fx), (short)(256 - fx));
    __m128i lo = _mm_mullo_epi16(column, wx), hi = _mm_mulhi_epu16(column, wx);
    __m128i sum = _mm_add_epi32(_mm_unpacklo_epi16(lo, hi), _mm_unpackhi_epi16(lo, hi));
    sum = _mm_srli_epi32(_mm_add_epi32(sum, _mm_set1_epi32(32768)), 16);
    sum = _mm_packs_epi32(sum, sum);
    int32_t px = _mm_cvtsi128_si32(_mm_packus_epi16(sum, sum));
    memcpy(o, &px, 4);
#else
    for (int ch = 0; ch < 4; ch++) {
        uint32_t left = (uint32_t)p00[ch] * (uint32_t)(256 - fy) + (uint32_t)p10[ch] * (uint32_t)fy;
        uint32_t right = (uint32_t)p00[ch + 4] * (uint32_t)(256 - fy) + (uint32_t)p10[ch + 4] * (uint32_t)fy;
        uint32_t v = (left * (uint32_t)(256 - fx) + right * (uint32_t)fx + 32768) >> 16;
        o[ch] = (uint8_t)v;
    }
#endif
}

ptrdiff_t tegula_bilinear_row(const uint8_t *window, ptrdiff_t window_width, ptrdiff_t window_height,
                              const double *sx, const double *sy, ptrdiff_t count,
                              double origin_x, double origin_y, double source_width, double source_height,
                              const uint8_t *mask, uint8_t *out, int32_t *rest) {
    ptrdiff_t left = 0;
    const ptrdiff_t stride = window_width * 4;
    // The alpha bytes of two RGBA pixels read as one little-endian 64-bit word.
    const uint64_t alphas = 0xFF000000FF000000ull;
    for (ptrdiff_t i = 0; i < count; i++) {
        double x = sx[i], y = sy[i];
        uint8_t *o = out + i * 4;
        if (!(x >= 0 && y >= 0 && x < source_width && y < source_height) || (mask && mask[i] == 0)) {
            memset(o, 0, 4);
            continue;
        }
        double u = x - origin_x, v = y - origin_y;
        int32_t x0, y0;
        double fu = floor_split(u, &x0), fv = floor_split(v, &y0);
        if (x0 >= 0 && y0 >= 0 && x0 + 1 < window_width && y0 + 1 < window_height) {
            const uint8_t *p00 = window + (ptrdiff_t)y0 * stride + (ptrdiff_t)x0 * 4;
            const uint8_t *p10 = p00 + stride;
            uint64_t top, bottom;
            memcpy(&top, p00, 8);
            memcpy(&bottom, p10, 8);
            if ((top & bottom & alphas) == alphas) {
                int32_t fx, fy;
                floor_split((u - fu) * 256 + 0.5, &fx);
                floor_split((v - fv) * 256 + 0.5, &fy);
                blend(p00, p10, fx, fy, o);
                continue;
            }
        }
        rest[left++] = (int32_t)i;
    }
    return left;
}
