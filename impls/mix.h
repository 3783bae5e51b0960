/*
 * mix.h — internal: SplitMix64 (G. Steele, D. Lea, C. Flood, "Fast
 * Splittable Pseudorandom Number Generators", OOPSLA 2014), the one 64-bit
 * generator the algorithms draw from: JumpBackHash's random values (as in its
 * reference, Hash4j), multi-probe's probes, bounded loads' further choices.
 * The state advances by RB_SPLITMIX64_GAMMA; the output is the mixer of the
 * state. Not a public header: the public stream is rb_splitmix64
 * (ringbench/common.h, impls/common.c), which is built on these two, so the
 * generator has one copy; lookups inline the mixer instead of calling it.
 */
#ifndef RINGBENCH_MIX_H
#define RINGBENCH_MIX_H

#include <stdint.h>

#define RB_SPLITMIX64_GAMMA 0x9e3779b97f4a7c15ULL /* the state increment (2^64 / phi) */

/* SplitMix64's output function of a state z. Pure. */
static inline uint64_t rb_splitmix64_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

#endif
