// See warp_row.h. Every step is exact integer arithmetic after a span's one rounding, so a
// pixel's value is the same on every machine, whatever part of the block is asked for.
#include "warp_row.h"
#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static int sse2_only = 0;
void tegula_warp_set_sse2_only(int on) { __atomic_store_n(&sse2_only, on, __ATOMIC_RELAXED); }

/// Fixed point: 16 fraction bits.
#define ONE 65536
/// Spans whose positions go beyond this many scan pixels are warped per pixel in doubles.
#define FIXED_LIMIT 1073741824.0

#if defined(__SSE2__)
/// weights[f]: f in each of eight 16-bit lanes; across[f]: 256 − f in the low four and f in the
/// high four (a tap pair's left and right pixel), for f in 0...256 (set once at load).
static __m128i weights[257], across[257];
__attribute__((constructor)) static void fill_weights(void) {
    for (int f = 0; f <= 256; f++) {
        weights[f] = _mm_set1_epi16((short)f);
        across[f] = _mm_set_epi16((short)f, (short)f, (short)f, (short)f,
                                  (short)(256 - f), (short)(256 - f), (short)(256 - f), (short)(256 - f));
    }
}

/// The unrounded sums of one pixel's blend (see blend): four 32-bit lanes, r g b a, each
/// Σ tap · weight, from the tap rows `top`, `bottom` (two RGBA pixels each, as 64-bit words).
static inline __m128i blend_sums(uint64_t top, uint64_t bottom, int32_t fx, int32_t fy) {
    const __m128i zero = _mm_setzero_si128();
    __m128i t = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)&top), zero);
    __m128i b = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)&bottom), zero);
    // Down the columns first: at most 255 · 256, so the sum fits 16 unsigned bits exactly.
    __m128i column = _mm_add_epi16(_mm_mullo_epi16(t, weights[256 - fy]), _mm_mullo_epi16(b, weights[fy]));
    // Then across, in 32 bits: the low and high halves of each unsigned 16 × 16 product.
    __m128i lo = _mm_mullo_epi16(column, across[fx]), hi = _mm_mulhi_epu16(column, across[fx]);
    return _mm_add_epi32(_mm_unpacklo_epi16(lo, hi), _mm_unpackhi_epi16(lo, hi));
}
#endif

/// (Σ tap · weight + 32768) >> 16 for the four taps of one pixel, weights from fx, fy in 0...256:
/// (256 − fx)(256 − fy), fx(256 − fy), (256 − fx)fy, fx·fy.
static inline void blend(const uint8_t *p00, const uint8_t *p10, int32_t fx, int32_t fy, uint8_t *o) {
#if defined(__SSE2__)
    uint64_t top, bottom;
    memcpy(&top, p00, 8);
    memcpy(&bottom, p10, 8);
    __m128i sum = _mm_srli_epi32(_mm_add_epi32(blend_sums(top, bottom, fx, fy), _mm_set1_epi32(32768)), 16);
    sum = _mm_packs_epi32(sum, sum);
    int32_t px = _mm_cvtsi128_si32(_mm_packus_epi16(sum, sum));
    memcpy(o, &px, 4);
#else
    for (int ch = 0; ch < 4; ch++) {
        uint32_t left = (uint32_t)p00[ch] * (uint32_t)(256 - fy) + (uint32_t)p10[ch] * (uint32_t)fy;
        uint32_t right = (uint32_t)p00[ch + 4] * (uint32_t)(256 - fy) + (uint32_t)p10[ch + 4] * (uint32_t)fy;
        o[ch] = (uint8_t)((left * (uint32_t)(256 - fx) + right * (uint32_t)fx + 32768) >> 16);
    }
#endif
}

/// True when fixed-point scan position `p` is inside the scan (0 ≤ p < `limit`) and the tap
/// pair below and right of it lies in the window (`centre`: its first pixel centre; `size` pixels).
static inline int inner(int64_t p, int64_t limit, int64_t centre, ptrdiff_t size) {
    return p >= 0 && p < limit && (uint64_t)((p - centre) >> 16) < (uint64_t)(size - 1);
}

