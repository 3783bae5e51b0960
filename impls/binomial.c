/*
 * binomial.c — BinomialHash over member slots.
 * Source: M. Coluzzi, A. Brocco, A. Antonucci, "BinomialHash: A Constant
 * Time, Minimal Memory Consistent Hash Algorithm", arXiv:2406.19836 (2024),
 * section 4 (pseudo-code); rehash and retry count (4) as in the authors' Java
 * BinomialEngine (SUPSI java-consistent-hashing-algorithms).
 *
 * The buckets are the nodes of a binary tree level by level (level i holds
 * [2^i, 2^(i+1))). The key picks a node of the smallest tree enclosing n and
 * is relocated uniformly within its level; a node >= n retries in the
 * enclosing tree and finally falls back to the minor tree [0, 2^(r-1)).
 * Constant time. Member order matters; only changes at the end are minimal.
 */
#include "ring_impl.h"
#include "ringbench/consistent.h"
#include "slots.h"

#define BINOMIAL_RETRIES 4 /* the authors' Java: "repeat ... to get a better balance" */

/* The authors' rehash: Lamping & Veach's LCG step, squared, times `seed`,
 * top 32 bits of the 64-bit product. */
static inline uint64_t binomial_rehash(uint64_t value, uint32_t seed) {
    uint64_t h = 2862933555777941757ULL * value + 1;
    return (h * h * seed) >> 32;
}

/* A uniform node in the tree level of `bucket` (levels 0-1 are the root). */
static inline uint32_t relocate_within_level(uint32_t bucket, uint64_t hash) {
    if (bucket < 2) return bucket;
    uint32_t base = 1u << (31 - __builtin_clz(bucket));
    return base + ((uint32_t)binomial_rehash(hash, base - 1) & (base - 1));
}

uint32_t rb_binomial_hash(uint64_t key, uint32_t n) {
    if (n < 2) return 0;
    uint32_t enclosing = UINT32_MAX >> __builtin_clz(n - 1); /* 2^r - 1 >= n - 1 */
    uint32_t minor = enclosing >> 1;
    uint32_t b = relocate_within_level((uint32_t)key & enclosing, key);
    if (b < n) return b;
    uint64_t h = key;
    for (int i = 0; i < BINOMIAL_RETRIES; i++) {
        h = binomial_rehash(h, enclosing);
        b = relocate_within_level((uint32_t)h & enclosing, h);
        if (b <= minor) break;
        if (b < n) return b;
    }
    return relocate_within_level((uint32_t)key & minor, key);
}

RB_SLOT_LOOKUPS(rb_binomial_hash)

const rb_algo rb_algo_binomial = {
    .name = "binomial",
    .description = "BinomialHash over member slots: constant time, tree levels (list order)",
    .source = "Coluzzi, Brocco, Antonucci, BinomialHash, arXiv:2406.19836, 2024, sec. 4",
    .flags = RB_ALGO_POSITIONAL | RB_ALGO_MONOTONE_LAST | RB_ALGO_WEIGHTED,
    .build = rb_slots_ring_build,
    .owner_position = owner_position,
    .bytes_held = rb_slots_ring_bytes,
    .destroy = rb_slots_ring_destroy,
    /* a bucket moves to the new last slot with probability 1/(N+1) (as jump;
     * verify/test_family.c): binomial around the ideal */
    .movement_bound = 1.5,
};
