// libFuzzer target `tiff-lzw` (scripts/fuzz; replayed by scripts/test-sanitizers c-kernels): a
// (mutated) LZW GeoTIFF's blocks decoded by Sources/CKernels/tiff_lzw.c as TegulaWarp's
// TIFFBlockReader decodes them, compared with libtiff's bytes (tiff_blocks.h). tiff_lzw.c writes
// up to 15 bytes past a string's end by design and reads untrusted bytes: every buffer here has
// its exact size, so ASan reports any byte it touches beyond the input or the block's
// TEGULA_LZW_SLACK. Besides the whole block, each is decoded again to shorter capacities (the
// reader decodes only the rows of a tile inside the raster): a decode that fills a shorter
// capacity gives the first bytes of the whole block's.
#include "tiff_blocks.h"

/// The reader's decode: LZW into the block, Predictor 2 undone.
static int decode_lzw(const tiff_block *b, uint8_t *out) {
    const ptrdiff_t n = tegula_tiff_lzw_decode(b->raw, b->raw_size, out, b->decoded_size);
    FUZZ_CHECK(n >= -1 && n <= (ptrdiff_t)b->decoded_size, "the decoder returned %td for a %zu-byte block", n, b->decoded_size);
    if (n != (ptrdiff_t)b->decoded_size) return 0;
    // The same decode cut short: one row, the rows but the last, and an odd byte count.
    uint8_t *whole = malloc(b->decoded_size);
    memcpy(whole, out, b->decoded_size);
    const size_t cuts[3] = {(size_t)b->row_bytes, (size_t)(b->rows - 1) * (size_t)b->row_bytes, b->decoded_size / 3 + 1};
    for (int c = 0; c < 3; c++) {
        const size_t cap = cuts[c];
        if (cap == 0 || cap >= b->decoded_size) continue;
        uint8_t *part = malloc(cap + TEGULA_LZW_SLACK);
        const ptrdiff_t m = tegula_tiff_lzw_decode(b->raw, b->raw_size, part, cap);
        FUZZ_CHECK(m == (ptrdiff_t)cap, "the block decodes whole but only %td of its first %zu bytes", m, cap);
        FUZZ_CHECK(memcmp(part, whole, cap) == 0, "the block's first %zu bytes decode differently alone", cap);
        free(part);
    }
    free(whole);
    if (b->predictor == 2) tegula_tiff_undo_predictor8(out, b->rows, b->row_bytes, b->samples);
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    tiff_blocks_compare(data, size, COMPRESSION_LZW, COMPRESSION_LZW, decode_lzw);
    return 0;
}
