// libFuzzer target `tiff-deflate` (scripts/fuzz; replayed by scripts/test-sanitizers c-kernels): a
// (mutated) DEFLATE GeoTIFF's blocks decoded as TegulaWarp's TIFFBlockReader decodes them —
// libdeflate's zlib decompression of the block's bytes (TegulaDeflate's ZlibDecompressor, which
// the reader trusts when the stream fills the block exactly), then Predictor 2 undone by
// Sources/CKernels/tiff_lzw.c's tegula_tiff_undo_predictor8 — and compared with libtiff's bytes
// (tiff_blocks.h). Exact-size buffers: ASan reports any byte touched past the input or the block.
#include <libdeflate.h>
#include "tiff_blocks.h"

static struct libdeflate_decompressor *decompressor;

/// The reader's decode: the whole zlib stream into the block's bytes, no more and no fewer.
static int decode_deflate(const tiff_block *b, uint8_t *out) {
    size_t written = 0;
    const enum libdeflate_result r = libdeflate_zlib_decompress(decompressor, b->raw, b->raw_size, out, b->decoded_size, &written);
    FUZZ_CHECK(r != LIBDEFLATE_SUCCESS || written <= b->decoded_size, "libdeflate wrote %zu bytes into %zu", written, b->decoded_size);
    if (r != LIBDEFLATE_SUCCESS || written != b->decoded_size) return 0;
    if (b->predictor == 2) tegula_tiff_undo_predictor8(out, b->rows, b->row_bytes, b->samples);
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!decompressor) decompressor = libdeflate_alloc_decompressor();
    tiff_blocks_compare(data, size, COMPRESSION_ADOBE_DEFLATE, COMPRESSION_DEFLATE, decode_deflate);
    return 0;
}
