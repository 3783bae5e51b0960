/*
 * keygen.h — the reproducible random streams behind the synthetic key sets:
 * splitmix64, uniform doubles, and a Zipf sampler. Used by
 * `ringbench-genkeys` (datasets/genkeys.c) and `ringbench pg bench`
 * (bench/pg/keys.c), so both draw exactly the same keys for a seed.
 *
 * splitmix64: Steele, Lea & Flood, "Fast Splittable Pseudorandom Number
 * Generators", OOPSLA 2014 (the constants of Vigna's public-domain version).
 * Zipf: rank r (1 <= r <= K) with probability r^-s / H(K, s) (Zipf 1949; the
 * "Zipfian" law of YCSB, Cooper et al., SoCC 2010), sampled by inversion
 * (Devroye, Non-Uniform Random Variate Generation, 1986, ch. III): a table of
 * the K cumulative weights and a binary search for the first one exceeding a
 * uniform u in [0, H). Exact for every s >= 0; O(K) memory, O(log K) a draw.
 * Not thread-safe per state; a sampler is read-only after init.
 */
#ifndef RINGBENCH_KEYGEN_H
#define RINGBENCH_KEYGEN_H

#include <stdint.h>

#include "ringbench/common.h" /* the PRNG: rb_splitmix64, rb_unit_double */

/* Zipf(s) over ranks 0 .. n-1 (rank 0 the most frequent). */
typedef struct rb_zipf {
    double *cum_weight; /* n cumulative weights (owned) */
    uint32_t n;
    double total; /* H(n, s) = cum_weight[n - 1] */
} rb_zipf;

/* Fill the table for n >= 1 ranks and exponent s >= 0. 0, or -1 when n is 0
 * or the table (8 n bytes) cannot be allocated. */
int rb_zipf_init(rb_zipf *z, uint32_t n, double s);

/* The next rank in [0, n), one rb_unit_double draw from *state. */
uint32_t rb_zipf_next(const rb_zipf *z, uint64_t *state);

/* Free the table; safe on a zeroed or freed sampler. */
void rb_zipf_free(rb_zipf *z);

#endif
