/*
 * powerch.c — power consistent hashing over member slots.
 * Source: E. Leu, "Fast Consistent Hashing in Constant Time",
 * arXiv:2307.12448 (2023), algorithm 1 with f (section VI.A) and g (section
 * VI.B); the key-seeded generator is PCG32 seeded as pcg32_srandom_r(key, j),
 * as in the Rust crate power-consistent-hash (hash_u64), whose published
 * values verify/kat/bucket_ref.py checks.
 *
 * m is the smallest power of two >= n. f maps the key uniformly and
 * consistently into [0, m) (a random index in the range of the key's top set
 * low bit); when that lands in [n, m), g walks jump-like points upward from
 * m/2 - 1 and returns the last below n, else f over [0, m/2). Constant
 * expected time. Member order matters; only changes at the end are minimal.
 */
#include "ring_impl.h"
#include "ringbench/consistent.h"
#include "slots.h"

#define PCG_MULT 6364136223846793005ULL

typedef struct pcg32 {
    uint64_t state, inc;
} pcg32;

static inline void pcg_step(pcg32 *g) { g->state = g->state * PCG_MULT + g->inc; }

/* pcg32_srandom_r (O'Neill, PCG reference C code). */
static inline void pcg_seed(pcg32 *g, uint64_t seed, uint64_t seq) {
    g->inc = (seq << 1) | 1;
    g->state = 0;
    pcg_step(g);
    g->state += seed;
    pcg_step(g);
}

/* PCG-XSH-RR 64/32 output of the current state, then one step. */
static inline uint32_t pcg_next(pcg32 *g) {
    uint64_t old = g->state;
    pcg_step(g);
    uint32_t x = (uint32_t)(((old >> 18) ^ old) >> 27);
    unsigned rot = (unsigned)(old >> 59);
    return (x >> rot) | (x << ((32 - rot) & 31));
}

/* f(key, m): uniform in [0, m), m = m_minus_one + 1 a power of two. Seeds *g
 * when the result is not 0. */
static inline uint32_t power_f(uint64_t key, uint32_t m_minus_one, pcg32 *g) {
    uint32_t bits = (uint32_t)key & m_minus_one;
    if (!bits) return 0;
    unsigned j = 31u - (unsigned)__builtin_clz(bits);
    pcg_seed(g, key, j);
    uint32_t h = 1u << j;
    return h + (pcg_next(g) & (h - 1));
}

/* g(key, n, s): from x = s, jump to floor((x+1) * 2^32-1 / (U+1)) while that
 * is below n; returns the last x (section VI.B, integer form of the crate). */
static inline uint32_t power_g(uint32_t n, uint32_t s, pcg32 *g) {
    uint32_t x = s;
    for (;;) {
        uint64_t scaled = ((uint64_t)x + 1) * UINT32_MAX;
        uint64_t u_plus_one = (uint64_t)pcg_next(g) + 1;
        if ((uint64_t)n * u_plus_one <= scaled) return x;
        pcg_step(g);
        x = (uint32_t)(scaled / u_plus_one);
    }
}

uint32_t rb_power_hash(uint64_t key, uint32_t n) {
    if (n <= 1) return 0;
    uint32_t m_minus_one = UINT32_MAX >> __builtin_clz(n - 1);
    uint32_t half_minus_one = m_minus_one >> 1;
    pcg32 g = {0, 0}; /* seeded by power_f whenever r1 >= n (r1 > 0) */
    uint32_t r1 = power_f(key, m_minus_one, &g);
    if (r1 < n) return r1;
    pcg_step(&g);
    uint32_t r2 = power_g(n, half_minus_one, &g);
    if (r2 > half_minus_one) return r2;
    return power_f(key, half_minus_one, &g);
}

RB_SLOT_LOOKUPS(rb_power_hash)

const rb_algo rb_algo_powerch = {
    .name = "powerch",
    .description = "power consistent hashing over member slots: O(1) expected (list order)",
    .source = "Leu, Fast Consistent Hashing in Constant Time, arXiv:2307.12448, 2023, sec. VI",
    .flags = RB_ALGO_POSITIONAL | RB_ALGO_MONOTONE_LAST | RB_ALGO_WEIGHTED,
    .build = rb_slots_ring_build,
    .owner_position = owner_position,
    .bytes_held = rb_slots_ring_bytes,
    .destroy = rb_slots_ring_destroy,
    /* a bucket moves to the new last slot with probability 1/(N+1) (as jump;
     * verify/test_family.c): binomial around the ideal */
    .movement_bound = 1.5,
};
