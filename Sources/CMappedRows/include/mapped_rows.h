// Rows copied out of a file mapping as RGBA (TegulaGDAL's VirtualMemory, which MappedScan reads
// scans through): the copy that replaces GDAL's per-row reads, guarded against the file
// shrinking under the mapping by a process-wide SIGBUS handler installed on first use.
#ifndef TEGULA_MAPPED_ROWS_H
#define TEGULA_MAPPED_ROWS_H
#include <stddef.h>
#include <stdint.h>

/// Copy `rows` rows of `count` pixels, `bands` bytes each (3: RGB, widened to RGBA with alpha
/// 255; 4: RGBA as it is), from `src` (rows `src_stride` bytes apart) to `dst` (rows packed).
/// `src` may be a file mapping: a page past the end of a file cut short under it faults
/// (SIGBUS), and then this returns −1, `dst` part written, instead of the process dying; a
/// fault anywhere else is passed to the handler that was there before. 0 when copied.
int tegula_copy_mapped_rows(const uint8_t *src, ptrdiff_t src_stride, ptrdiff_t bands, ptrdiff_t count,
                            ptrdiff_t rows, uint8_t *dst);

/// The same copy from memory that cannot fault (no guard: no system call a call), each row to
/// `dst` rows `dst_stride` bytes apart: TegulaWarp's DecodedScan copies a window's part out of
/// each decoded block with it.
void tegula_copy_rows(const uint8_t *src, ptrdiff_t src_stride, ptrdiff_t bands, ptrdiff_t count,
                      ptrdiff_t rows, uint8_t *dst, ptrdiff_t dst_stride);

#endif
