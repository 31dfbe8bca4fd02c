// See separable_row.h. The formula in doubles, in the order the header gives, so the bytes are
// the same on every machine and whatever part of the block is asked for.
#pragma STDC FP_CONTRACT OFF
#include "separable_row.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/// Taps a row's weights are kept for on the stack; a wider kernel allocates them once a call.
#define STACK_TAPS 64

/// Doubles beyond this magnitude are whole numbers (2^52), so they round to themselves.
#define WHOLE 4503599627370496.0

/// ⌊v⌋ and ⌈v⌉ as integers, exactly, without libm's calls (baseline x86-64 has no rounding
/// instruction): v minus its truncation is exact. `v` lies within the scan's reach.
static inline ptrdiff_t floor_int(double v) {
    ptrdiff_t t = (ptrdiff_t)v;
    return t - (v < (double)t);
}
static inline ptrdiff_t ceil_int(double v) {
    ptrdiff_t t = (ptrdiff_t)v;
    return t + (v > (double)t);
}

/// v rounded half away from zero (C's round), then clamped to 0...255; NaN gives 255.
static inline uint8_t clamp_round(double v) {
    double r = v;
    if (v > -WHOLE && v < WHOLE) {
        int64_t t = (int64_t)v;
        double f = v - (double)t;
        r = (double)(t + (f >= 0.5) - (f <= -0.5));
    }
    const double m = r < 255 ? r : 255;
    return (uint8_t)(m >= 0 ? m : 0);
}

/// The kernel's reach at `scale`: taps lie within it of the position.
static inline double reach(tegula_kernel kernel, double scale) {
    switch (kernel) {
    case TEGULA_KERNEL_CUBIC: return 2 * scale;
    case TEGULA_KERNEL_LANCZOS: return 3 * scale;
    case TEGULA_KERNEL_AVERAGE: return scale / 2 + 0.5;
    default: return 1 * scale;
    }
}

/// The weight of a tap `d` window pixels from the position (see tegula_kernel).
static inline double weight(tegula_kernel kernel, double d, double scale) {
    if (kernel == TEGULA_KERNEL_AVERAGE) {
        const double h = scale / 2, hi = d + 0.5 < h ? d + 0.5 : h, lo = d - 0.5 >= -h ? d - 0.5 : -h;
        const double covered = hi - lo;
        return covered >= 0 ? covered : 0;
    }
    const double x = fabs(d / scale);
    switch (kernel) {
    case TEGULA_KERNEL_CUBIC:
        if (x < 1) return (1.5 * x - 2.5) * x * x + 1;
        if (x < 2) return ((-0.5 * x + 2.5) * x - 4) * x + 2;
        return 0;
    case TEGULA_KERNEL_LANCZOS: {
        if (x == 0) return 1;
        if (x >= 3) return 0;
        const double px = M_PI * x;
        return 3 * sin(px) * sin(px / 3) / (px * px);
    }
    default: return x < 1 ? 1 - x : 0;
    }
}

/// One pixel at window position (bx, by) into `o`; `wx` has room for the row's taps.
static inline void pixel(const uint8_t *window, ptrdiff_t width, ptrdiff_t height, double bx, double by,
                         tegula_kernel kernel, double scale_x, double scale_y, double reach_x, double reach_y,
                         double *wx, uint8_t *o) {
    const double u = bx - 0.5, v = by - 0.5;
    ptrdiff_t x_lo = ceil_int(u - reach_x), x_hi = floor_int(u + reach_x);
    ptrdiff_t y_lo = ceil_int(v - reach_y), y_hi = floor_int(v + reach_y);
    if (x_lo < 0) x_lo = 0;
    if (y_lo < 0) y_lo = 0;
    if (x_hi > width - 1) x_hi = width - 1;
    if (y_hi > height - 1) y_hi = height - 1;
    if (x_lo > x_hi || y_lo > y_hi) { memset(o, 0, 4); return; }
    for (ptrdiff_t x = x_lo; x <= x_hi; x++) wx[x - x_lo] = weight(kernel, (double)x - u, scale_x);
    double sw = 0, sa = 0, sr = 0, sg = 0, sb = 0;
    for (ptrdiff_t y = y_lo; y <= y_hi; y++) {
        const double wy = weight(kernel, (double)y - v, scale_y);
        if (wy == 0) continue;
        const uint8_t *row = window + y * width * 4;
        for (ptrdiff_t x = x_lo; x <= x_hi; x++) {
            const double wt = wx[x - x_lo] * wy;
            if (wt == 0) continue;
            const uint8_t *p = row + x * 4;
            const double a = (double)p[3] * wt;
            sw += wt;
            sa += a;
            sr += a * (double)p[0];
            sg += a * (double)p[1];
            sb += a * (double)p[2];
        }
    }
    if (sw == 0 || !(sa > 0)) { memset(o, 0, 4); return; }
    o[0] = clamp_round(sr / sa);
    o[1] = clamp_round(sg / sa);
    o[2] = clamp_round(sb / sa);
    o[3] = clamp_round(sa / sw);
}

