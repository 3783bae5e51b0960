/*
 * sweep.h — the measuring library of the verification suite: movement
 * fraction, monotonicity violations, load spread and agreement between
 * algorithms, for one algorithm x membership x configuration at a time.
 *
 * Routing is key -> bucket -> owner (ringbench/ring.h). Everything here is
 * measured on bucket tables (the owner of each of the B buckets); keys enter
 * as a count of keys per bucket, so a key moves exactly when its bucket moves
 * and a member's key load is the sum of its buckets' key counts.
 *
 * Memberships: members are `worker-<12 hex digits>` ids drawn from a
 * splitmix64 generator with a given seed (rb_sweep_ids), so every row of a
 * sweep can be reproduced from its seed. One membership change is measured
 * per call:
 *   add            a new member appended at the end of the list (members
 *                  0..N-1 keep their indices, the new one is N);
 *   remove last    member N-1 removed;
 *   remove middle  member floor((N-1)/2) removed; later members shift down.
 * Monotonicity violation (shared/DESIGN.md): on an add, an item that moved to
 * anyone but the new member; on a remove, an item that moved although its
 * owner stayed. Ideal movement: 1/(N+1) on add, 1/N on remove.
 *
 * Load spread: per-member load divided by the member's weight; peak-to-mean
 * (max/mean), min/mean and coefficient of variation (population standard
 * deviation / mean). The integer floor for B buckets over N members of equal
 * weight is ceil(B/N)/(B/N).
 *
 * Errors: 0 or a negative RB_E* code with rb_error_detail() set. Functions
 * are reentrant (no shared state); not thread-safe on the same output.
 */
#ifndef RINGBENCH_SWEEP_H
#define RINGBENCH_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "ringbench/common.h" /* rb_splitmix64, rb_now_ns */
#include "ringbench/ring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- generated member ids --- */

/* Bytes in one generated id: "worker-" + 12 lowercase hex digits. */
#define RB_SWEEP_ID_BYTES 19u

/*
 * rb_sweep_ids — a membership of `n` distinct members `worker-<hex>` of weight
 * 1 drawn from splitmix64 seeded with `seed`. The ids live in `storage`
 * (n * RB_SWEEP_ID_BYTES bytes, caller-owned); members[0..n) point into it.
 * The first k members of a larger draw equal a draw of k (prefix-stable), so
 * "add one member" is drawing n+1 and using the first n as the base.
 */
void rb_sweep_ids(uint64_t seed, size_t n, char *storage, rb_member *members);

/* --- bucket tables --- */

/*
 * rb_sweep_table — build a ring of `algo` over members[0..n) with `cfg`, write
 * the owner of every bucket into owners[0 .. cfg->n_buckets), destroy the
 * ring. Returns 0 or the rb_ring_build error.
 */
int rb_sweep_table(const rb_algo *algo, const rb_config *cfg, const rb_member *members, size_t n,
                   uint32_t *owners);

/*
 * rb_keys_per_bucket — count keys per bucket: out[b] = number of keys whose
 * bucket under cfg (bucket_hash, seed, B) is b. out has B entries.
 */
void rb_keys_per_bucket(const rb_config *cfg, char *const *keys, const size_t *len, size_t n_keys,
                        uint32_t *out);

/* --- one membership change --- */

typedef enum {
    RB_CHANGE_ADD,           /* append member N to members 0..N-1 */
    RB_CHANGE_REMOVE_LAST,   /* remove member N-1 */
    RB_CHANGE_REMOVE_MIDDLE, /* remove member floor((N-1)/2) */
} rb_change_kind;

/* Name of a change kind: "add", "remove_last", "remove_middle". */
const char *rb_change_name(rb_change_kind kind);

/* Index of the member a change adds or removes, for a membership of n. */
size_t rb_change_member(rb_change_kind kind, size_t n);

typedef struct rb_movement {
    double ideal_fraction;        /* 1/(N+1) on add, 1/N on remove */
    uint64_t n_moved_buckets;     /* buckets whose owner changed */
    uint64_t n_violating_buckets; /* of those, monotonicity violations */
    double moved_bucket_fraction; /* n_moved_buckets / B */
    uint64_t n_moved_keys;        /* keys in moved buckets */
    uint64_t n_violating_keys;    /* keys in violating buckets */
    double moved_key_fraction;    /* n_moved_keys / n_keys (0 when no keys) */
} rb_movement;

/*
 * rb_sweep_movement — compare bucket tables `before` (over n_before members)
 * and `after` (the membership after `kind`), B entries each. `keys_per_bucket`
 * (B entries) may be NULL (key fields then 0); n_keys is its sum.
 * Owner indices of `after` are mapped back to the members of `before` (see
 * the header comment) to decide moved and violating.
 */
void rb_sweep_movement(const uint32_t *before, const uint32_t *after, uint32_t n_buckets,
                       size_t n_before, rb_change_kind kind, const uint32_t *keys_per_bucket,
                       uint64_t n_keys, rb_movement *out);

/* --- load spread --- */

typedef struct rb_spread {
    double peak_to_mean; /* max load / mean load */
    double min_to_mean;  /* min load / mean load */
    double cv;           /* standard deviation / mean (population) */
} rb_spread;

