// See halve.h.
#include "halve.h"
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

void tegula_halve(const uint8_t *src, ptrdiff_t width, ptrdiff_t height, uint8_t *dst) {
    const ptrdiff_t ow = width / 2, oh = height / 2;
    // The alpha bytes of two RGBA pixels read as one little-endian 64-bit word.
    const uint64_t alphas = 0xFF000000FF000000ull;
    for (ptrdiff_t j = 0; j < oh; j++) {
        const uint8_t *r0 = src + 2 * j * width * 4, *r1 = r0 + width * 4;
        uint8_t *o = dst + j * ow * 4;
        for (ptrdiff_t i = 0; i < ow; i++, o += 4) {
            const uint8_t *a = r0 + 8 * i, *b = a + 4, *c = r1 + 8 * i, *d = c + 4;
            uint64_t top, bottom;
            memcpy(&top, a, 8);
            memcpy(&bottom, c, 8);
            if ((top & bottom & alphas) == alphas) {
#if defined(__SSE2__)
                // All four opaque (the common case): every channel at once in 16-bit lanes.
                const __m128i zero = _mm_setzero_si128();
                __m128i s = _mm_add_epi16(_mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)a), zero),
                                          _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)c), zero));
                s = _mm_add_epi16(_mm_add_epi16(s, _mm_srli_si128(s, 8)), _mm_set1_epi16(2));
                s = _mm_srli_epi16(s, 2);
                int32_t px = _mm_cvtsi128_si32(_mm_packus_epi16(s, s));
                memcpy(o, &px, 4);
#else
                for (int ch = 0; ch < 4; ch++) o[ch] = (uint8_t)((a[ch] + b[ch] + c[ch] + d[ch] + 2) >> 2);
#endif
                continue;
            }
            const uint32_t aa = a[3], ba = b[3], ca = c[3], da = d[3];
            const uint32_t sa = aa + ba + ca + da;
            if (sa == 0) {
                memset(o, 0, 4);
                continue;
            }
            for (int ch = 0; ch < 3; ch++) {
                o[ch] = (uint8_t)((a[ch] * aa + b[ch] * ba + c[ch] * ca + d[ch] * da + sa / 2) / sa);
            }
            o[3] = tegula_mean_alpha(aa, ba, ca, da);
        }
    }
}
