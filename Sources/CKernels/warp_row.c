// See warp_row.h. Every step is exact integer arithmetic after a span's one rounding, so a
// pixel's value is the same on every machine, whatever part of the block is asked for.
#include "warp_row.h"
#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
/// interior, eight pixels at a time in AVX2: positions, fractions and tap offsets in 32-bit
/// lanes, the taps gathered, and the blend two pixels to a register, each 128-bit lane the SSE2
/// code's arithmetic for one pixel (so the bytes are the same); the last pixels go to the SSE2
/// loop. The caller checks that positions and offsets fit 32 bits.
__attribute__((target("avx2"))) static ptrdiff_t interior_avx2(const uint8_t *window, ptrdiff_t stride, int64_t u,
                                                               int64_t v, int64_t su, int64_t sv, ptrdiff_t n,
                                                               uint8_t *o, int32_t index, int64_t cx, int64_t cy,
                                                               int32_t *rest, double *rest_x, double *rest_y) {
    const __m256i ramp = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i step_u = _mm256_mullo_epi32(ramp, _mm256_set1_epi32((int32_t)su));
    const __m256i step_v = _mm256_mullo_epi32(ramp, _mm256_set1_epi32((int32_t)sv));
    const __m256i fraction = _mm256_set1_epi32(ONE - 1), round = _mm256_set1_epi32(128);
    const __m256i row_bytes = _mm256_set1_epi32((int32_t)stride);
    const __m256i alphas = _mm256_set1_epi64x((long long)0xFF000000FF000000ull);
    const __m256i full = _mm256_set1_epi16(256), half = _mm256_set1_epi32(32768);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    // pick[q]: a 16-bit word of eight broadcast across a lane, pixel 2q's in the low lane and
    // 2q + 1's in the high one (the pixels a register of the blend holds).
    __m256i pick[4];
    for (int q = 0; q < 4; q++) {
        const char a = (char)(4 * q), b = (char)(4 * q + 2);
        pick[q] = _mm256_setr_epi8(a, a + 1, a, a + 1, a, a + 1, a, a + 1, a, a + 1, a, a + 1, a, a + 1, a, a + 1,
                                   b, b + 1, b, b + 1, b, b + 1, b, b + 1, b, b + 1, b, b + 1, b, b + 1, b, b + 1);
    }
    const long long *top_base = (const long long *)window, *bottom_base = (const long long *)(window + stride);
    ptrdiff_t left = 0, k = 0;
    for (; k + 7 < n; k += 8, u += 8 * su, v += 8 * sv) {
        const __m256i U = _mm256_add_epi32(_mm256_set1_epi32((int32_t)u), step_u);
        const __m256i V = _mm256_add_epi32(_mm256_set1_epi32((int32_t)v), step_v);
        const __m256i offset = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_srai_epi32(V, 16), row_bytes),
                                                _mm256_slli_epi32(_mm256_srai_epi32(U, 16), 2));
        const __m128i first = _mm256_castsi256_si128(offset), second = _mm256_extracti128_si256(offset, 1);
        // Two taps (8 bytes) a gather lane: pixels 0–3 and 4–7, top and bottom rows.
        const __m256i t03 = _mm256_i32gather_epi64(top_base, first, 1), t47 = _mm256_i32gather_epi64(top_base, second, 1);
        const __m256i b03 = _mm256_i32gather_epi64(bottom_base, first, 1), b47 = _mm256_i32gather_epi64(bottom_base, second, 1);
        if (__builtin_expect(!_mm256_testc_si256(_mm256_and_si256(_mm256_and_si256(t03, t47), _mm256_and_si256(b03, b47)), alphas), 0)) {
            // A tap that is not opaque among the eight: each on its own.
            for (int j = 0; j < 8; j++) {
                blend_or_leave(window, stride, u + j * su, v + j * sv, o + (k + j) * 4, index + (int32_t)(k + j), cx, cy,
                               rest, rest_x, rest_y, &left);
            }
            continue;
        }
        // The eight fractions (0...256) as 16-bit words, in both lanes.
        const __m256i fx = _mm256_srli_epi32(_mm256_add_epi32(_mm256_and_si256(U, fraction), round), 8);
        const __m256i fy = _mm256_srli_epi32(_mm256_add_epi32(_mm256_and_si256(V, fraction), round), 8);
        const __m256i FX = _mm256_permute4x64_epi64(_mm256_packus_epi32(fx, fx), 0x88);
        const __m256i FY = _mm256_permute4x64_epi64(_mm256_packus_epi32(fy, fy), 0x88);
        __m256i sums[4];
        for (int q = 0; q < 4; q++) {
            const __m256i tg = q < 2 ? t03 : t47, bg = q < 2 ? b03 : b47;
            const __m256i top = _mm256_cvtepu8_epi16(q % 2 == 0 ? _mm256_castsi256_si128(tg) : _mm256_extracti128_si256(tg, 1));
            const __m256i bottom = _mm256_cvtepu8_epi16(q % 2 == 0 ? _mm256_castsi256_si128(bg) : _mm256_extracti128_si256(bg, 1));
            const __m256i wy = _mm256_shuffle_epi8(FY, pick[q]), wx = _mm256_shuffle_epi8(FX, pick[q]);
            const __m256i column = _mm256_add_epi16(_mm256_mullo_epi16(top, _mm256_sub_epi16(full, wy)), _mm256_mullo_epi16(bottom, wy));
            // 256 − fx for the left tap's four channels, fx for the right one's.
            const __m256i across = _mm256_blend_epi32(_mm256_sub_epi16(full, wx), wx, 0xCC);
            const __m256i lo = _mm256_mullo_epi16(column, across), hi = _mm256_mulhi_epu16(column, across);
            const __m256i sum = _mm256_add_epi32(_mm256_unpacklo_epi16(lo, hi), _mm256_unpackhi_epi16(lo, hi));
            sums[q] = _mm256_srli_epi32(_mm256_add_epi32(sum, half), 16);
        }
        // Lanes hold pixels (0, 2, 4, 6) and (1, 3, 5, 7) after packing: put them in order.
        const __m256i bytes = _mm256_packus_epi16(_mm256_packs_epi32(sums[0], sums[1]), _mm256_packs_epi32(sums[2], sums[3]));
        _mm256_storeu_si256((__m256i *)(o + k * 4), _mm256_permutevar8x32_epi32(bytes, order));
    }
    return left + interior(window, stride, u, v, su, sv, n - k, o + k * 4, index + (int32_t)k, cx, cy,
                           rest + left, rest_x + left, rest_y + left);
}

