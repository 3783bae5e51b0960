/*
 * jumpback.c — JumpBackHash over member slots.
 * Source: O. Ertl, "JumpBackHash: Say Goodbye to the Modulo Operation to
 * Distribute Keys Uniformly to Buckets", arXiv:2403.18682 (2024), section 3
 * (active indices generated in reverse order); generator SplitMix64 seeded
 * with the key, as in the reference (Hash4j jumpBackHash(splitMix64_V1)).
 *
 * Jump's mapping rule (the owner is the largest "active index" below n)
 * without its per-step floating-point division: the active indices are drawn
 * from the top down, one power-of-two range at a time, so the expected cost
 * is constant in n (at most 5/3 64-bit random values on average, Hash4j).
 * Same distribution as jump, different answers. Member order matters and only
 * changes at the end of the list are minimal, as for `jump`.
 */
#include "mix.h"
#include "ring_impl.h"
#include "ringbench/consistent.h"
#include "slots.h"

/* The slot of key among n, inlined into owner_position (with the call gone a
 * lookup at N 1,024 took a third less time); rb_jumpback_hash is the public form. */
static inline uint32_t jumpback_slot(uint64_t key, uint32_t n) {
    if (n <= 1) return 0;
    uint64_t state = key + RB_SPLITMIX64_GAMMA;
    uint64_t r0 = rb_splitmix64_mix(state);
    /* one bit per power-of-two range [2^i, 2^(i+1)) below n: set when the
     * range holds an active index */
    uint32_t x = (uint32_t)(r0 ^ (r0 >> 32)) & (UINT32_MAX >> __builtin_clz(n - 1));
    while (x) {
        uint32_t lo = 1u << (31 - __builtin_clz(x));
        /* the reference shifts a Java long by popcount * 32, taken mod 64:
         * 32 when the popcount is odd, else 0. __builtin_parity, not
         * __builtin_popcount: without -mpopcnt (the default x86-64 target)
         * GCC compiles a popcount to a call into libgcc */
        unsigned shift = (unsigned)__builtin_parity(x) << 5;
        uint32_t b = lo + ((uint32_t)(r0 >> shift) & (lo - 1));
        if (b < n) return b;
        uint32_t range_max = (lo << 1) - 1;
        for (;;) { /* draw within [lo, 2lo) until below n or below lo */
            state += RB_SPLITMIX64_GAMMA;
            uint64_t r1 = rb_splitmix64_mix(state);
            b = (uint32_t)r1 & range_max;
            if (b < lo) break;
            if (b < n) return b;
            b = (uint32_t)(r1 >> 32) & range_max;
            if (b < lo) break;
            if (b < n) return b;
        }
        x ^= lo;
    }
    return 0;
}

uint32_t rb_jumpback_hash(uint64_t key, uint32_t n) { return jumpback_slot(key, n); }

RB_SLOT_LOOKUPS(jumpback_slot)

const rb_algo rb_algo_jumpback = {
    .name = "jumpback",
    .description = "JumpBackHash over member slots: jump's distribution, no division (list order)",
    .source = "Ertl, JumpBackHash, arXiv:2403.18682, 2024, sec. 3; SplitMix64 as in Hash4j",
    .flags = RB_ALGO_POSITIONAL | RB_ALGO_MONOTONE_LAST | RB_ALGO_WEIGHTED,
    .build = rb_slots_ring_build,
    .owner_position = owner_position,
    .bytes_held = rb_slots_ring_bytes,
    .destroy = rb_slots_ring_destroy,
    /* a bucket moves to the new last slot with probability 1/(N+1) (as jump;
     * verify/test_family.c): binomial around the ideal */
    .movement_bound = 1.5,
};