/// Blends the point at window position (u, v) (16.16 fixed point from the window's first pixel
/// centre; its four taps inside the window) into `o` when all four taps are opaque, with weights
/// to 1/256 px; returns whether it did.
static inline int blend_opaque(const uint8_t *window, ptrdiff_t stride, int64_t u, int64_t v, uint8_t *o) {
    // The alpha bytes of two RGBA pixels read as one little-endian 64-bit word.
    const uint64_t alphas = 0xFF000000FF000000ull;
    const uint8_t *p00 = window + (v >> 16) * stride + (u >> 16) * 4, *p10 = p00 + stride;
    uint64_t top, bottom;
    memcpy(&top, p00, 8);
    memcpy(&bottom, p10, 8);
    if ((top & bottom & alphas) != alphas) return 0;
    blend(p00, p10, (int32_t)(((u & (ONE - 1)) + 128) >> 8), (int32_t)(((v & (ONE - 1)) + 128) >> 8), o);
    return 1;
}

/// Blends the point at window position (u, v) into `o` as blend_opaque does, or leaves it to the
/// caller: its index and scan position (the window's first pixel centre at (cx, cy)) go to
/// `rest`, `rest_x`, `rest_y` at `*left`, which counts it.
static inline void blend_or_leave(const uint8_t *window, ptrdiff_t stride, int64_t u, int64_t v, uint8_t *o,
                                  int32_t index, int64_t cx, int64_t cy,
                                  int32_t *rest, double *rest_x, double *rest_y, ptrdiff_t *left) {
    if (blend_opaque(window, stride, u, v, o)) return;
    rest[*left] = index;
    rest_x[*left] = (double)(u + cx) / ONE;
    rest_y[*left] = (double)(v + cy) / ONE;
    (*left)++;
}

/// The fast loop of a span wholly inside the scan and the window (no mask): `n` pixels into `o`
/// from window position (u, v) stepping (su, sv), two at a time so they share the rounding's
/// packing and one store. Returns how many pixels it left (non-opaque taps), with their indices
/// (from `index`) and scan positions (the window's first pixel centre at (cx, cy)) in `rest`.
static ptrdiff_t interior(const uint8_t *window, ptrdiff_t stride, int64_t u, int64_t v, int64_t su, int64_t sv,
                          ptrdiff_t n, uint8_t *o, int32_t index, int64_t cx, int64_t cy,
                          int32_t *rest, double *rest_x, double *rest_y) {
    const uint64_t alphas = 0xFF000000FF000000ull;
    ptrdiff_t left = 0, k = 0;
#if defined(__SSE2__)
    const __m128i half = _mm_set1_epi32(32768);
    for (; k + 1 < n; k += 2, u += 2 * su, v += 2 * sv) {
        const int64_t u1 = u + su, v1 = v + sv;
        const uint8_t *a = window + (v >> 16) * stride + (u >> 16) * 4;
        const uint8_t *b = window + (v1 >> 16) * stride + (u1 >> 16) * 4;
        uint64_t at, ab, bt, bb;
        memcpy(&at, a, 8);
        memcpy(&ab, a + stride, 8);
        memcpy(&bt, b, 8);
        memcpy(&bb, b + stride, 8);
        if (__builtin_expect((at & ab & bt & bb & alphas) != alphas, 0)) {
            // One of the two has a tap that is not opaque: each on its own.
            blend_or_leave(window, stride, u, v, o + k * 4, index + (int32_t)k, cx, cy, rest, rest_x, rest_y, &left);
            blend_or_leave(window, stride, u1, v1, o + (k + 1) * 4, index + (int32_t)(k + 1), cx, cy, rest, rest_x, rest_y, &left);
            continue;
        }
        __m128i sa = blend_sums(at, ab, (int32_t)(((u & (ONE - 1)) + 128) >> 8), (int32_t)(((v & (ONE - 1)) + 128) >> 8));
        __m128i sb = blend_sums(bt, bb, (int32_t)(((u1 & (ONE - 1)) + 128) >> 8), (int32_t)(((v1 & (ONE - 1)) + 128) >> 8));
        sa = _mm_srli_epi32(_mm_add_epi32(sa, half), 16);
        sb = _mm_srli_epi32(_mm_add_epi32(sb, half), 16);
        __m128i packed = _mm_packs_epi32(sa, sb);
        _mm_storel_epi64((__m128i *)(o + k * 4), _mm_packus_epi16(packed, packed));
    }
#endif
    for (; k < n; k++, u += su, v += sv) {
        blend_or_leave(window, stride, u, v, o + k * 4, index + (int32_t)k, cx, cy, rest, rest_x, rest_y, &left);
    }
    return left;
}