/// True when a span's window positions (u, v) + t (su, sv), t in 0..<n, and its taps' byte
/// offsets fit interior_avx2's 32-bit lanes.
static inline int fits_32_bits(int64_t u, int64_t v, int64_t su, int64_t sv, ptrdiff_t n, ptrdiff_t stride) {
    const int64_t limit = INT32_MAX / 2;
    const int64_t lu = u + su * (n - 1), lv = v + sv * (n - 1);
    if (u < 0 || v < 0 || lu < 0 || lv < 0 || u > limit || v > limit || lu > limit || lv > limit) return 0;
    if (8 * (su < 0 ? -su : su) > limit || 8 * (sv < 0 ? -sv : sv) > limit) return 0;
    // The farthest tap: one row below and one pixel right of the farthest position.
    const int64_t column = ((u > lu ? u : lu) >> 16) + 1, row = ((v > lv ? v : lv) >> 16) + 1;
    return row * (int64_t)stride + column * 4 + 8 < INT32_MAX;
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

/// tegula_bilinear_spans, its interior spans blended in AVX2 when `avx2` is nonzero and the CPU
/// has it, else in SSE2 (the same bytes).
static ptrdiff_t warp_spans(const uint8_t *window, ptrdiff_t window_width, ptrdiff_t window_height, ptrdiff_t origin_x,
                            ptrdiff_t origin_y, ptrdiff_t source_width, ptrdiff_t source_height, const tegula_span *spans,
                            ptrdiff_t span_count, ptrdiff_t first, ptrdiff_t end, const uint8_t *mask, uint8_t *out,
                            int32_t *rest, double *rest_x, double *rest_y, int avx2) {
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
            if (avx2 && has_avx2 &&
                fits_32_bits(X - centre_x, Y - centre_y, step_x, step_y, stop - i, stride)) {
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

ptrdiff_t tegula_bilinear_spans(const uint8_t *window, ptrdiff_t window_width, ptrdiff_t window_height,
                                ptrdiff_t origin_x, ptrdiff_t origin_y, ptrdiff_t source_width, ptrdiff_t source_height,
                                const tegula_span *span_list, ptrdiff_t span_count, ptrdiff_t first, ptrdiff_t end,
                                const uint8_t *mask, uint8_t *out, int32_t *rest, double *rest_x, double *rest_y) {
    return warp_spans(window, window_width, window_height, origin_x, origin_y, source_width, source_height, span_list,
                 span_count, first, end, mask, out, rest, rest_x, rest_y, 1);
}

ptrdiff_t tegula_bilinear_spans_sse2(const uint8_t *window, ptrdiff_t window_width, ptrdiff_t window_height,
                                     ptrdiff_t origin_x, ptrdiff_t origin_y, ptrdiff_t source_width,
                                     ptrdiff_t source_height, const tegula_span *span_list, ptrdiff_t span_count,
                                     ptrdiff_t first, ptrdiff_t end, const uint8_t *mask, uint8_t *out, int32_t *rest,
                                     double *rest_x, double *rest_y) {
    return warp_spans(window, window_width, window_height, origin_x, origin_y, source_width, source_height, span_list,
                 span_count, first, end, mask, out, rest, rest_x, rest_y, 0);
}
