/*
 * ringbench/consistent.h — the constant-memory consistent hashes as pure
 * functions: a 64-bit key (a hash) to a bucket in [0, n_buckets).
 *
 * Each backs one registered algorithm over member slots (impls/slots.h: slot
 * j is the j-th member in list order, a member of weight w takes w slots),
 * whose key is the bucket's 64-bit ring position. All are exposed for the
 * known-answer tests (verify/kat/bucket_ref.py). Every function is pure and
 * thread-safe; n_buckets >= 1 (0 is treated as 1); the result is < n_buckets.
 *
 * What each promises (and ringbench tests): only adding or removing the
 * *last* bucket is minimal movement, and a key then moves only to / from that
 * bucket (as jump, RB_ALGO_MONOTONE_LAST); the mapping is uniform.
 */
#ifndef RINGBENCH_CONSISTENT_H
#define RINGBENCH_CONSISTENT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* rb_jumpback_hash — JumpBackHash: O. Ertl, "JumpBackHash: Say Goodbye to the
 * Modulo Operation to Distribute Keys Uniformly to Buckets", arXiv:2403.18682
 * (2024), Software: Practice and Experience, with SplitMix64 seeded by the
 * key as the generator (the reference, Hash4j jumpBackHash(splitMix64_V1)).
 * Same distribution as jump (the largest active index below n, traversed
 * downwards instead of upwards), but not the same answers. */
uint32_t rb_jumpback_hash(uint64_t key, uint32_t n_buckets);

/* rb_flip_hash — FlipHash: C. Masson, H. E. Lee, "FlipHash: A Constant-Time
 * Consistent Range-Hashing Algorithm", arXiv:2402.17549 (2024), with the
 * moremur-based key hash and seed 0 of DataDog's reference crate
 * (fliphash_64). At most 64 draws. */
uint32_t rb_flip_hash(uint64_t key, uint32_t n_buckets);

/* rb_power_hash — power consistent hashing: E. Leu, "Fast Consistent Hashing
 * in Constant Time", arXiv:2307.12448 (2023), section VI (algorithms f and g)
 * with PCG32 (pcg32_srandom_r(key, j)) as the key-seeded generator, as in the
 * Rust crate power-consistent-hash (hash_u64). */
uint32_t rb_power_hash(uint64_t key, uint32_t n_buckets);

/* rb_binomial_hash — BinomialHash: M. Coluzzi, A. Brocco, A. Antonucci,
 * "BinomialHash: A Constant Time, Minimal Memory Consistent Hash Algorithm",
 * arXiv:2406.19836 (2024), with the authors' LCG rehash and four retries
 * (their Java BinomialEngine). */
uint32_t rb_binomial_hash(uint64_t key, uint32_t n_buckets);

#ifdef __cplusplus
}
#endif
#endif
