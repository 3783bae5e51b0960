/*
 * ringbench/common.h — the one copy of what every harness shares: the PRNG,
 * the clock and the percentile definition (issue 14: one of each). The
 * library, the verifier, the key generators, the benchmarks and the queue all
 * use these; do not add another.
 *
 * Thread safety: every function is reentrant (the PRNG state is the caller's).
 */
#ifndef RINGBENCH_COMMON_H
#define RINGBENCH_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * rb_splitmix64 — the next value of the splitmix64 stream whose state is
 * *state (advanced by 0x9e3779b97f4a7c15, then Stafford's variant-13 mix):
 * G. Steele, D. Lea, C. Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014, in S. Vigna's published splitmix64.c. The state is
 * the seed; any value, 0 included, is valid. The algorithms draw from the
 * same generator inline (impls/mix.h holds its step and mixer).
 */
uint64_t rb_splitmix64(uint64_t *state);

/* rb_unit_double — a double in [0, 1) from the top 53 bits of rb_splitmix64. */
double rb_unit_double(uint64_t *state);

/* rb_now_ns — CLOCK_MONOTONIC in nanoseconds (system-wide, so comparable
 * across forked processes; never the wall clock). */
uint64_t rb_now_ns(void);

/* rb_now_ms — rb_now_ns in whole milliseconds (the queue's timeouts and deadlines). */
static inline uint64_t rb_now_ms(void) { return rb_now_ns() / 1000000u; }

/*
 * rb_nearest_rank — the 0-based index, in n sorted samples, of the p-th
 * percentile (p in [0, 100]) by the nearest-rank definition: the smallest
 * sample with at least p % of the samples <= it (rank ceil(p/100 * n), at
 * least 1). n must be >= 1. p99 of 100 samples is the 99th smallest.
 */
size_t rb_nearest_rank(size_t n, double p);

#ifdef __cplusplus
}
#endif
#endif