#if defined(__x86_64__)
#include <immintrin.h>
/// interior, four pixels at a time in AVX2's two 128-bit lanes (pixels 0 and 1 in one register,
/// 2 and 3 in another, each lane the SSE2 code's arithmetic for one pixel, so the bytes are the
/// same), then the SSE2 loop for the last ones.
__attribute__((target("avx2"))) static ptrdiff_t interior_avx2(const uint8_t *window, ptrdiff_t stride, int64_t u,
                                                               int64_t v, int64_t su, int64_t sv, ptrdiff_t n,
                                                               uint8_t *o, int32_t index, int64_t cx, int64_t cy,
                                                               int32_t *rest, double *rest_x, double *rest_y) {
    const uint64_t alphas = 0xFF000000FF000000ull;
    const __m256i half = _mm256_set1_epi32(32768);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 0, 0, 0, 0);
    ptrdiff_t left = 0, k = 0;
    for (; k + 3 < n; k += 4, u += 4 * su, v += 4 * sv) {
        uint64_t t[4], b[4];
        int32_t fx[4], fy[4];
        for (int j = 0; j < 4; j++) {
            const int64_t uj = u + j * su, vj = v + j * sv;
            const uint8_t *p = window + (vj >> 16) * stride + (uj >> 16) * 4;
            memcpy(&t[j], p, 8);
            memcpy(&b[j], p + stride, 8);
            fx[j] = (int32_t)(((uj & (ONE - 1)) + 128) >> 8);
            fy[j] = (int32_t)(((vj & (ONE - 1)) + 128) >> 8);
        }
        if (__builtin_expect((t[0] & b[0] & t[1] & b[1] & t[2] & b[2] & t[3] & b[3] & alphas) != alphas, 0)) {
            // A tap that is not opaque among the four: each on its own.
            for (int j = 0; j < 4; j++) {
                blend_or_leave(window, stride, u + j * su, v + j * sv, o + (k + j) * 4, index + (int32_t)(k + j), cx, cy,
                               rest, rest_x, rest_y, &left);
            }
            continue;
        }
        __m256i sums[2];
        for (int h = 0; h < 2; h++) {
            const int a = 2 * h, c = 2 * h + 1;
            __m256i top = _mm256_cvtepu8_epi16(_mm_set_epi64x((long long)t[c], (long long)t[a]));
            __m256i bottom = _mm256_cvtepu8_epi16(_mm_set_epi64x((long long)b[c], (long long)b[a]));
            __m256i column = _mm256_add_epi16(
                _mm256_mullo_epi16(top, _mm256_set_m128i(weights[256 - fy[c]], weights[256 - fy[a]])),
                _mm256_mullo_epi16(bottom, _mm256_set_m128i(weights[fy[c]], weights[fy[a]])));
            const __m256i w = _mm256_set_m128i(across[fx[c]], across[fx[a]]);
            __m256i lo = _mm256_mullo_epi16(column, w), hi = _mm256_mulhi_epu16(column, w);
            __m256i sum = _mm256_add_epi32(_mm256_unpacklo_epi16(lo, hi), _mm256_unpackhi_epi16(lo, hi));
            sums[h] = _mm256_srli_epi32(_mm256_add_epi32(sum, half), 16);
        }
        // Lanes hold pixels (0, 2) and (1, 3) after packing: put them in order.
        __m256i packed = _mm256_packs_epi32(sums[0], sums[1]);
        __m256i bytes = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(packed, packed), order);
        _mm_storeu_si128((__m128i *)(o + k * 4), _mm256_castsi256_si128(bytes));
    }
    return left + interior(window, stride, u, v, su, sv, n - k, o + k * 4, index + (int32_t)k, cx, cy,
                           rest + left, rest_x + left, rest_y + left);
}

static int has_avx2;
__attribute__((constructor)) static void check_avx2(void) {
    __builtin_cpu_init();
    has_avx2 = __builtin_cpu_supports("avx2");
}
#endif

static inline int fits(double v) { return v > -FIXED_LIMIT && v < FIXED_LIMIT; }

/// llround (halves away from zero) without its libm call, exactly, for |v| < 2^52: v minus its
/// truncation is exact there. The call was 1 % of the benchmark pyramid, four per span. Beyond
/// 2^52 (only a one-pixel span's unused step can be; positions are checked by `fits`), 0.
static inline int64_t round_fixed(double v) {
    if (!(v > -4503599627370496.0 && v < 4503599627370496.0)) return 0;
    int64_t t = (int64_t)v;
    double f = v - (double)t;
    return t + (f >= 0.5) - (f <= -0.5);
}