/*
 * rb_sweep_spread — spread of the load of members[0..n) under bucket table
 * `owners` (B entries). Load of a bucket is 1, or keys_per_bucket[b] when that
 * is not NULL; each member's load is divided by its weight. A zero total load
 * gives all fields 0.
 */
void rb_sweep_spread(const uint32_t *owners, uint32_t n_buckets, const rb_member *members, size_t n,
                     const uint32_t *keys_per_bucket, rb_spread *out);

/* rb_integer_floor — ceil(B/N)/(B/N): the lowest peak-to-mean B buckets can
 * have over N members of weight 1. */
double rb_integer_floor(uint32_t n_buckets, uint32_t n_members);

/* rb_bucket_positions — ring positions of the B buckets under cfg (ring_hash
 * of the decimal label, as ring.h defines them) into pos[0 .. B). */
void rb_bucket_positions(const rb_config *cfg, uint64_t *pos);

/*
 * rb_sampling_peak_to_mean — peak-to-mean of the load when each of the B
 * buckets (ring positions pos[0..B)) goes to one of n_members members drawn
 * uniformly and independently (keyed by the position and `seed`). This is
 * the limit a vnode ring tends to as V grows: every member owns 1/N of the
 * ring, yet the count of buckets landing in its share still varies
 * (binomially, sd ~ sqrt(B/N)); it only falls with B. Load per bucket: 1, or
 * keys_per_bucket[b] when not NULL. Returns the peak-to-mean (0 when the
 * total load is 0, or out of memory).
 */
double rb_sampling_peak_to_mean(const uint64_t *pos, uint32_t n_buckets, uint32_t n_members,
                                uint64_t seed, const uint32_t *keys_per_bucket);

/* --- agreement --- */

/* One placement rule shared by several (algorithm, table_source) variants. */
typedef struct rb_agreement_variant {
    const char *algo;         /* registry name */
    const char *table_source; /* for `table`: the filling algorithm; else NULL */
} rb_agreement_variant;

/* The groups of variants that must give identical bucket tables: the sorted
 * vnode ring (linear, binary, table from binary, table from linear). */
typedef struct rb_agreement_group {
    const char *rule;
    const rb_agreement_variant *variants;
    size_t n_variants;
} rb_agreement_group;

size_t rb_agreement_group_count(void);
const rb_agreement_group *rb_agreement_group_at(size_t i);

/*
 * rb_sweep_agreement — build every registered variant of `group` over the
 * membership with `cfg` and compare their bucket tables with the first
 * variant's. *n_disagreeing gets the number of buckets where some variant
 * differs from the first; *first_bad_variant the index of the first variant
 * that differs (0 when none). Variants whose algorithm is not registered are
 * skipped. `scratch` needs 2*B entries. Returns 0 or a build error.
 */
int rb_sweep_agreement(const rb_agreement_group *group, const rb_config *cfg,
                       const rb_member *members, size_t n, uint32_t *scratch,
                       uint64_t *n_disagreeing, size_t *first_bad_variant);

/* --- one sweep case: all changes and spreads for one membership --- */

typedef struct rb_case {
    rb_movement change[3];   /* indexed by rb_change_kind; remove_* unset when N = 1 */
    int has_remove;          /* N >= 2 */
    rb_spread bucket_spread; /* of the base membership */
    rb_spread key_spread;    /* of the base membership (zero without keys) */
} rb_case;

/*
 * rb_sweep_case — measure add, remove last, remove middle and the spreads for
 * members[0..n) (members[n] must exist: the member that is added). Each
 * change is made with rb_ring_derive from the ring of members[0..n), so an
 * algorithm with incremental add/remove is measured through it. `scratch`
 * needs 2*B entries. Returns 0 or a build error.
 */
int rb_sweep_case(const rb_algo *algo, const rb_config *cfg, const rb_member *members, size_t n,
                  const uint32_t *keys_per_bucket, uint64_t n_keys, uint32_t *scratch,
                  rb_case *out);

/* --- the seed's example --- */

/* The seed's headline: 3 workers -> 4, 1,024 buckets, 128 vnodes per worker.
 * Ideal movement: B/(N+1) = 256 buckets. */
#define RB_SEED_EXAMPLE_N 3u
#define RB_SEED_EXAMPLE_VNODES 128u
#define RB_SEED_EXAMPLE_BUCKETS 1024u

typedef struct rb_seed_example {
    uint64_t n_ideal_buckets;     /* B/(N+1) = 256 */
    uint64_t n_moved_buckets;     /* worker-1,2,3 -> + worker-4 */
    uint64_t n_violating_buckets; /* moved, but not to worker-4 */
    double mean_moved_buckets;    /* over the random memberships */
    uint64_t worst_moved_buckets; /* most moved over the random memberships */
    size_t n_seeds;               /* random memberships (seeds first_seed ..) */
} rb_seed_example;

/*
 * rb_seed_example_run — the seed's example for `algo` with ring hash = bucket
 * hash = `hash`: members worker-1, worker-2, worker-3 (the seed's names), then
 * worker-4 appended; also n_seeds random memberships from rb_sweep_ids with
 * seeds first_seed, first_seed+1, ... Returns 0 or a build error.
 */
int rb_seed_example_run(const rb_algo *algo, const rb_hash *hash, size_t n_seeds,
                        uint64_t first_seed, rb_seed_example *out);

#ifdef __cplusplus
}
#endif
#endif