#if defined(__x86_64__)
#include <immintrin.h>

/// Taps along an axis that eight pixels at a time keep their weights for; wider kernels go pixel
/// by pixel.
#define LANE_TAPS 16

static int has_avx2;
__attribute__((constructor)) static void check_avx2(void) {
    __builtin_cpu_init();
    has_avx2 = __builtin_cpu_supports("avx2");
}

/// weight() in four lanes at once, lane for lane the same doubles (bilinear and cubic in vector
/// operations in weight()'s order, the others through weight() itself).
__attribute__((target("avx2"), always_inline)) static inline __m256d weights4(tegula_kernel kernel, __m256d d, double scale) {
    const __m256d one = _mm256_set1_pd(1), sign = _mm256_set1_pd(-0.0);
    if (kernel == TEGULA_KERNEL_BILINEAR || kernel == TEGULA_KERNEL_CUBIC) {
        const __m256d x = _mm256_andnot_pd(sign, _mm256_div_pd(d, _mm256_set1_pd(scale)));
        if (kernel == TEGULA_KERNEL_BILINEAR) return _mm256_and_pd(_mm256_cmp_pd(x, one, _CMP_LT_OQ), _mm256_sub_pd(one, x));
        const __m256d near = _mm256_add_pd(
            _mm256_mul_pd(_mm256_mul_pd(_mm256_sub_pd(_mm256_mul_pd(_mm256_set1_pd(1.5), x), _mm256_set1_pd(2.5)), x), x), one);
        const __m256d far = _mm256_add_pd(
            _mm256_mul_pd(
                _mm256_sub_pd(_mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(-0.5), x), _mm256_set1_pd(2.5)), x),
                              _mm256_set1_pd(4)),
                x),
            _mm256_set1_pd(2));
        const __m256d inner = _mm256_cmp_pd(x, one, _CMP_LT_OQ), within = _mm256_cmp_pd(x, _mm256_set1_pd(2), _CMP_LT_OQ);
        return _mm256_and_pd(within, _mm256_blendv_pd(far, near, inner));
    }
    double lanes[4];
    _mm256_storeu_pd(lanes, d);
    for (int k = 0; k < 4; k++) lanes[k] = weight(kernel, lanes[k], scale);
    return _mm256_loadu_pd(lanes);
}

/// The lanes of `v` (four 32-bit integers) widened to 64-bit masks.
__attribute__((target("avx2"), always_inline)) static inline __m256d wide_mask(__m128i v) {
    return _mm256_castsi256_pd(_mm256_cvtepi32_epi64(v));
}

/// The four RGBA pixels at byte offsets `at` of `window`, loaded one by one: AVX2's gather
/// took a third of the kernel's time on AMD's cores.
__attribute__((target("avx2"), always_inline)) static inline __m128i gather4(const uint8_t *window, __m128i at) {
    int32_t offset[4], p[4];
    _mm_storeu_si128((__m128i *)offset, at);
    for (int k = 0; k < 4; k++) memcpy(&p[k], window + offset[k], 4);
    return _mm_loadu_si128((const __m128i *)p);
}

