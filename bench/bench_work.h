/*
 * bench_work.h — the measured work of the benchmarks, in C, shared by the
 * Google Benchmark shim (lookup_bench.cc) and the callgrind gate workload
 * (gate_workload.c) so both time and count exactly the same loops.
 *
 * A lookup is what the measured system does for a key: bucket hash of the
 * key bytes, mod B, owner of the bucket (rb_ring_owner_key, inlined). Two modes:
 *   latency    each lookup's key index depends on the previous result, so
 *              lookups cannot overlap in the CPU (time per lookup = latency);
 *   throughput lookups are independent (the CPU overlaps them).
 * Both modes visit the same keys in the same order: key i+1 after key i (the
 * key set is shuffled once when loaded), wrapping at the end.
 *
 * Not thread-safe: a key set or cursor belongs to one thread.
 */
#ifndef RINGBENCH_BENCH_WORK_H
#define RINGBENCH_BENCH_WORK_H

#include <stddef.h>
#include <stdint.h>

#include "ringbench/ring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Keys to look up, shuffled. Owns its storage. */
typedef struct rb_bench_keys {
    const char **key; /* n_keys pointers */
    size_t *len;      /* n_keys lengths in bytes */
    size_t n_keys;
    char *source;   /* "file:<path>" or "generated:order:<n>" (owned) */
    void *storage_; /* internal */
} rb_bench_keys;

/*
 * rb_bench_keys_load — keys from `path` (one per line, bytes preserved) when
 * path is non-NULL and non-empty, else n_generated keys "order:0" ..
 * "order:<n-1>". Then shuffled with a fixed seed (Fisher-Yates driven by
 * splitmix64), so every run visits the same sequence, and the key bytes are
 * repacked contiguously in that order (a stream of arriving keys: the next
 * key is not a cold cache miss, its bucket and ring position still random).
 * Returns 0; -2 with a message on stderr for a key file that cannot be opened
 * or is empty (bad input); -1 with a message when reading fails or memory
 * runs out.
 */
int rb_bench_keys_load(const char *path, size_t n_generated, rb_bench_keys *out);
void rb_bench_keys_free(rb_bench_keys *k);

/*
 * rb_bench_members — n members "worker-0" .. "worker-<n-1>", weight 1, in
 * that order. *storage gets the id bytes to free() along with the returned
 * array. NULL when out of memory.
 */
rb_member *rb_bench_members(uint32_t n, char **storage);

/*
 * A cursor through the key set; `zero` must hold 0 but be opaque to the
 * compiler (rb_bench_cursor_init reads it from a volatile), so
 * `i += 1 + (result & zero)` makes the next key index data-dependent on the
 * previous result without changing the sequence.
 */
typedef struct rb_bench_cursor {
    size_t i;
    uint64_t zero;
} rb_bench_cursor;
void rb_bench_cursor_init(rb_bench_cursor *c);

/*
 * RB_BENCH_LOOP — the measured loop of every lookup benchmark, inside a
 * function with parameters `c` (rb_bench_cursor *) and `n_lookups`; it
 * returns the sum of RESULT_EXPR over n_lookups items, index `i` wrapping at
 * N_ITEMS. The loops come in pairs. Latency: the next index is
 * i + 1 + (result & zero) — always i + 1, but the CPU cannot compute the next
 * key's address before the previous result is known, so lookups serialise.
 * Throughput: the next index is i + 1, independent of the result.
 */
#define RB_BENCH_LOOP(DEPENDENT, N_ITEMS, RESULT_EXPR)                                             \
    do {                                                                                           \
        size_t i = c->i, n_items = (N_ITEMS);                                                      \
        uint64_t sum = 0, zero = c->zero;                                                          \
        for (size_t done = 0; done < n_lookups; done++) {                                          \
            uint64_t result = (RESULT_EXPR);                                                       \
            sum += result;                                                                         \
            i += 1 + ((DEPENDENT) ? (result & zero) : 0);                                          \
            if (i >= n_items) i -= n_items;                                                        \
        }                                                                                          \
        c->i = i;                                                                                  \
        return sum;                                                                                \
    } while (0)

/* n_lookups key lookups (rb_ring_owner_key) from the cursor; returns the sum
 * of owners (to be consumed so the work is not dropped). */
uint64_t rb_bench_owner_key_latency(const rb_ring *r, const rb_bench_keys *k, rb_bench_cursor *c,
                                    size_t n_lookups);
uint64_t rb_bench_owner_key_throughput(const rb_ring *r, const rb_bench_keys *k, rb_bench_cursor *c,
                                       size_t n_lookups);

/* The hash-only control: the bucket hash of each key alone (the floor every
 * algorithm pays). Returns the sum of hashes. */
uint64_t rb_bench_hash_latency(const rb_config *cfg, const rb_bench_keys *k, rb_bench_cursor *c,
                               size_t n_lookups);
uint64_t rb_bench_hash_throughput(const rb_config *cfg, const rb_bench_keys *k, rb_bench_cursor *c,
                                  size_t n_lookups);

/*
 * rb_bench_positions — ring_hash of every key (n_keys positions, malloc'd;
 * NULL when out of memory): precomputed positions for the raw ring search.
 */
uint64_t *rb_bench_positions(const rb_config *cfg, const rb_bench_keys *k);

/* n_lookups raw ring searches ring->algo->owner_position(pos[i]) (positional
 * algorithms only). Returns the sum of owners. */
uint64_t rb_bench_owner_position_latency(const rb_ring *r, const uint64_t *pos, size_t n_pos,
                                         rb_bench_cursor *c, size_t n_lookups);
uint64_t rb_bench_owner_position_throughput(const rb_ring *r, const uint64_t *pos, size_t n_pos,
                                            rb_bench_cursor *c, size_t n_lookups);

/*
 * rb_bench_join_refill — the work after one member joins: build the ring of
 * members[0 .. n_members) (the old membership plus the new member) and fill
 * the B-entry bucket table `owners` from it (for `table`, its build is the
 * fill; the owners are then copied out). Destroys the ring. 0 or an RB_E*
 * code.
 */
int rb_bench_join_refill(const rb_algo *algo, const rb_config *cfg, const rb_member *members,
                         size_t n_members, uint32_t *owners);

/*
 * The qsort control: n pseudo-random 64-bit positions (fixed seed) in
 * `unsorted`; rb_bench_qsort_u64 copies them into `work` and sorts them with
 * the C library's qsort. Returns work[n/2] (to be consumed).
 */
void rb_bench_random_u64(uint64_t *unsorted, size_t n);
uint64_t rb_bench_qsort_u64(const uint64_t *unsorted, uint64_t *work, size_t n);

#ifdef __cplusplus
}
#endif
#endif
