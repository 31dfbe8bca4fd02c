// See mapped_rows.h.
#define _GNU_SOURCE
#include "mapped_rows.h"
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#if defined(__x86_64__)
#include <tmmintrin.h>

/// Four pixels a step: twelve bytes shuffled into sixteen (SSSE3), alpha ORed in. The loop
/// stops while 16 bytes remain readable, since each load takes 16 of which 12 are used.
__attribute__((target("ssse3"))) static ptrdiff_t expand_ssse3(const uint8_t *src, uint8_t *dst, ptrdiff_t count) {
    const __m128i order = _mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    const __m128i alpha = _mm_set1_epi32((int)0xFF000000);
    ptrdiff_t i = 0;
    for (; i + 6 <= count; i += 4) {
        __m128i v = _mm_loadu_si128((const __m128i *)(src + i * 3));
        _mm_storeu_si128((__m128i *)(dst + i * 4), _mm_or_si128(_mm_shuffle_epi8(v, order), alpha));
    }
    return i;
}

/// Whether this processor has SSSE3 (every x86-64 since 2006 but the first), set once at load.
static int has_ssse3;
__attribute__((constructor)) static void detect_ssse3(void) {
    __builtin_cpu_init();
    has_ssse3 = __builtin_cpu_supports("ssse3");
}
#endif

/// Write `count` pixels of packed RGB from `src` to `dst` as RGBA with alpha 255.
static void expand_rgb(const uint8_t *src, uint8_t *dst, ptrdiff_t count) {
    ptrdiff_t i = 0;
#if defined(__x86_64__)
    if (has_ssse3) i = expand_ssse3(src, dst, count);
#endif
    for (; i < count; i++) {
        dst[i * 4] = src[i * 3];
        dst[i * 4 + 1] = src[i * 3 + 1];
        dst[i * 4 + 2] = src[i * 3 + 2];
        dst[i * 4 + 3] = 255;
    }
}

/// Where the copy running on this thread jumps back to when its source faults; NULL outside one.
/// Volatile: the compiler would otherwise drop setting it as a store nothing reads before NULL.
static _Thread_local sigjmp_buf *volatile guard;
static struct sigaction previous;
static pthread_once_t installed = PTHREAD_ONCE_INIT;

static void on_sigbus(int sig, siginfo_t *info, void *context) {
    sigjmp_buf *jump = guard;
    if (jump) siglongjmp(*jump, 1);
    // Not a guarded copy: what was there before, or the default (the process ends).
    if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction) {
        previous.sa_sigaction(sig, info, context);
    } else if (!(previous.sa_flags & SA_SIGINFO) && previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(sig);
    } else {
        signal(SIGBUS, SIG_DFL);
        raise(SIGBUS);
    }
}

static void install(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    sigaction(SIGBUS, &action, &previous);
}

int tegula_copy_mapped_rows(const uint8_t *src, ptrdiff_t src_stride, ptrdiff_t bands, ptrdiff_t count,
                            ptrdiff_t rows, uint8_t *dst) {
    pthread_once(&installed, install);
    sigjmp_buf jump;
    // The signal mask is saved, so the jump back unblocks SIGBUS again.
    if (sigsetjmp(jump, 1)) {
        guard = NULL;
        return -1;
    }
    guard = &jump;
    for (ptrdiff_t r = 0; r < rows; r++) {
        if (bands == 3) {
            expand_rgb(src + r * src_stride, dst + r * count * 4, count);
        } else {
            memcpy(dst + r * count * 4, src + r * src_stride, (size_t)count * 4);
        }
    }
    guard = NULL;
    return 0;
}

void tegula_copy_rows(const uint8_t *src, ptrdiff_t src_stride, ptrdiff_t bands, ptrdiff_t count,
                      ptrdiff_t rows, uint8_t *dst, ptrdiff_t dst_stride) {
    for (ptrdiff_t r = 0; r < rows; r++) {
        if (bands == 3) {
            expand_rgb(src + r * src_stride, dst + r * dst_stride, count);
        } else {
            memcpy(dst + r * dst_stride, src + r * src_stride, (size_t)count * 4);
        }
    }
}
