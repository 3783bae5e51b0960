/*
 * keys.h — partition keys of `ringbench pg bench` (bench/pg/README.md):
 * uniform or Zipf-skewed ranks over K keys, reproducible from a seed (the
 * sampler is datasets/keygen.h). Not a public interface; an rbb_keys is used
 * by one thread at a time.
 */
#ifndef RINGBENCH_PGB_KEYS_H
#define RINGBENCH_PGB_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "keygen.h"

typedef enum { RBB_DIST_UNIFORM, RBB_DIST_ZIPF } rbb_dist;

/* A reproducible stream of key ranks in [0, K): uniform, or Zipf with
 * exponent s (P(rank r) proportional to (r+1)^-s) by inverse CDF. */
typedef struct rbb_keys {
    rbb_dist dist;
    uint32_t n_keys;
    double zipf_s;
    uint64_t state; /* splitmix64 state, starts at the seed */
    rb_zipf zipf;   /* zipf: the sampler (datasets/keygen.h; owned) */
} rbb_keys;

/* 0, or -1 when K == 0 or out of memory. */
int rbb_keys_init(rbb_keys *k, rbb_dist dist, uint32_t n_keys, double zipf_s, uint64_t seed);
void rbb_keys_free(rbb_keys *k);
/* The next rank in [0, K). */
uint32_t rbb_keys_next_rank(rbb_keys *k);
/* The key string of a rank ("order:<rank>") into buf; its length. */
size_t rbb_key_format(char *buf, size_t size, uint32_t rank);
/* Probability of the most frequent key (1/K when uniform). */
double rbb_keys_top_share(const rbb_keys *k);

#endif