ptrdiff_t tegula_bilinear_spans(const uint8_t *window, ptrdiff_t window_width, ptrdiff_t window_height,
                                ptrdiff_t origin_x, ptrdiff_t origin_y, ptrdiff_t source_width, ptrdiff_t source_height,
                                const tegula_span *spans, ptrdiff_t span_count, ptrdiff_t first, ptrdiff_t end,
                                const uint8_t *mask, uint8_t *out, int32_t *rest, double *rest_x, double *rest_y) {
    ptrdiff_t left = 0;
    const ptrdiff_t stride = window_width * 4;
    const int64_t limit_x = (int64_t)source_width * ONE, limit_y = (int64_t)source_height * ONE;
    // Scan position of the window's first pixel centre, in fixed point.
    const int64_t centre_x = (int64_t)origin_x * ONE + ONE / 2, centre_y = (int64_t)origin_y * ONE + ONE / 2;
    for (ptrdiff_t s = 0; s < span_count; s++) {
        const tegula_span sp = spans[s];
        ptrdiff_t i = sp.start > first ? sp.start : first, stop = sp.end < end ? sp.end : end;
        if (i >= stop) continue;
        double t0 = (double)(i - sp.start), t1 = (double)(stop - 1 - sp.start);
        if (!(fits(sp.x) && fits(sp.y) && fits(sp.x + sp.dx * t1) && fits(sp.y + sp.dy * t1))) {
            // Far outside (or not a number): per pixel in doubles; rare, and mostly transparent.
            for (; i < stop; i++, t0 += 1) {
                double x = sp.x + sp.dx * t0, y = sp.y + sp.dy * t0;
                uint8_t *o = out + (i - first) * 4;
                if (!(x >= 0 && y >= 0 && x < (double)source_width && y < (double)source_height) ||
                    (mask && mask[i - first] == 0)) {
                    memset(o, 0, 4);
                } else {
                    rest[left] = (int32_t)(i - first); rest_x[left] = x; rest_y[left] = y; left++;
                }
            }
            continue;
        }
        const int64_t step_x = round_fixed(sp.dx * ONE), step_y = round_fixed(sp.dy * ONE);
        int64_t X = round_fixed(sp.x * ONE) + step_x * (int64_t)(i - sp.start);
        int64_t Y = round_fixed(sp.y * ONE) + step_y * (int64_t)(i - sp.start);
        // A span whose two ends lie inside the scan and have their four taps in the window has
        // every pixel so (the position is linear along it): then only the alpha test is left.
        const int64_t last_x = X + step_x * (int64_t)(stop - 1 - i), last_y = Y + step_y * (int64_t)(stop - 1 - i);
        if (!mask && inner(X, limit_x, centre_x, window_width) && inner(last_x, limit_x, centre_x, window_width) &&
            inner(Y, limit_y, centre_y, window_height) && inner(last_y, limit_y, centre_y, window_height)) {
#if defined(__x86_64__)
            if (has_avx2 && !__atomic_load_n(&sse2_only, __ATOMIC_RELAXED)) {
                left += interior_avx2(window, stride, X - centre_x, Y - centre_y, step_x, step_y, stop - i,
                                      out + (i - first) * 4, (int32_t)(i - first), centre_x, centre_y,
                                      rest + left, rest_x + left, rest_y + left);
                continue;
            }
#endif
            left += interior(window, stride, X - centre_x, Y - centre_y, step_x, step_y, stop - i,
                             out + (i - first) * 4, (int32_t)(i - first), centre_x, centre_y,
                             rest + left, rest_x + left, rest_y + left);
            continue;
        }
        for (; i < stop; i++, X += step_x, Y += step_y) {
            uint8_t *o = out + (i - first) * 4;
            if (!(X >= 0 && Y >= 0 && X < limit_x && Y < limit_y) || (mask && mask[i - first] == 0)) {
                memset(o, 0, 4);
                continue;
            }
            if (inner(X, limit_x, centre_x, window_width) && inner(Y, limit_y, centre_y, window_height) &&
                blend_opaque(window, stride, X - centre_x, Y - centre_y, o)) {
                continue;
            }
            rest[left] = (int32_t)(i - first);
            rest_x[left] = (double)X / ONE;
            rest_y[left] = (double)Y / ONE;
            left++;
        }
    }
    return left;
}
