/*
 * fuzz/fuzz_util.h — shared by the libFuzzer targets (fuzz/README.md).
 * FUZZ_CHECK prints the broken contract and aborts, so libFuzzer records the
 * input as a crash; fuzz_take_* read parameters from the front of the input.
 * Single-threaded (libFuzzer calls LLVMFuzzerTestOneInput serially).
 */
#ifndef RINGBENCH_FUZZ_UTIL_H
#define RINGBENCH_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_CHECK(cond, ...)                                                                      \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "contract broken at %s:%d: %s: ", __FILE__, __LINE__, #cond);          \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* A cursor over the fuzz input. */
typedef struct fuzz_in {
    const uint8_t *p;
    size_t n;
} fuzz_in;

static inline uint32_t fuzz_take_u8(fuzz_in *in) {
    if (!in->n) return 0;
    in->n--;
    return *in->p++;
}

static inline uint32_t fuzz_take_u32(fuzz_in *in) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v = v << 8 | fuzz_take_u8(in);
    return v;
}

static inline uint64_t fuzz_take_u64(fuzz_in *in) {
    uint64_t hi = fuzz_take_u32(in);
    return hi << 32 | fuzz_take_u32(in);
}

/* The rest of the input as a NUL-terminated string (cut at its first NUL);
 * caller frees. */
static inline char *fuzz_take_string(fuzz_in *in) {
    char *s = malloc(in->n + 1);
    if (!s) abort();
    memcpy(s, in->p, in->n);
    s[in->n] = 0;
    in->p += in->n;
    in->n = 0;
    return s;
}

#endif
