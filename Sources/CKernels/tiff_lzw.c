// See tiff_lzw.h. Every code's string already lies in the output: a literal is one byte, and the
// code a decoder assigns after writing string S is S plus the first byte written next, which is
// the run of output starting where S was written, one byte longer. So the table keeps only where
// each code's string starts and its length, and decoding a code is one short forward copy.
#include "tiff_lzw.h"
#include <string.h>

enum { CLEAR = 256, END = 257, FIRST = 258, MAX_BITS = 12, TABLE = 4095 + 1024 };

/// Copy `n` bytes from `src` (which ends at or before `dst`, or lies outside the output) to
/// `dst`, 8 at a time and at least 16: each load of a byte before `src + n` precedes any store
/// that could reach it; up to 15 bytes past `dst + n` are overwritten.
static inline void copy_forward(uint8_t *dst, const uint8_t *src, size_t n) {
    uint64_t a, b;
    memcpy(&a, src, 8);
    memcpy(dst, &a, 8);
    memcpy(&b, src + 8, 8);
    memcpy(dst + 8, &b, 8);
    for (size_t i = 16; i < n; i += 8) {
        memcpy(&a, src + i, 8);
        memcpy(dst + i, &a, 8);
    }
}

/// The 256 one-byte strings, and room for copy_forward's reads past them.
static uint8_t literals[256 + 16];
__attribute__((constructor)) static void fill_literals(void) {
    for (int i = 0; i < 256; i++) literals[i] = (uint8_t)i;
}

ptrdiff_t tegula_tiff_lzw_decode(const uint8_t *in, size_t in_size, uint8_t *out, size_t capacity) {
    if (in_size >= 2 && in[0] == 0 && (in[1] & 1)) return -1;  // old-style LZW
    // Where each code's string starts and its length; Clear and End have length 0. One branch
    // for every code that is neither a string already in the table nor a literal keeps the
    // common path free of data-dependent branches (a literal or a string code cost a
    // mispredicted branch in every other code before).
    static __thread const uint8_t *start[TABLE];
    static __thread uint32_t length[TABLE];
    for (int i = 0; i < 256; i++) { start[i] = literals + i; length[i] = 1; }
    length[CLEAR] = length[END] = 0;
    const uint8_t *p = in, *end = in + in_size;
    uint64_t buffer = 0;  // the next `bits` bits of the data, most significant first
    unsigned bits = 0, width = 9, next = FIRST;
    size_t pos = 0, previous = 0;  // the last string's length, 0 right after Clear
    int cleared = 0;  // a Clear was read: TIFF's data begin with one, and libtiff refuses a literal before it
    while (pos < capacity) {
        if (bits < width) {
            if (p + 8 <= end) {
                uint64_t w;
                memcpy(&w, p, 8);
                buffer |= __builtin_bswap64(w) >> bits;
                p += (63 - bits) >> 3;
                bits |= 56;
            } else {
                while (bits <= 56 && p < end) { buffer |= (uint64_t)*p++ << (56 - bits); bits += 8; }
                if (bits < width) break;  // data ended without End: as libtiff, stop there
            }
        }
        const unsigned code = (unsigned)(buffer >> (64 - width));
        buffer <<= width;
        bits -= width;
        size_t n;
        if (__builtin_expect(code < next && length[code] != 0 && previous != 0, 1)) {
            n = length[code];
            if (__builtin_expect(pos + n > capacity, 0)) { memcpy(out + pos, start[code], capacity - pos); return (ptrdiff_t)capacity; }
            copy_forward(out + pos, start[code], n);
        } else if (code == END) {
            break;
        } else if (code == CLEAR) {
            width = 9; next = FIRST; previous = 0; cleared = 1;
            continue;
        } else if (code < 256) {
            if (__builtin_expect(!cleared, 0)) return -1;  // data that do not begin with Clear
            out[pos] = (uint8_t)code;  // the first code after Clear
            pos += 1;
            previous = 1;
            continue;
        } else if (previous == 0) {
            return -1;  // a string code straight after Clear
        } else if (code == next) {
            // The code being assigned now: the last string and its own first byte.
            n = previous + 1;
            if (pos + n > capacity) {
                size_t m = capacity - pos < previous ? capacity - pos : previous;
                memcpy(out + pos, out + pos - previous, m);
                if (m < capacity - pos) out[pos + m] = out[pos - previous];
                return (ptrdiff_t)capacity;
            }
            copy_forward(out + pos, out + pos - previous, previous);
            out[pos + previous] = out[pos - previous];
        } else {
            return -1;  // a code not yet assigned
        }
        if (__builtin_expect(next >= TABLE, 0)) return -1;
        start[next] = out + pos - previous;
        length[next] = (uint32_t)(previous + 1);
        next++;
        if (__builtin_expect(next >= (1u << width) - 1, 0) && width < MAX_BITS) width++;
        pos += n;
        previous = n;
    }
    return (ptrdiff_t)(pos < capacity ? pos : capacity);
}

void tegula_tiff_undo_predictor8(uint8_t *data, ptrdiff_t rows, ptrdiff_t row_bytes, ptrdiff_t samples) {
    for (ptrdiff_t r = 0; r < rows; r++) {
        uint8_t *row = data + r * row_bytes;
        for (ptrdiff_t i = samples; i < row_bytes; i++) row[i] = (uint8_t)(row[i] + row[i - samples]);
    }
}
