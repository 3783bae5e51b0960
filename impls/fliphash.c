/*
 * fliphash.c — FlipHash over member slots.
 * Source: C. Masson, H. E. Lee, "FlipHash: A Constant-Time Consistent
 * Range-Hashing Algorithm", arXiv:2402.17549 (2024), algorithms 1-3; the key
 * hash is the moremur-based 64-bit hash of DataDog's reference crate
 * (fliphash_64, seed 0), at most 64 draws.
 *
 * For a power-of-two range 2^r the key's r low hash bits pick a level and a
 * per-level hash "flips" the bits below the top one (consistent across r);
 * for other n, draws in the enclosing power-of-two range either land in
 * [2^(r-1), n) or fall back to the range below. Constant expected time.
 * Member order matters; only changes at the end of the list are minimal.
 */
#include "ring_impl.h"
#include "ringbench/consistent.h"
#include "slots.h"

#define FLIP_MAX_DRAWS 64u /* the reference crate's MAX_NUM_ITERATIONS */

/* The reference crate's key hash (after Pelle Evensen's moremur mixer): the
 * key under `seed`, salted by the range's bit length and the draw index. */
static inline uint64_t flip_key_hash(uint64_t key, uint32_t bit_len, uint32_t draw) {
    uint64_t k = key; /* seed 0: key ^ 0 */
    k *= (uint64_t)bit_len * 2 + 1;
    k = (k ^ (k >> 27)) * 0x3C79AC492BA7B653ULL;
    k *= (uint64_t)draw * 2 + 1;
    k = (k ^ (k >> 33)) * 0x1C69B3F74AC4AE35ULL;
    return k ^ (k >> 27);
}

/* FlipHash over the power-of-two range [0, mask]: keep the top set bit of the
 * masked hash, flip the bits below it with the level's hash. */
static inline uint64_t flip_pow2(uint64_t key, uint64_t hash, uint64_t mask) {
    uint64_t masked = hash & mask;
    if (!masked) return 0;
    unsigned top = 63u - (unsigned)__builtin_clzll(masked);
    uint64_t below_top = (1ULL << top) - 1;
    return masked ^ (flip_key_hash(key, top, 0) & below_top);
}

/* The slot of key among n, inlined into owner_position (no call per lookup);
 * rb_flip_hash is the public form. */
static inline uint32_t flip_slot(uint64_t key, uint32_t n) {
    if (n <= 1) return 0;
    uint64_t end = n - 1;
    unsigned end_log2 = 63u - (unsigned)__builtin_clzll(end);
    uint64_t mask = (2ULL << end_log2) - 1;
    uint64_t hash = flip_key_hash(key, 0, 0);
    uint64_t r = flip_pow2(key, hash, mask);
    if (r <= end) return (uint32_t)r;
    for (uint32_t i = 1; i <= FLIP_MAX_DRAWS; i++) {
        uint64_t draw = flip_key_hash(key, end_log2, i) & mask;
        if (draw <= mask >> 1) break;
        if (draw <= end) return (uint32_t)draw;
    }
    return (uint32_t)flip_pow2(key, hash, mask >> 1);
}

uint32_t rb_flip_hash(uint64_t key, uint32_t n) { return flip_slot(key, n); }

RB_SLOT_LOOKUPS(flip_slot)

const rb_algo rb_algo_fliphash = {
    .name = "fliphash",
    .description = "FlipHash over member slots: constant-time range hashing (list order)",
    .source = "Masson & Lee, FlipHash, arXiv:2402.17549, 2024, alg. 1-3; DataDog fliphash_64",
    .flags = RB_ALGO_POSITIONAL | RB_ALGO_MONOTONE_LAST | RB_ALGO_WEIGHTED,
    .build = rb_slots_ring_build,
    .owner_position = owner_position,
    .bytes_held = rb_slots_ring_bytes,
    .destroy = rb_slots_ring_destroy,
    /* a bucket moves to the new last slot with probability 1/(N+1) (as jump;
     * verify/test_family.c): binomial around the ideal */
    .movement_bound = 1.5,
};
