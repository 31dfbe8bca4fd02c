// What the fuzz targets tiff-lzw and tiff-deflate share: the input, a (mutated) GeoTIFF, opened
// from memory by libtiff, and each of its blocks (tile or strip) decoded twice, by Tegula's path
// (a function the target gives) and by libtiff (TIFFReadEncodedTile/Strip: what GDAL reads).
// Tegula's reader (TegulaWarp's TIFFBlockReader) takes a block's bytes from the file by the
// offsets and sizes libtiff reports (GDAL's BLOCK_OFFSET_x_y, BLOCK_SIZE_x_y), decodes them into
// a buffer with TEGULA_LZW_SLACK bytes of room, undoes Predictor 2 with
// tegula_tiff_undo_predictor8, and trusts the bytes when the decoder says it filled the block.
// The promise checked: whenever Tegula's decode fills a block, libtiff decodes the same block to
// the same bytes. Every buffer is allocated at its exact size, so ASan reports a byte read or
// written past it.
#ifndef TEGULA_FUZZ_TIFF_BLOCKS_H
#define TEGULA_FUZZ_TIFF_BLOCKS_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>
#include "tiff_lzw.h"

/// Blocks larger than this, or more of them, are skipped: the fuzzer's inputs are small, and a
/// header claiming gigapixels would only measure malloc.
enum { MAX_BLOCK_BYTES = 1 << 22, MAX_BLOCKS = 1024 };

/// The input as a read-only file for TIFFClientOpen.
typedef struct {
    const uint8_t *data;
    size_t size;
    size_t at;
} memory_file;

static tmsize_t mf_read(thandle_t h, void *buf, tmsize_t n) {
    memory_file *f = (memory_file *)h;
    if (n < 0) return -1;
    size_t left = f->at < f->size ? f->size - f->at : 0, k = (size_t)n < left ? (size_t)n : left;
    if (k) memcpy(buf, f->data + f->at, k);
    f->at += k;
    return (tmsize_t)k;
}
static tmsize_t mf_write(thandle_t h, void *buf, tmsize_t n) { (void)h; (void)buf; (void)n; return -1; }
static toff_t mf_seek(thandle_t h, toff_t off, int whence) {
    memory_file *f = (memory_file *)h;
    uint64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? f->at : f->size;
    if (off > UINT64_MAX - base) return (toff_t)-1;
    f->at = (size_t)(base + off);
    return (toff_t)f->at;
}
static int mf_close(thandle_t h) { (void)h; return 0; }
static toff_t mf_size(thandle_t h) { return ((memory_file *)h)->size; }
static int mf_map(thandle_t h, void **base, toff_t *size) { (void)h; (void)base; (void)size; return 0; }
static void mf_unmap(thandle_t h, void *base, toff_t size) { (void)h; (void)base; (void)size; }

/// One block as Tegula's reader sees it.
typedef struct {
    const uint8_t *raw;    /// the block's bytes in the file (an exact-size copy)
    size_t raw_size;
    size_t decoded_size;   /// what libtiff decodes the block to
    ptrdiff_t rows;        /// rows in the decoded block
    ptrdiff_t row_bytes;   /// bytes a row
    ptrdiff_t samples;     /// bytes a pixel
    int predictor;         /// 1 or 2
} tiff_block;

/// Tegula's decode of `b` into `out` (b->decoded_size bytes and TEGULA_LZW_SLACK more); returns
/// whether it filled the block (the reader then uses the bytes).
typedef int (*tegula_decode)(const tiff_block *b, uint8_t *out);

/// Crashes with a message: a promise of the decoder does not hold (the fuzzer keeps the input).
#define FUZZ_CHECK(cond, ...)                                   \
    do {                                                        \
        if (!(cond)) {                                          \
            fprintf(stderr, "fuzz: promise broken: " __VA_ARGS__); \
            fprintf(stderr, "\n");                              \
            abort();                                            \
        }                                                       \
    } while (0)

