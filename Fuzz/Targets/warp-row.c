// libFuzzer target `warp-row` (scripts/fuzz; replayed by scripts/test-sanitizers c-kernels): the
// bilinear warp row, Sources/CKernels/warp_row.c, on a window, spans, a mask and a part of the row
// all taken from the input. Checked against warp_row.h's promises:
// - the AVX2 blend (where the CPU has it) and the SSE2 one give the same pixels and leave the same
//   pixels, at the same positions, to the caller;
// - a pixel outside the scan or masked out is transparent black; one whose four taps lie in the
//   window and are opaque is their weighted mean to 1/256 px, by the formula in integers; every
//   other pixel is left to the caller once, at its position (start + t · step in 16.16 fixed
//   point, each rounded once, halves away from zero).
// The window lies against an unreadable page, once ending at it and once starting after it: AVX2's
// gathers are not seen by ASan, a tap read outside the window is then a SEGV. Output, mask and
// the caller's lists have their exact sizes for ASan.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "warp_row.h"

#define ONE 65536
#define FAIL(...) do { fprintf(stderr, "fuzz: promise broken: " __VA_ARGS__); fprintf(stderr, "\n"); abort(); } while (0)

/// The input read a byte at a time; zeros once it is used up.
typedef struct { const uint8_t *p; size_t left; } input;
static uint8_t byte(input *in) { if (!in->left) return 0; in->left--; return *in->p++; }
static int16_t i16(input *in) { uint16_t a = byte(in); return (int16_t)(a | (uint16_t)byte(in) << 8); }
static double raw_double(input *in) {
    uint64_t b = 0;
    for (int i = 0; i < 8; i++) b |= (uint64_t)byte(in) << (8 * i);
    double d;
    memcpy(&d, &b, 8);
    return d;
}

