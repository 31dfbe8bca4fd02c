// The C kernels (Sources/CKernels) against their headers' formulas, compiled with ASan and UBSan by
// scripts/test-sanitizers c-kernels: every SIMD path (SSSE3 PNG filter, AVX2 and SSE2 warp row,
// SSE2 halving) byte for byte against the scalar formula on rows of every length its tails meet,
// and the LZW decoder on streams this file's own encoder writes (TIFF 6.0 §13: MSB first, codes
// of 9–12 bits, the width growing one code early, Clear when the table is full), each cut at
// every capacity, and on malformed streams. Buffers have their exact sizes (the warp row's window
// against an unreadable page, for AVX2's gathers, which ASan does not see). Prints one line a
// kernel; exits 1 on any failure.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "halve.h"
#include "png_filter.h"
#include "separable_row.h"
#include "tiff_lzw.h"
#include "warp_row.h"

static int failures = 0;
#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (!(cond)) {                                                     \
            if (failures++ < 20) {                                         \
                fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);       \
                fprintf(stderr, __VA_ARGS__);                              \
                fprintf(stderr, "\n");                                     \
            }                                                              \
        }                                                                  \
    } while (0)

/// xorshift64*: the same bytes on every run.
static uint64_t state = 0x9E3779B97F4A7C15ull;
static uint32_t next_random(void) {
    state ^= state >> 12; state ^= state << 25; state ^= state >> 27;
    return (uint32_t)((state * 0x2545F4914F6CDD1Dull) >> 32);
}
static uint8_t *random_bytes(size_t n) {
    uint8_t *b = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++) b[i] = (uint8_t)next_random();
    return b;
}

// MARK: PNG Up filter, RGBA rows as RGB

static void png_filter(void) {
    int cases = 0;
    for (ptrdiff_t w = 0; w <= 67; w++) {
        for (int with_prev = 0; with_prev < 2; with_prev++) {
            uint8_t *cur = random_bytes((size_t)w * 4), *prev = with_prev ? random_bytes((size_t)w * 4) : NULL;
            uint8_t *out = malloc(w ? (size_t)w * 3 : 1);
            tegula_png_up_rgb_from_rgba(cur, prev, w, out);
            for (ptrdiff_t i = 0; i < w; i++)
                for (int c = 0; c < 3; c++)
                    CHECK(out[3 * i + c] == (uint8_t)(cur[4 * i + c] - (prev ? prev[4 * i + c] : 0)),
                          "png filter: width %td, prev %d, pixel %td channel %d", w, with_prev, i, c);
            free(cur); free(prev); free(out);
            cases++;
        }
    }
    printf("png_filter: %d rows (widths 0-67, with and without the row above) equal the formula\n", cases);
}

// MARK: Halving

static void halve(void) {
    int cases = 0;
    for (ptrdiff_t w = 2; w <= 34; w += 2) {
        for (ptrdiff_t h = 2; h <= 8; h += 2) {
            for (int mode = 0; mode < 3; mode++) {
                uint8_t *src = random_bytes((size_t)(w * h * 4));
                for (ptrdiff_t i = 0; i < w * h; i++) {
                    uint8_t *a = &src[i * 4 + 3];
                    *a = mode == 0 ? 255 : mode == 1 ? (*a < 128 ? 0 : 255) : *a;
                }
                uint8_t *dst = malloc((size_t)(w / 2 * h / 2 * 4));
                tegula_halve(src, w, h, dst);
                for (ptrdiff_t y = 0; y < h / 2; y++) {
                    for (ptrdiff_t x = 0; x < w / 2; x++) {
                        const uint8_t *p[4] = {src + ((2 * y) * w + 2 * x) * 4, src + ((2 * y) * w + 2 * x + 1) * 4,
                                               src + ((2 * y + 1) * w + 2 * x) * 4, src + ((2 * y + 1) * w + 2 * x + 1) * 4};
                        const uint8_t *o = dst + (y * (w / 2) + x) * 4;
                        const uint32_t sa = p[0][3] + p[1][3] + p[2][3] + p[3][3];
                        for (int c = 0; c < 4; c++) {
                            uint32_t want;
                            if (sa == 4 * 255) want = (p[0][c] + p[1][c] + p[2][c] + p[3][c] + 2) >> 2;
                            else if (sa == 0) want = 0;
                            else if (c == 3) want = (sa + 2) >> 2;
                            else want = (p[0][c] * p[0][3] + p[1][c] * p[1][3] + p[2][c] * p[2][3] + p[3][c] * p[3][3] + sa / 2) / sa;
                            CHECK(o[c] == want, "halve: %td x %td mode %d, pixel (%td, %td) channel %d: %u, the formula %u", w, h,
                                  mode, x, y, c, o[c], want);
                        }
                    }
                }
                free(src); free(dst);
                cases++;
            }
        }
    }
    printf("halve: %d images (opaque, opaque or transparent, any alpha) equal the formula\n", cases);
}

