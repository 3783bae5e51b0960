/*
 * keys.c — partition keys for `ringbench pg bench`: uniform or
 * Zipf-skewed draws over K keys, reproducible from a seed (see keys.h).
 *
 * Keys are "order:<rank>"; ranks come from the shared samplers of
 * datasets/keygen.h (splitmix64; Zipf by inversion), so a seed gives the same
 * draws as `ringbench-genkeys --kind zipf`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keygen.h"
#include "keys.h"

int rbb_keys_init(rbb_keys *k, rbb_dist dist, uint32_t n_keys, double zipf_s, uint64_t seed) {
    memset(k, 0, sizeof *k);
    if (n_keys == 0) return -1;
    k->dist = dist;
    k->n_keys = n_keys;
    k->zipf_s = zipf_s;
    k->state = seed;
    return dist == RBB_DIST_ZIPF ? rb_zipf_init(&k->zipf, n_keys, zipf_s) : 0;
}

void rbb_keys_free(rbb_keys *k) { rb_zipf_free(&k->zipf); }

uint32_t rbb_keys_next_rank(rbb_keys *k) {
    if (k->dist == RBB_DIST_UNIFORM) {
        /* Lemire's multiply-shift: bias below 2^-32 for K < 2^32. */
        return (uint32_t)(((rb_splitmix64(&k->state) >> 32) * (uint64_t)k->n_keys) >> 32);
    }
    return rb_zipf_next(&k->zipf, &k->state);
}

size_t rbb_key_format(char *buf, size_t size, uint32_t rank) {
    int n = snprintf(buf, size, "order:%u", rank);
    return n < 0 ? 0 : (size_t)n;
}

double rbb_keys_top_share(const rbb_keys *k) {
    if (k->dist == RBB_DIST_UNIFORM) return 1.0 / k->n_keys;
    return 1.0 / k->zipf.total;
}