/// Runs `decode` and libtiff on every block of the input's first image when it is compressed with
/// `compression` (COMPRESSION_LZW, or either DEFLATE tag for `compression_alt`), 8-bit samples,
/// contiguous, Predictor 1 or 2; any other input is ignored.
static void tiff_blocks_compare(const uint8_t *data, size_t size, uint16_t compression, uint16_t compression_alt,
                                tegula_decode decode) {
    if (!getenv("TEGULA_FUZZ_VERBOSE")) {  // libtiff's messages, only when asked for
        TIFFSetErrorHandler(NULL);
        TIFFSetWarningHandler(NULL);
    }
    memory_file f = {data, size, 0};
    TIFF *t = TIFFClientOpen("fuzz.tif", "rm", (thandle_t)&f, mf_read, mf_write, mf_seek, mf_close, mf_size, mf_map, mf_unmap);
    if (!t) return;
    uint16_t comp = 0, bits = 0, spp = 0, planar = PLANARCONFIG_CONTIG, predictor = 1, photometric = 0;
    uint32_t width = 0, height = 0;
    if (!TIFFGetField(t, TIFFTAG_COMPRESSION, &comp) || (comp != compression && comp != compression_alt) ||
        !TIFFGetField(t, TIFFTAG_IMAGEWIDTH, &width) || !TIFFGetField(t, TIFFTAG_IMAGELENGTH, &height) ||
        !TIFFGetFieldDefaulted(t, TIFFTAG_BITSPERSAMPLE, &bits) || bits != 8 ||
        !TIFFGetFieldDefaulted(t, TIFFTAG_SAMPLESPERPIXEL, &spp) || spp < 1 || spp > 4 ||
        (TIFFGetField(t, TIFFTAG_PLANARCONFIG, &planar) && planar != PLANARCONFIG_CONTIG) ||
        (TIFFGetField(t, TIFFTAG_PHOTOMETRIC, &photometric) && photometric == PHOTOMETRIC_YCBCR) || width == 0 ||
        height == 0) {
        TIFFClose(t);
        return;
    }
    TIFFGetFieldDefaulted(t, TIFFTAG_PREDICTOR, &predictor);
    if (predictor != 1 && predictor != 2) { TIFFClose(t); return; }
    const int tiled = TIFFIsTiled(t);
    uint32_t bw = width, bh = 0;
    if (tiled) {
        if (!TIFFGetField(t, TIFFTAG_TILEWIDTH, &bw) || !TIFFGetField(t, TIFFTAG_TILELENGTH, &bh)) { TIFFClose(t); return; }
    } else {
        TIFFGetFieldDefaulted(t, TIFFTAG_ROWSPERSTRIP, &bh);
        if (bh > height) bh = height;
    }
    const uint32_t blocks = tiled ? TIFFNumberOfTiles(t) : TIFFNumberOfStrips(t);
    uint64_t *offsets = NULL, *counts = NULL;
    if (bw == 0 || bh == 0 || blocks == 0 || blocks > MAX_BLOCKS ||
        !TIFFGetField(t, tiled ? TIFFTAG_TILEOFFSETS : TIFFTAG_STRIPOFFSETS, &offsets) ||
        !TIFFGetField(t, tiled ? TIFFTAG_TILEBYTECOUNTS : TIFFTAG_STRIPBYTECOUNTS, &counts) || !offsets || !counts) {
        TIFFClose(t);
        return;
    }
    const ptrdiff_t row_bytes = (ptrdiff_t)bw * spp;
    int old_style_seen = 0;
    for (uint32_t i = 0; i < blocks; i++) {
        // Strips: the last holds the rows left; tiles are whole.
        ptrdiff_t rows = tiled ? (ptrdiff_t)bh : (ptrdiff_t)((height - i * bh) < bh ? height - i * bh : bh);
        if (!tiled && (uint64_t)i * bh >= height) break;
        const uint64_t decoded = (uint64_t)rows * (uint64_t)row_bytes;
        const uint64_t expected = tiled ? (uint64_t)TIFFTileSize64(t) : (uint64_t)TIFFVStripSize64(t, (uint32_t)rows);
        if (decoded == 0 || decoded > MAX_BLOCK_BYTES || decoded != expected) continue;
        if (counts[i] == 0 || offsets[i] > size || counts[i] > size - offsets[i]) continue;
        tiff_block b = {NULL, (size_t)counts[i], (size_t)decoded, rows, row_bytes, spp, predictor};
        uint8_t *raw = malloc(b.raw_size);
        memcpy(raw, data + offsets[i], b.raw_size);
        b.raw = raw;
        uint8_t *mine = malloc(b.decoded_size + TEGULA_LZW_SLACK), *theirs = malloc(b.decoded_size);
        const int filled = decode(&b, mine);
        // libtiff 4.5 keeps its old-style LZW decoder for every block of the file after one that
        // needed it (LZWPreDecode switches tif_decodetile and never back), so a new-style block
        // after an old-style one fails there or decodes as old-style, by the order blocks were
        // read. Tegula refuses old-style blocks and decodes the others alike in any order: after
        // one, each block is compared with a fresh handle's decode.
        memory_file g = {data, size, 0};
        TIFF *d = old_style_seen ? TIFFClientOpen("fuzz.tif", "rm", (thandle_t)&g, mf_read, mf_write, mf_seek, mf_close,
                                                  mf_size, mf_map, mf_unmap) : t;
        const tmsize_t n = !d ? -1 : tiled ? TIFFReadEncodedTile(d, i, theirs, (tmsize_t)b.decoded_size)
                                           : TIFFReadEncodedStrip(d, i, theirs, (tmsize_t)b.decoded_size);
        if (d && d != t) TIFFClose(d);
        if (b.raw_size >= 2 && raw[0] == 0 && (raw[1] & 1)) old_style_seen = 1;
        if (getenv("TEGULA_FUZZ_VERBOSE"))
            fprintf(stderr, "block %u: %zu bytes into %zu: Tegula %s, libtiff %lld\n", i, b.raw_size, b.decoded_size,
                    filled ? "filled it" : "refused", (long long)n);
        if (filled) {
            FUZZ_CHECK(n == (tmsize_t)b.decoded_size, "block %u: Tegula decoded all %zu bytes, libtiff returned %lld", i,
                       b.decoded_size, (long long)n);
            size_t k = 0;
            while (k < b.decoded_size && mine[k] == theirs[k]) k++;
            FUZZ_CHECK(k == b.decoded_size, "block %u: byte %zu of %zu is %u, libtiff's %u", i, k, b.decoded_size, mine[k],
                       theirs[k]);
        }
        free(raw);
        free(mine);
        free(theirs);
    }
    TIFFClose(t);
}

#endif
