// libFuzzer target `png-filter` (scripts/fuzz; replayed by scripts/test-sanitizers c-kernels): the
// PNG Up filter of RGBA rows written as RGB, Sources/CKernels/png_filter.c (SSSE3 where the CPU
// has it, four pixels a 16-byte load and store), against the formula of png_filter.h:
// out[3i + c] = cur[4i + c] − prev[4i + c] mod 256. The input: one byte whose low bit says
// whether there is a row above, then the row (4 × width bytes) and the row above (as many).
// Rows and output have their exact sizes, so ASan reports the SIMD loop's loads or its 16-byte
// stores reaching past them.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "png_filter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    const int with_prev = data[0] & 1;
    const size_t width = (size - 1) / (with_prev ? 8 : 4);
    // Exact sizes (malloc(0) may give NULL, which the kernel would not be handed).
    uint8_t *cur = malloc(width ? 4 * width : 1), *prev = with_prev ? malloc(width ? 4 * width : 1) : NULL;
    uint8_t *out = malloc(width ? 3 * width : 1);
    memcpy(cur, data + 1, 4 * width);
    if (prev) memcpy(prev, data + 1 + 4 * width, 4 * width);
    tegula_png_up_rgb_from_rgba(cur, prev, (ptrdiff_t)width, out);
    for (size_t i = 0; i < width; i++) {
        for (int c = 0; c < 3; c++) {
            const uint8_t want = (uint8_t)(cur[4 * i + c] - (prev ? prev[4 * i + c] : 0));
            if (out[3 * i + c] != want) {
                fprintf(stderr, "fuzz: promise broken: pixel %zu of %zu, channel %d: %u, the formula %u\n", i, width, c,
                        out[3 * i + c], want);
                abort();
            }
        }
    }
    free(cur);
    free(prev);
    free(out);
    return 0;
}