/// `size` bytes ending against (or, `at_start`, starting after) a page no one may read.
typedef struct { uint8_t *map; size_t map_size; uint8_t *bytes; } guarded;
static guarded guard(size_t size, int at_start) {
    const size_t page = (size_t)sysconf(_SC_PAGESIZE), data_pages = (size + page - 1) / page;
    guarded g;
    g.map_size = (data_pages + 2) * page;
    g.map = mmap(NULL, g.map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (g.map == MAP_FAILED) abort();
    mprotect(g.map, page, PROT_NONE);
    mprotect(g.map + (data_pages + 1) * page, page, PROT_NONE);
    g.bytes = at_start ? g.map + page : g.map + (data_pages + 1) * page - size;
    return g;
}

typedef struct {
    uint8_t *pixels;
    int32_t *rest;
    double *rest_x, *rest_y;
    ptrdiff_t left;
} row;

static int fits(double v) { return v > -1073741824.0 && v < 1073741824.0; }
static int64_t rounded(double v) { return (v > -4503599627370496.0 && v < 4503599627370496.0) ? (int64_t)llround(v) : 0; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    input in = {data, size};
    const ptrdiff_t ww = 2 + byte(&in) % 40, wh = 2 + byte(&in) % 24;
    const ptrdiff_t ox = byte(&in) % 16, oy = byte(&in) % 16;
    const ptrdiff_t sw = 1 + byte(&in) % 72, sh = 1 + byte(&in) % 56;
    const ptrdiff_t first = byte(&in) % 8, n = byte(&in) % 80, end = first + n;
    const uint8_t flags = byte(&in);
    const int with_mask = flags & 1, alpha_mode = (flags >> 1) & 3;
    // Spans partition [first - a, end + b): cut points in order, each span's position near the window.
    const int span_count = 1 + byte(&in) % 4;
    ptrdiff_t cuts[5];
    cuts[0] = first - byte(&in) % 4;
    for (int s = 1; s < span_count; s++) cuts[s] = first + (n ? byte(&in) % (n + 1) : 0);
    cuts[span_count] = end + byte(&in) % 4;
    for (int s = 1; s < span_count; s++)  // sorted (insertion sort of the few cuts)
        for (int k = s; k > 1 && cuts[k] < cuts[k - 1]; k--) { ptrdiff_t t = cuts[k]; cuts[k] = cuts[k - 1]; cuts[k - 1] = t; }
    tegula_span spans[4];
    for (int s = 0; s < span_count; s++) {
        const uint8_t how = byte(&in);
        spans[s].start = cuts[s];
        spans[s].end = cuts[s + 1];
        spans[s].x = (double)ox - 2 + (double)(uint16_t)i16(&in) / 65536.0 * (double)(ww + 4);
        spans[s].y = (double)oy - 2 + (double)(uint16_t)i16(&in) / 65536.0 * (double)(wh + 4);
        spans[s].dx = (double)i16(&in) / 16384.0;   // −2 … 2 px a pixel
        spans[s].dy = (double)i16(&in) / 65536.0;   // −0.5 … 0.5
        if (how & 1) spans[s].x = raw_double(&in);   // anything: huge, negative, NaN
        if (how & 2) spans[s].dy = raw_double(&in);
        if (how & 4) spans[s].dx = (how & 8) ? 1.0 : -1.0 / 3.0;
    }
    const size_t window_bytes = (size_t)(ww * wh * 4);
    uint8_t *pixels = malloc(window_bytes);
    for (size_t i = 0; i < window_bytes; i++) pixels[i] = in.left ? data[size - in.left + i % in.left] : (uint8_t)(i * 37);
    for (ptrdiff_t i = 0; i < ww * wh; i++) {
        uint8_t *a = &pixels[i * 4 + 3];
        *a = alpha_mode == 0 ? 255 : alpha_mode == 1 ? *a : alpha_mode == 2 ? (*a % 11 == 0 ? *a / 2 : 255) : (*a < 16 ? 0 : 255);
    }
    uint8_t *mask = NULL;
    if (with_mask) {
        mask = malloc(n ? (size_t)n : 1);
        for (ptrdiff_t i = 0; i < n; i++) mask[i] = (uint8_t)(pixels[(i * 7) % (ptrdiff_t)window_bytes] & 1);
    }

    // Four runs: AVX2 (where present) and SSE2, the window against a page before it and after it.
    row runs[4];
    for (int r = 0; r < 4; r++) {
        guarded g = guard(window_bytes, r & 1);
        memcpy(g.bytes, pixels, window_bytes);
        row *o = &runs[r];
        o->pixels = malloc(n ? (size_t)n * 4 : 1);
        o->rest = malloc(n ? (size_t)n * sizeof(int32_t) : 1);
        o->rest_x = malloc(n ? (size_t)n * sizeof(double) : 1);
        o->rest_y = malloc(n ? (size_t)n * sizeof(double) : 1);
        memset(o->pixels, 0xEE, n ? (size_t)n * 4 : 1);
        o->left = (r >= 2 ? tegula_bilinear_spans_sse2 : tegula_bilinear_spans)(
            g.bytes, ww, wh, ox, oy, sw, sh, spans, span_count, first, end, mask, o->pixels, o->rest, o->rest_x, o->rest_y);
        munmap(g.map, g.map_size);
        if (o->left < 0 || o->left > n) FAIL("%td pixels left of %td", o->left, n);
    }
    for (int r = 1; r < 4; r++) {
        if (runs[r].left != runs[0].left || memcmp(runs[r].pixels, runs[0].pixels, (size_t)n * 4) ||
            memcmp(runs[r].rest, runs[0].rest, (size_t)runs[0].left * sizeof(int32_t)) ||
            memcmp(runs[r].rest_x, runs[0].rest_x, (size_t)runs[0].left * sizeof(double)) ||
            memcmp(runs[r].rest_y, runs[0].rest_y, (size_t)runs[0].left * sizeof(double)))
            FAIL("run %d (%s, window %s a guard page) differs from AVX2's", r, r >= 2 ? "SSE2" : "AVX2",
                 r & 1 ? "after" : "before");
    }

    // Each pixel against the formula.
    const row *o = &runs[0];
    int8_t *left_at = calloc(n ? (size_t)n : 1, 1);
    for (ptrdiff_t k = 0; k < o->left; k++) {
        if (o->rest[k] < 0 || o->rest[k] >= n || left_at[o->rest[k]]) FAIL("left index %d out of range or twice", o->rest[k]);
        left_at[o->rest[k]] = (int8_t)(k + 1 > 127 ? 127 : k + 1);
    }
    const int64_t cx = (int64_t)ox * ONE + ONE / 2, cy = (int64_t)oy * ONE + ONE / 2;
    for (int s = 0; s < span_count; s++) {
        const tegula_span sp = spans[s];
        const ptrdiff_t from = sp.start > first ? sp.start : first, stop = sp.end < end ? sp.end : end;
        if (from >= stop) continue;
        const double t1 = (double)(stop - 1 - sp.start);
        const int fixed = fits(sp.x) && fits(sp.y) && fits(sp.x + sp.dx * t1) && fits(sp.y + sp.dy * t1);
        for (ptrdiff_t i = from; i < stop; i++) {
            const uint8_t *px = o->pixels + (i - first) * 4;
            const int masked = mask && mask[i - first] == 0;
            const double t = (double)(i - sp.start);
            ptrdiff_t k = -1;
            for (ptrdiff_t j = 0; j < o->left; j++) if (o->rest[j] == i - first) k = j;
            if (!fixed) {
                const double x = sp.x + sp.dx * t, y = sp.y + sp.dy * t;
                const int inside = x >= 0 && y >= 0 && x < (double)sw && y < (double)sh && !masked;
                if (inside != (k >= 0)) FAIL("pixel %td (doubles): inside %d, left %d", i, inside, k >= 0);
                if (k >= 0 && (o->rest_x[k] != x || o->rest_y[k] != y)) FAIL("pixel %td left at the wrong position", i);
                if (!inside && (px[0] | px[1] | px[2] | px[3])) FAIL("pixel %td outside is not transparent", i);
                continue;
            }
            const int64_t X = rounded(sp.x * ONE) + rounded(sp.dx * ONE) * (int64_t)(i - sp.start);
            const int64_t Y = rounded(sp.y * ONE) + rounded(sp.dy * ONE) * (int64_t)(i - sp.start);
            if (!(X >= 0 && Y >= 0 && X < (int64_t)sw * ONE && Y < (int64_t)sh * ONE) || masked) {
                if (k >= 0 || (px[0] | px[1] | px[2] | px[3])) FAIL("pixel %td outside the scan or masked is not transparent black", i);
                continue;
            }
            const int64_t u = X - cx, v = Y - cy;
            const int in_window = u >= 0 && v >= 0 && (u >> 16) < ww - 1 && (v >> 16) < wh - 1;
            const uint8_t *p00 = in_window ? pixels + (v >> 16) * ww * 4 + (u >> 16) * 4 : NULL;
            const int opaque = in_window && p00[3] == 255 && p00[7] == 255 && p00[ww * 4 + 3] == 255 && p00[ww * 4 + 7] == 255;
            if (!opaque) {
                if (k < 0) FAIL("pixel %td (taps in window %d) not left to the caller", i, in_window);
                if (o->rest_x[k] != (double)X / ONE || o->rest_y[k] != (double)Y / ONE)
                    FAIL("pixel %td left at (%.17g, %.17g), not (%.17g, %.17g)", i, o->rest_x[k], o->rest_y[k],
                         (double)X / ONE, (double)Y / ONE);
                continue;
            }
            if (k >= 0) FAIL("pixel %td with four opaque taps in the window left to the caller", i);
            const int64_t fx = ((u & (ONE - 1)) + 128) >> 8, fy = ((v & (ONE - 1)) + 128) >> 8;
            for (int c = 0; c < 4; c++) {
                const int64_t l = p00[c] * (256 - fy) + p00[ww * 4 + c] * fy, r = p00[4 + c] * (256 - fy) + p00[ww * 4 + 4 + c] * fy;
                const int64_t want = (l * (256 - fx) + r * fx + 32768) >> 16;
                if (px[c] != want) FAIL("pixel %td channel %d: %u, the formula %lld", i, c, px[c], (long long)want);
            }
        }
    }
    free(left_at);
    for (int r = 0; r < 4; r++) { free(runs[r].pixels); free(runs[r].rest); free(runs[r].rest_x); free(runs[r].rest_y); }
    free(pixels);
    free(mask);
    return 0;
}
