// A TIFF LZW block decoder (TIFF 6.0 §13), in C for its inner loop: the compressed scans'
// reader (TegulaWarp's DecodedScan) decodes LZW tiles and strips with it instead of libtiff's.
// libtiff walks each code's string backwards through its table a byte at a time; here a code's
// string is copied from where it was first written in the output, 8 bytes at a time
// (BENCHMARKS.md, "LZW decoded in place").
#ifndef TEGULA_TIFF_LZW_H
#define TEGULA_TIFF_LZW_H
#include <stddef.h>
#include <stdint.h>

/// Bytes `out` must have beyond `capacity`: the copies write up to 15 bytes past a string's end.
#define TEGULA_LZW_SLACK 16

/// Decode the LZW data `in` (`in_size` bytes: codes of 9–12 bits, most significant bit first,
/// the width growing as code 510, 1022, 2046 is assigned; Clear 256, End 257) into `out`, at
/// most `capacity` bytes (`out` holding TEGULA_LZW_SLACK more). Decoding stops at End, at the
/// end of the data, or when `capacity` bytes are written, as libtiff's decoder does, with the
/// same bytes. Returns the bytes written, or -1 when the data is not LZW as TIFF writes it: data
/// not beginning with Clear, a code beyond the next free one, a string code straight after Clear,
/// a table overflow, or the old-style (pre-TIFF 6.0, least significant bit first) form, which
/// begins 0x00 0x01.
ptrdiff_t tegula_tiff_lzw_decode(const uint8_t *in, size_t in_size, uint8_t *out, size_t capacity);

/// Undo TIFF's horizontal differencing (Predictor 2) of 8-bit samples: in each of `rows` rows of
/// `row_bytes` bytes, every byte from the `samples`-th on gets the one `samples` before it added.
void tegula_tiff_undo_predictor8(uint8_t *data, ptrdiff_t rows, ptrdiff_t row_bytes, ptrdiff_t samples);

#endif