// MARK: Warp row

/// `size` bytes ending against a page no one may read (`at_start`: starting after one).
static uint8_t *guarded(size_t size, int at_start, uint8_t **map, size_t *map_size) {
    const size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = (size + page - 1) / page;
    *map_size = (pages + 2) * page;
    *map = mmap(NULL, *map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    mprotect(*map, page, PROT_NONE);
    mprotect(*map + (pages + 1) * page, page, PROT_NONE);
    return at_start ? *map + page : *map + (pages + 1) * page - size;
}

static int64_t fixed(double v) { return (int64_t)llround(v * 65536); }

/// One span over pixels 0..<n of a `w` × `h` window at the scan's origin, the scan as large;
/// AVX2 and SSE2, the window against a guard page before and after, against the formula.
static void warp_case(const uint8_t *window, ptrdiff_t w, ptrdiff_t h, tegula_span span, const char *what) {
    const ptrdiff_t n = span.end;
    uint8_t *out[4];
    int32_t *rest[4];
    double *rx[4], *ry[4];
    ptrdiff_t left[4];
    for (int r = 0; r < 4; r++) {
        uint8_t *map;
        size_t map_size;
        uint8_t *win = guarded((size_t)(w * h * 4), r & 1, &map, &map_size);
        memcpy(win, window, (size_t)(w * h * 4));
        out[r] = malloc((size_t)n * 4); rest[r] = malloc((size_t)n * 4);
        rx[r] = malloc((size_t)n * 8); ry[r] = malloc((size_t)n * 8);
        left[r] = (r >= 2 ? tegula_bilinear_spans_sse2 : tegula_bilinear_spans)(win, w, h, 0, 0, w, h, &span, 1, 0, n,
                                                                                NULL, out[r], rest[r], rx[r], ry[r]);
        munmap(map, map_size);
    }
    for (int r = 1; r < 4; r++)
        CHECK(left[r] == left[0] && !memcmp(out[r], out[0], (size_t)n * 4) && !memcmp(rest[r], rest[0], (size_t)left[0] * 4),
              "warp row %s: run %d differs from AVX2's", what, r);
    for (ptrdiff_t i = 0; i < n; i++) {
        int leftover = 0;
        for (ptrdiff_t k = 0; k < left[0]; k++) leftover |= rest[0][k] == i;
        const int64_t u = fixed(span.x) + i * fixed(span.dx) - 32768, v = fixed(span.y) + i * fixed(span.dy) - 32768;
        const int inside = u >= 0 && v >= 0 && (u >> 16) < w - 1 && (v >> 16) < h - 1;
        const uint8_t *p = inside ? window + ((v >> 16) * w + (u >> 16)) * 4 : NULL;
        const int opaque = inside && p[3] == 255 && p[7] == 255 && p[w * 4 + 3] == 255 && p[w * 4 + 7] == 255;
        // In the scan (which is the window here) with a tap outside the window or not opaque: the
        // caller's (the fuzz target warp-row checks masks, scans larger than the window, positions).
        const int64_t X = u + 32768, Y = v + 32768;
        if (!opaque && X >= 0 && Y >= 0 && X < w * 65536 && Y < h * 65536)
            CHECK(leftover, "warp row %s: pixel %td at (%.4f, %.4f), taps %s, not left to the caller", what, i, X / 65536.0,
                  Y / 65536.0, inside ? "not all opaque" : "outside the window");
        if (!opaque) continue;
        CHECK(!leftover, "warp row %s: pixel %td with opaque taps left to the caller", what, i);
        const int64_t fx = ((u & 0xFFFF) + 128) >> 8, fy = ((v & 0xFFFF) + 128) >> 8;
        for (int c = 0; c < 4; c++) {
            const int64_t l = p[c] * (256 - fy) + p[w * 4 + c] * fy, r = p[4 + c] * (256 - fy) + p[w * 4 + 4 + c] * fy;
            CHECK(out[0][i * 4 + c] == (l * (256 - fx) + r * fx + 32768) >> 16, "warp row %s: pixel %td channel %d", what, i, c);
        }
    }
    for (int r = 0; r < 4; r++) { free(out[r]); free(rest[r]); free(rx[r]); free(ry[r]); }
}

static void warp_row(void) {
    const ptrdiff_t w = 97, h = 61;
    uint8_t *window = random_bytes((size_t)(w * h * 4));
    for (ptrdiff_t i = 0; i < w * h; i++) window[i * 4 + 3] = i % 23 == 0 ? 90 : 255;
    int cases = 0;
    char what[64];
    for (ptrdiff_t n = 1; n <= 40; n++) {
        for (int k = 0; k < 6; k++) {
            tegula_span s = {0, n, 3.3 + k * 1.7, 2.9 + k * 6.1, 0.93 + k * 0.05, 0.011 * (k - 3)};
            snprintf(what, sizeof what, "n %td span %d", n, k);
            warp_case(window, w, h, s, what);
            // Right to left, and steep, ending at the window's last tap pair.
            tegula_span back = {0, n, (double)w - 1.5 - 1e-6, (double)h - 1.5 - 0.01 * k, -(double)(w - 2) / (double)(n + 1), -0.2};
            snprintf(what, sizeof what, "n %td backwards %d", n, k);
            warp_case(window, w, h, back, what);
            cases += 2;
        }
    }
    // Along the last column and the last row, and across them: a pixel there has a tap outside
    // the window, and is the caller's.
    for (ptrdiff_t n = 2; n <= 40; n += 3) {
        tegula_span down = {0, n, (double)w - 0.25, 0.5, 0, (double)(h - 1) / (double)n};
        tegula_span across = {0, n, 0.5, (double)h - 0.75, (double)(w - 1) / (double)n, 0};
        tegula_span out_of = {0, n, (double)w - 4.2, (double)h - 3.1, 0.35, 0.3};
        snprintf(what, sizeof what, "last column %td", n);
        warp_case(window, w, h, down, what);
        snprintf(what, sizeof what, "last row %td", n);
        warp_case(window, w, h, across, what);
        snprintf(what, sizeof what, "out of the corner %td", n);
        warp_case(window, w, h, out_of, what);
        cases += 3;
    }
    // Opaque everywhere: every pixel blended in AVX2's eight-pixel loop, none left.
    for (ptrdiff_t i = 0; i < w * h; i++) window[i * 4 + 3] = 255;
    for (ptrdiff_t n = 1; n <= 80; n += 7) {
        tegula_span s = {0, n, 0.5, 0.5, (double)(w - 2) / (double)n, (double)(h - 2) / (double)n};
        snprintf(what, sizeof what, "opaque diagonal %td", n);
        warp_case(window, w, h, s, what);
        cases++;
    }
    free(window);
    printf("warp_row: %d rows, AVX2 = SSE2 = the formula, the window against guard pages\n", cases);
}

// MARK: Separable kernels' row

/// The separable row eight pixels at a time (AVX2) against one at a time, every kernel at scales
/// 1–2.7, rows of 1–19 pixels over a window with translucent and transparent taps (its exact
/// size, so ASan sees a tap read past it), some starting on pixel centres (sums on exact halves).
static void separable_row(void) {
    const ptrdiff_t w = 53, h = 41;
    uint8_t *window = random_bytes((size_t)(w * h * 4));
    for (ptrdiff_t i = 0; i < w * h; i++) window[i * 4 + 3] = i % 11 == 0 ? 0 : i % 7 == 0 ? 120 : 255;
    const double scales[] = {1, 1.25, 1.5, 1.9, 2.7};
    int cases = 0;
    for (int k = 0; k < 4; k++) {
        for (int si = 0; si < 5; si++) {
            for (ptrdiff_t n = 1; n <= 19; n++) {
                double x = (next_random() % 1000) / 1000.0 * (w + 4) - 2, y = (next_random() % 1000) / 1000.0 * (h + 4) - 2;
                double dx = ((next_random() % 1000) / 1000.0 - 0.3) * 3, dy = ((next_random() % 1000) / 1000.0 - 0.5) * 1.5;
                if (n % 3 == 0) { x = (double)(next_random() % (w / 2)) + 0.5; y = (double)(next_random() % h) + 0.5; dx = 0.5; dy = 0; }
                tegula_span s = {0, n, x, y, dx, dy};
                uint8_t a[19 * 4], b[19 * 4];
                tegula_separable_spans(window, w, h, 0, 0, 1, 1, w, h, &s, 1, 0, n, NULL, a, (tegula_kernel)k, scales[si], 1);
                tegula_separable_spans_scalar(window, w, h, 0, 0, 1, 1, w, h, &s, 1, 0, n, NULL, b, (tegula_kernel)k, scales[si], 1);
                CHECK(memcmp(a, b, (size_t)n * 4) == 0, "separable row: kernel %d, scale %g, row of %td", k, scales[si], n);
                cases++;
            }
        }
    }
    free(window);
    printf("separable_row: %d rows, eight at a time = one at a time\n", cases);
}

// MARK: LZW

/// TIFF LZW of `in` (as libtiff's encoder writes it: Clear first, the code width growing as the
/// decoder's table reaches 511, 1023, 2047 entries, Clear when it would pass 4094, End last).
typedef struct { uint8_t *bytes; size_t size, room; uint64_t acc; int bits; } bit_writer;
static void put_code(bit_writer *b, unsigned code, int width) {
    b->acc = (b->acc << width) | code;
    b->bits += width;
    while (b->bits >= 8) {
        if (b->size == b->room) { b->room = b->room ? 2 * b->room : 256; b->bytes = realloc(b->bytes, b->room); }
        b->bytes[b->size++] = (uint8_t)(b->acc >> (b->bits - 8));
        b->bits -= 8;
    }
}
static uint8_t *lzw_encode(const uint8_t *in, size_t n, size_t *out_size) {
    enum { CLEAR = 256, END = 257, FIRST = 258 };
    static int32_t child[4096][256];  // (code, byte) -> code, 0 = none
    bit_writer b = {0};
    int width = 9;
    unsigned enext = FIRST, dnext = FIRST;  // the encoder's table, and the decoder's (one code behind)
    int first_after_clear = 1;
    memset(child, 0, sizeof child);
    put_code(&b, CLEAR, width);
    size_t i = 0;
    while (i < n) {
        unsigned code = in[i++];
        while (i < n && child[code][in[i]]) code = (unsigned)child[code][in[i++]];
        put_code(&b, code, width);
        if (!first_after_clear) {
            dnext++;
            if (dnext >= (1u << width) - 1 && width < 12) width++;
        }
        first_after_clear = 0;
        if (i < n) {
            child[code][in[i]] = (int32_t)enext++;
            if (enext >= 4094) {  // the table is full: start over
                put_code(&b, CLEAR, width);
                width = 9; enext = dnext = FIRST; first_after_clear = 1;
                memset(child, 0, sizeof child);
            }
        }
    }
    put_code(&b, END, width);
    if (b.bits) put_code(&b, 0, 8 - b.bits);
    *out_size = b.size;
    return b.bytes;
}

static ptrdiff_t decode_exact(const uint8_t *in, size_t in_size, uint8_t *out_copy, size_t capacity) {
    uint8_t *data = malloc(in_size ? in_size : 1), *out = malloc(capacity + TEGULA_LZW_SLACK);
    memcpy(data, in, in_size);
    const ptrdiff_t r = tegula_tiff_lzw_decode(data, in_size, out, capacity);
    if (out_copy && r > 0) memcpy(out_copy, out, (size_t)r);
    free(data); free(out);
    return r;
}

static void lzw(void) {
    int cases = 0, cuts = 0;
    const size_t sizes[] = {1, 2, 3, 17, 100, 1000, 5000, 20000, 70000};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        for (int kind = 0; kind < 4; kind++) {
            const size_t n = sizes[s];
            uint8_t *plain = random_bytes(n);
            // Noise (one or two bytes a code: the table fills, Clear), runs (long strings, the
            // code being assigned read at once), a few symbols, a gradient.
            for (size_t i = 0; i < n; i++)
                plain[i] = kind == 0 ? plain[i] : kind == 1 ? (uint8_t)(i / 300) : kind == 2 ? plain[i] % 3 : (uint8_t)(i % 251 + i / 997);
            size_t coded_size;
            uint8_t *coded = lzw_encode(plain, n, &coded_size);
            uint8_t *back = malloc(n);
            CHECK(decode_exact(coded, coded_size, back, n) == (ptrdiff_t)n && !memcmp(back, plain, n),
                  "lzw: %zu bytes of kind %d do not round-trip", n, kind);
            // Cut at every capacity (sampled for the long ones): the first bytes, exactly.
            const size_t step = n <= 1000 ? 1 : n / 97;
            for (size_t cap = 0; cap < n; cap += step) {
                CHECK(decode_exact(coded, coded_size, back, cap) == (ptrdiff_t)cap && !memcmp(back, plain, cap),
                      "lzw: %zu bytes of kind %d cut at %zu", n, kind, cap);
                cuts++;
            }
            // More room than data: the decode stops at End.
            CHECK(decode_exact(coded, coded_size, NULL, n + 100) == (ptrdiff_t)n, "lzw: %zu bytes of kind %d, room for more", n, kind);
            // The data cut short, anywhere: never more than the room, never a fault.
            for (size_t k = 0; k < coded_size; k += 1 + coded_size / 50) {
                const ptrdiff_t r = decode_exact(coded, k, NULL, n);
                CHECK(r >= -1 && r <= (ptrdiff_t)n, "lzw: data cut at %zu gave %td", k, r);
            }
            free(plain); free(coded); free(back);
            cases++;
        }
    }
    // Malformed: a code not yet assigned, a string code straight after Clear, no Clear first, the
    // old-style form.
    bit_writer b = {0};
    put_code(&b, 256, 9); put_code(&b, 65, 9); put_code(&b, 300, 9); put_code(&b, 0, 7);
    CHECK(decode_exact(b.bytes, b.size, NULL, 10) == -1, "lzw: a code beyond the next free one is not refused");
    b.size = 0; b.bits = 0; b.acc = 0;
    put_code(&b, 256, 9); put_code(&b, 258, 9); put_code(&b, 0, 6);
    CHECK(decode_exact(b.bytes, b.size, NULL, 10) == -1, "lzw: a string code straight after Clear is not refused");
    b.size = 0; b.bits = 0; b.acc = 0;
    put_code(&b, 65, 9); put_code(&b, 66, 9); put_code(&b, 257, 9); put_code(&b, 0, 5);
    CHECK(decode_exact(b.bytes, b.size, NULL, 2) == -1, "lzw: data not beginning with Clear are not refused (libtiff refuses them)");
    const uint8_t old_style[] = {0x00, 0x01, 0x41, 0x00};
    CHECK(decode_exact(old_style, sizeof old_style, NULL, 10) == -1, "lzw: the old-style form is not refused");
    free(b.bytes);
    printf("lzw: %d streams round-trip, cut at %d capacities, and four malformed streams are refused\n", cases, cuts);
}

// MARK: Predictor 2

static void predictor(void) {
    int cases = 0;
    for (ptrdiff_t samples = 1; samples <= 4; samples++) {
        for (ptrdiff_t width = 1; width <= 9; width++) {
            const ptrdiff_t rows = 3, row_bytes = width * samples;
            uint8_t *data = random_bytes((size_t)(rows * row_bytes)), *want = malloc((size_t)(rows * row_bytes));
            memcpy(want, data, (size_t)(rows * row_bytes));
            for (ptrdiff_t r = 0; r < rows; r++)
                for (ptrdiff_t i = samples; i < row_bytes; i++) want[r * row_bytes + i] += want[r * row_bytes + i - samples];
            tegula_tiff_undo_predictor8(data, rows, row_bytes, samples);
            CHECK(!memcmp(data, want, (size_t)(rows * row_bytes)), "predictor: %td samples, width %td", samples, width);
            free(data); free(want);
            cases++;
        }
    }
    printf("predictor: %d blocks equal the running sum\n", cases);
}

int main(void) {
    png_filter();
    halve();
    warp_row();
    separable_row();
    lzw();
    predictor();
    if (failures) { printf("FAILED: %d checks\n", failures); return 1; }
    printf("all C kernel checks passed\n");
    return 0;
}
