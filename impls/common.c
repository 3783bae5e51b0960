/*
 * common.c — the PRNG, the clock and the percentile rank every harness uses
 * (ringbench/common.h). Not an algorithm: registry.c does not list it.
 */
#include "ringbench/common.h"

#include <math.h>
#include <time.h>

#include "mix.h"

/* The one SplitMix64: the step and mixer are mix.h's, inline for the
 * algorithms' lookups; this is the public stream over them. */
uint64_t rb_splitmix64(uint64_t *state) { return rb_splitmix64_mix(*state += RB_SPLITMIX64_GAMMA); }

double rb_unit_double(uint64_t *state) { return (double)(rb_splitmix64(state) >> 11) * 0x1.0p-53; }

uint64_t rb_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

size_t rb_nearest_rank(size_t n, double p) {
    double r = ceil(p / 100.0 * (double)n - 1e-9); /* -1e-9: 99/100 * 100 is 99, not 99.0000001 */
    size_t rank = r < 1 ? 1 : (size_t)r;
    return (rank > n ? n : rank) - 1;
}
