/*
 * bench_keys.c — partition keys for `ringbench pg bench`: uniform or
 * Zipf-skewed draws over K keys, reproducible from a seed (see bench.h).
 *
 * Zipf: key of rank r (1 <= r <= K) is drawn with probability
 * r^-s / H(K, s), H the generalised harmonic number (Zipf 1949; the
 * "Zipfian" request distribution of YCSB, Cooper et al., SoCC 2010, uses the
 * same law). Sampling is by inverse CDF: a table of the K cumulative weights,
 * a uniform u in [0, H) from splitmix64 (Steele, Lea & Flood, OOPSLA 2014),
 * and a binary search for the first rank whose cumulative weight exceeds u.
 * Exact for any s >= 0, O(K) memory, O(log K) per draw.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* splitmix64: one 64-bit output per call, full period 2^64. */
static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A uniform double in [0, 1) from the top 53 bits. */
static double unit_double(uint64_t *state) {
    return (double)(splitmix64(state) >> 11) * (1.0 / 9007199254740992.0);
}

int rbb_keys_init(rbb_keys *k, rbb_dist dist, uint32_t n_keys, double zipf_s, uint64_t seed) {
    memset(k, 0, sizeof *k);
    if (n_keys == 0) return -1;
    k->dist = dist;
    k->n_keys = n_keys;
    k->zipf_s = zipf_s;
    k->state = seed;
    if (dist == RBB_DIST_ZIPF) {
        k->cdf = malloc((size_t)n_keys * sizeof *k->cdf);
        if (!k->cdf) return -1;
        double sum = 0;
        for (uint32_t r = 0; r < n_keys; r++) {
            sum += pow((double)r + 1.0, -zipf_s);
            k->cdf[r] = sum;
        }
    }
    return 0;
}

void rbb_keys_free(rbb_keys *k) {
    free(k->cdf);
    k->cdf = NULL;
}

uint32_t rbb_keys_next_rank(rbb_keys *k) {
    if (k->dist == RBB_DIST_UNIFORM) {
        /* Lemire's multiply-shift: bias below 2^-32 for K < 2^32. */
        return (uint32_t)(((splitmix64(&k->state) >> 32) * (uint64_t)k->n_keys) >> 32);
    }
    double u = unit_double(&k->state) * k->cdf[k->n_keys - 1];
    uint32_t lo = 0, hi = k->n_keys - 1; /* first r with cdf[r] > u */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (k->cdf[mid] > u)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

size_t rbb_key_format(char *buf, size_t size, uint32_t rank) {
    int n = snprintf(buf, size, "order:%u", rank);
    return n < 0 ? 0 : (size_t)n;
}

double rbb_keys_top_share(const rbb_keys *k) {
    if (k->dist == RBB_DIST_UNIFORM) return 1.0 / k->n_keys;
    return 1.0 / k->cdf[k->n_keys - 1];
}