/// clamp_round in four lanes, as four 32-bit integers.
__attribute__((target("avx2"), always_inline)) static inline __m128i clamp_round4(__m256d v) {
    const __m256d one = _mm256_set1_pd(1), t = _mm256_round_pd(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __m256d f = _mm256_sub_pd(v, t);
    __m256d r = _mm256_add_pd(t, _mm256_and_pd(_mm256_cmp_pd(f, _mm256_set1_pd(0.5), _CMP_GE_OQ), one));
    r = _mm256_sub_pd(r, _mm256_and_pd(_mm256_cmp_pd(f, _mm256_set1_pd(-0.5), _CMP_LE_OQ), one));
    const __m256d top = _mm256_set1_pd(255), zero = _mm256_setzero_pd();
    const __m256d m = _mm256_blendv_pd(top, r, _mm256_cmp_pd(r, top, _CMP_LT_OQ));
    return _mm256_cvttpd_epi32(_mm256_blendv_pd(zero, m, _mm256_cmp_pd(m, zero, _CMP_GE_OQ)));
}

/// Four pixels' lanes: their positions less half a pixel (u, v), first taps and tap counts less one.
typedef struct {
    __m256d u, v;
    __m128i x_lo, y_lo, nx, ny;
} lanes4;

/// The lanes of the pixels at window positions (bx[k], by[k]), k < 4: taps ⌈u − r⌉ … ⌊u + r⌋
/// within the window, as pixel() takes them.
__attribute__((target("avx2"), always_inline)) static inline lanes4 lanes_at(const double *bx, const double *by,
                                                                              double reach_x, double reach_y,
                                                                              __m128i last_x, __m128i last_y) {
    const __m256d half = _mm256_set1_pd(0.5), rx = _mm256_set1_pd(reach_x), ry = _mm256_set1_pd(reach_y);
    const __m128i zero = _mm_setzero_si128();
    lanes4 l;
    l.u = _mm256_sub_pd(_mm256_loadu_pd(bx), half);
    l.v = _mm256_sub_pd(_mm256_loadu_pd(by), half);
    l.x_lo = _mm_max_epi32(zero, _mm256_cvttpd_epi32(_mm256_ceil_pd(_mm256_sub_pd(l.u, rx))));
    l.y_lo = _mm_max_epi32(zero, _mm256_cvttpd_epi32(_mm256_ceil_pd(_mm256_sub_pd(l.v, ry))));
    const __m128i x_hi = _mm_min_epi32(last_x, _mm256_cvttpd_epi32(_mm256_floor_pd(_mm256_add_pd(l.u, rx))));
    const __m128i y_hi = _mm_min_epi32(last_y, _mm256_cvttpd_epi32(_mm256_floor_pd(_mm256_add_pd(l.v, ry))));
    l.nx = _mm_sub_epi32(x_hi, l.x_lo);
    l.ny = _mm_sub_epi32(y_hi, l.y_lo);
    return l;
}

/// The bytes of four pixels from their sums, into o[k] (pixel()'s ending, lane for lane).
__attribute__((target("avx2"), always_inline)) static inline void store4(__m256d sw, __m256d sa, __m256d sr, __m256d sg,
                                                                          __m256d sb, uint8_t *const *o) {
    const __m256d none = _mm256_or_pd(_mm256_cmp_pd(sw, _mm256_setzero_pd(), _CMP_EQ_OQ),
                                      _mm256_cmp_pd(sa, _mm256_setzero_pd(), _CMP_NGT_UQ));
    const __m128i r = clamp_round4(_mm256_div_pd(sr, sa)), g = clamp_round4(_mm256_div_pd(sg, sa));
    const __m128i b = clamp_round4(_mm256_div_pd(sb, sa)), alpha = clamp_round4(_mm256_div_pd(sa, sw));
    __m128i rgba = _mm_or_si128(_mm_or_si128(r, _mm_slli_epi32(g, 8)), _mm_or_si128(_mm_slli_epi32(b, 16), _mm_slli_epi32(alpha, 24)));
    // The lanes with no weight or no alpha: transparent black.
    const __m128i drop = _mm_cmpeq_epi32(_mm256_cvtpd_epi32(_mm256_and_pd(none, _mm256_set1_pd(1))), _mm_set1_epi32(1));
    rgba = _mm_andnot_si128(drop, rgba);
    uint32_t px[4];
    _mm_storeu_si128((__m128i *)px, rgba);
    for (int k = 0; k < 4; k++) memcpy(o[k], &px[k], 4);
}

/// pixel() for eight pixels at window positions (bx[k], by[k]) into o[k], as two sets of four
/// lanes whose sums grow side by side (one set alone waits on its additions); lane k does
/// pixel()'s operations in its order (a tap whose weight is 0 adds 0, which leaves every sum as
/// it is). Returns 0, writing nothing, when their taps along an axis exceed LANE_TAPS. The
/// window's bytes must fit 32-bit offsets.
__attribute__((target("avx2"))) static int pixels8(const uint8_t *window, ptrdiff_t width, ptrdiff_t height,
                                                   const double *bx, const double *by, tegula_kernel kernel,
                                                   double scale_x, double scale_y, double reach_x, double reach_y,
                                                   uint8_t *const *o) {
    const __m128i last_x = _mm_set1_epi32((int)width - 1), last_y = _mm_set1_epi32((int)height - 1);
    const lanes4 l[2] = {lanes_at(bx, by, reach_x, reach_y, last_x, last_y),
                         lanes_at(bx + 4, by + 4, reach_x, reach_y, last_x, last_y)};
    // The most taps of any lane along each axis.
    const __m128i nx = _mm_max_epi32(l[0].nx, l[1].nx), ny = _mm_max_epi32(l[0].ny, l[1].ny);
    __m128i most = _mm_max_epi32(_mm_unpacklo_epi64(nx, ny), _mm_unpackhi_epi64(nx, ny));
    most = _mm_max_epi32(most, _mm_shuffle_epi32(most, _MM_SHUFFLE(2, 3, 0, 1)));
    const int most_x = _mm_cvtsi128_si32(most) + 1, most_y = _mm_extract_epi32(most, 2) + 1;
    if (most_x > LANE_TAPS || most_y > LANE_TAPS) return 0;
    __m256d wx[2][LANE_TAPS];
    __m128i column[2][LANE_TAPS];
    for (int h = 0; h < 2; h++) {
        for (int i = 0; i < most_x; i++) {
            const __m128i x = _mm_add_epi32(l[h].x_lo, _mm_set1_epi32(i));
            const __m256d w = weights4(kernel, _mm256_sub_pd(_mm256_cvtepi32_pd(x), l[h].u), scale_x);
            wx[h][i] = _mm256_and_pd(w, wide_mask(_mm_cmpgt_epi32(l[h].nx, _mm_set1_epi32(i - 1))));
            column[h][i] = _mm_slli_epi32(_mm_min_epi32(x, last_x), 2);
        }
    }
    const __m128i stride = _mm_set1_epi32((int)width * 4), byte = _mm_set1_epi32(0xFF);
    __m256d sw[2], sa[2], sr[2], sg[2], sb[2];
    for (int h = 0; h < 2; h++) sw[h] = sa[h] = sr[h] = sg[h] = sb[h] = _mm256_setzero_pd();
    for (int j = 0; j < most_y; j++) {
        __m256d wy[2];
        __m128i row[2];
        for (int h = 0; h < 2; h++) {
            const __m128i y = _mm_add_epi32(l[h].y_lo, _mm_set1_epi32(j));
            wy[h] = _mm256_and_pd(weights4(kernel, _mm256_sub_pd(_mm256_cvtepi32_pd(y), l[h].v), scale_y),
                                  wide_mask(_mm_cmpgt_epi32(l[h].ny, _mm_set1_epi32(j - 1))));
            row[h] = _mm_mullo_epi32(_mm_min_epi32(y, last_y), stride);
        }
        for (int i = 0; i < most_x; i++) {
            for (int h = 0; h < 2; h++) {
                const __m256d wt = _mm256_mul_pd(wx[h][i], wy[h]);
                const __m128i p = gather4(window, _mm_add_epi32(row[h], column[h][i]));
                const __m256d a = _mm256_mul_pd(_mm256_cvtepi32_pd(_mm_srli_epi32(p, 24)), wt);
                sw[h] = _mm256_add_pd(sw[h], wt);
                sa[h] = _mm256_add_pd(sa[h], a);
                sr[h] = _mm256_add_pd(sr[h], _mm256_mul_pd(a, _mm256_cvtepi32_pd(_mm_and_si128(p, byte))));
                sg[h] = _mm256_add_pd(sg[h], _mm256_mul_pd(a, _mm256_cvtepi32_pd(_mm_and_si128(_mm_srli_epi32(p, 8), byte))));
                sb[h] = _mm256_add_pd(sb[h], _mm256_mul_pd(a, _mm256_cvtepi32_pd(_mm_and_si128(_mm_srli_epi32(p, 16), byte))));
            }
        }
    }
    store4(sw[0], sa[0], sr[0], sg[0], sb[0], o);
    store4(sw[1], sa[1], sr[1], sg[1], sb[1], o + 4);
    return 1;
}
#endif

/// tegula_separable_spans, eight pixels at a time in AVX2 when `avx2` is nonzero and the CPU has
/// it, else one at a time (the same bytes).
static void separable_spans(const uint8_t *window, ptrdiff_t window_width, ptrdiff_t window_height,
                            ptrdiff_t origin_x, ptrdiff_t origin_y, double window_scale_x, double window_scale_y,
                            ptrdiff_t source_width, ptrdiff_t source_height, const tegula_span *spans,
                            ptrdiff_t span_count, ptrdiff_t first, ptrdiff_t end, const uint8_t *mask, uint8_t *out,
                            tegula_kernel kernel, double scale_x, double scale_y, int avx2) {
    const double reach_x = reach(kernel, scale_x), reach_y = reach(kernel, scale_y);
    const double limit_x = (double)source_width, limit_y = (double)source_height;
    const double ox = (double)origin_x, oy = (double)origin_y;
    const int unit_x = window_scale_x == 1, unit_y = window_scale_y == 1;
    // Taps along x: at most 2·reach + 1, and never more than the window's width.
    const double taps = 2 * reach_x + 2;
    const size_t room = taps < (double)window_width + 1 ? (size_t)taps : (size_t)window_width + 1;
    double stack[STACK_TAPS];
    double *wx = room <= STACK_TAPS ? stack : malloc(room * sizeof(double));
    if (!wx) { memset(out, 0, (size_t)(end - first) * 4); return; }
#if defined(__x86_64__)
    avx2 = avx2 && has_avx2 && (double)window_width * (double)window_height * 4 < 2147483647.0;
#else
    avx2 = 0;
#endif
    // Pixels inside the scan and the mask, gathered eight at a time.
    double bx[8], by[8];
    uint8_t *o8[8];
    int held = 0;
    for (ptrdiff_t s = 0; s < span_count; s++) {
        const tegula_span sp = spans[s];
        const ptrdiff_t stop = sp.end < end ? sp.end : end;
        for (ptrdiff_t i = sp.start > first ? sp.start : first; i < stop; i++) {
            const double t = (double)(i - sp.start);
            const double x = sp.x + sp.dx * t, y = sp.y + sp.dy * t;
            uint8_t *o = out + (i - first) * 4;
            if (!(x >= 0 && y >= 0 && x < limit_x && y < limit_y) || (mask && mask[i - first] == 0)) {
                memset(o, 0, 4);
                continue;
            }
            // A window at full resolution divides by 1, which changes nothing: skipped.
            bx[held] = unit_x ? x - ox : (x - ox) / window_scale_x;
            by[held] = unit_y ? y - oy : (y - oy) / window_scale_y;
            o8[held++] = o;
            if (held < 8) continue;
            held = 0;
#if defined(__x86_64__)
            if (avx2 && pixels8(window, window_width, window_height, bx, by, kernel, scale_x, scale_y, reach_x, reach_y, o8))
                continue;
#endif
            for (int k = 0; k < 8; k++)
                pixel(window, window_width, window_height, bx[k], by[k], kernel, scale_x, scale_y, reach_x, reach_y, wx, o8[k]);
        }
    }
    for (int k = 0; k < held; k++)
        pixel(window, window_width, window_height, bx[k], by[k], kernel, scale_x, scale_y, reach_x, reach_y, wx, o8[k]);
    if (wx != stack) free(wx);
}

void tegula_separable_spans(const uint8_t *window, ptrdiff_t window_width, ptrdiff_t window_height,
                            ptrdiff_t origin_x, ptrdiff_t origin_y, double window_scale_x, double window_scale_y,
                            ptrdiff_t source_width, ptrdiff_t source_height, const tegula_span *spans,
                            ptrdiff_t span_count, ptrdiff_t first, ptrdiff_t end, const uint8_t *mask, uint8_t *out,
                            tegula_kernel kernel, double scale_x, double scale_y) {
    separable_spans(window, window_width, window_height, origin_x, origin_y, window_scale_x, window_scale_y,
                    source_width, source_height, spans, span_count, first, end, mask, out, kernel, scale_x, scale_y, 1);
}

void tegula_separable_spans_scalar(const uint8_t *window, ptrdiff_t window_width, ptrdiff_t window_height,
                                   ptrdiff_t origin_x, ptrdiff_t origin_y, double window_scale_x,
                                   double window_scale_y, ptrdiff_t source_width, ptrdiff_t source_height,
                                   const tegula_span *spans, ptrdiff_t span_count, ptrdiff_t first, ptrdiff_t end,
                                   const uint8_t *mask, uint8_t *out, tegula_kernel kernel, double scale_x,
                                   double scale_y) {
    separable_spans(window, window_width, window_height, origin_x, origin_y, window_scale_x, window_scale_y,
                    source_width, source_height, spans, span_count, first, end, mask, out, kernel, scale_x, scale_y, 0);
}
