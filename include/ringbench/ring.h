/*
 * ringbench/ring.h — one C interface for every ring algorithm.
 *
 * Routing in the measured system (shared/DESIGN.md):
 *
 *     key --bucket_hash mod B--> bucket --ring--> owner (member index)
 *
 * A bucket b (0 <= b < B) has a fixed ring position: ring_hash of its label,
 * the decimal ASCII digits of b ("0" .. "1023"), under the ring seed. So with
 * the fnv1a32 hash, the owner of bucket b is the seed's lookupOwner(String(b)).
 * Positional algorithms (all but `table`) map any position to an owner; the
 * owner of a bucket is the owner of its position, the owner of a key the owner
 * of its bucket.
 *
 * A built ring (rb_ring) is immutable: any number of threads may look up
 * concurrently without locks. A membership change builds a new ring.
 *
 * Vnodes: a member of weight w has V*w vnodes. Vnode i of member `id` sits at
 * ring_hash(label) where label = id bytes, '#', decimal digits of i. The label
 * is injective in (id, i): the last '#' splits it, digits contain no '#'.
 * Ring points are totally ordered by (position, member id bytes compared with
 * memcmp then length, vnode index); a position equal to several points is
 * owned by the first in that order, so `linear`, `binary` and `table` agree
 * and removing one of the colliding members leaves the other's point.
 *
 * Errors: 0 or a negative RB_E* code (ringbench/error.h) with a detail
 * message from rb_error_detail(). Lookups cannot fail.
 */
#ifndef RINGBENCH_RING_H
#define RINGBENCH_RING_H

#include <stddef.h>
#include <stdint.h>

#include "ringbench/error.h"
#include "ringbench/hash.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Defaults: the seed's example values. */
#define RB_DEFAULT_N_VNODES 128u  /* the seed's "128 points on the ring" */
#define RB_DEFAULT_N_BUCKETS 1024u /* the seed's 1,024 database buckets */

/* Limits that keep sizes far from overflow; larger requests get RB_ERANGE. */
#define RB_MAX_MEMBERS (1u << 20)  /* members in one membership */
#define RB_MAX_POINTS (1u << 26)   /* vnodes (or slots) in one ring: 67M */
#define RB_MAX_BUCKETS (1u << 24)  /* B */
#define RB_MAX_ID_BYTES 1024u      /* bytes in one member id */
#define RB_MAX_WEIGHT (1u << 16)   /* weight of one member */

/* One member of a membership. The caller owns `id`; rb_ring_build copies it. */
typedef struct rb_member {
    const void *id;  /* member id bytes (non-empty, unique in the membership) */
    size_t id_len;   /* length of id in bytes, 1 .. RB_MAX_ID_BYTES */
    uint32_t weight; /* 1 .. RB_MAX_WEIGHT; 0 leaves no point and is rejected */
} rb_member;

/* Parameters of a ring. Initialise with rb_config_init(), then override. */
typedef struct rb_config {
    uint32_t n_vnodes;          /* V, vnodes per unit of weight; >= 1 */
    uint32_t n_buckets;         /* B, >= 1 */
    const rb_hash *ring_hash;   /* places vnodes and bucket positions */
    const rb_hash *bucket_hash; /* key -> bucket (bucket_hash(key) mod B) */
    uint64_t seed;              /* seed of both hashes */
    const char *table_source;   /* `table` only: algorithm that fills it ("binary") */
} rb_config;

/*
 * rb_config_init — defaults: V = 128, B = 1024, both hashes xxh3, seed 0,
 * table_source "binary". Never fails.
 */
void rb_config_init(rb_config *cfg);

typedef struct rb_ring rb_ring;
typedef struct rb_algo rb_algo;

/* Algorithm properties (rb_algo.flags). */
enum {
    RB_ALGO_POSITIONAL = 1u << 0,    /* owner_position is implemented */
    RB_ALGO_ORDER_FREE = 1u << 1,    /* owners do not depend on member order */
    RB_ALGO_USES_VNODES = 1u << 2,   /* n_vnodes changes the mapping */
    RB_ALGO_MONOTONE = 1u << 3,      /* adding/removing any member moves only its items */
    RB_ALGO_MONOTONE_LAST = 1u << 4, /* ... only when it is the last member (jump) */
    RB_ALGO_CONTROL = 1u << 5,       /* a deliberately non-consistent baseline (modn) */
};

/*
 * The ring header every implementation embeds as its first member. Built and
 * filled by rb_ring_build before the algorithm's build runs; read-only after.
 */
struct rb_ring {
    const rb_algo *algo;
    rb_config cfg;
    uint32_t n_members;
    const rb_member *members; /* copies; ids owned by the ring */
    uint32_t *id_order;       /* member indices sorted by id (the tie-break order) */
    uint64_t *bucket_pos;     /* B ring positions of the buckets (positional algos) */
    uint64_t bucket_mask;     /* B - 1 when B is a power of two, else 0 */
    size_t header_bytes;      /* bytes held by this header, ids and bucket_pos */
};

/*
 * rb_algo — the operations table of one algorithm. Every table is static and
 * listed once in the registry (impls/registry.c). Members after `destroy` are
 * optional extensions (NULL when absent); new members are only ever appended.
 */
struct rb_algo {
    const char *name;        /* registry name, e.g. "binary" */
    const char *description; /* one line for `ringbench list` */
    const char *source;      /* paper / origin of the algorithm */
    unsigned flags;          /* RB_ALGO_* */

    /* build: given the header `hdr` already validated and filled by
     * rb_ring_build, allocate the algorithm's ring (which embeds rb_ring as its
     * first member, copied from *hdr) and store it in *out. Returns 0, or
     * RB_ENOMEM / RB_ERANGE / RB_ENOTSUP with a detail; on failure *out is
     * untouched and nothing leaks. */
    int (*build)(const rb_ring *hdr, rb_ring **out);

    /* owner_position: member index owning 64-bit ring position `pos`.
     * NULL for non-positional algorithms (`table`). Cannot fail. */
    uint32_t (*owner_position)(const rb_ring *r, uint64_t pos);

    /* owner_bucket: member index owning bucket b, 0 <= b < B (not checked in
     * the hot path). Cannot fail. */
    uint32_t (*owner_bucket)(const rb_ring *r, uint32_t b);

    /* bytes_held: bytes the algorithm allocated beyond the header (see
     * rb_ring_bytes_held). Cannot fail. */
    size_t (*bytes_held)(const rb_ring *r);

    /* destroy: free what build allocated, including r itself. */
    void (*destroy)(rb_ring *r);

    /* --- optional extensions (NULL when absent) --- */

    /* owners_k: up to k distinct owners of bucket b in preference order into
     * out[0..k); returns the number written (min(k, n_members)). For
     * replicas. */
    uint32_t (*owners_k)(const rb_ring *r, uint32_t b, uint32_t *out, uint32_t k);

    /* derive: build a new ring from `old` after one membership change, for
     * stateful algorithms with incremental add/remove (AnchorHash,
     * MementoHash). `members` is the full new membership. NULL: rebuild. */
    int (*derive)(const rb_ring *old, const rb_member *members, size_t n_members,
                  rb_ring **out);
};

/* --- the registry --- */

/* Number of registered algorithms, and the i-th in registry order (NULL when
 * out of range). The CLI, the verifier and the benchmarks iterate these. */
size_t rb_algo_count(void);
const rb_algo *rb_algo_at(size_t i);

/* rb_algo_by_name — the algorithm called `name`, or NULL with an RB_EUNKNOWN
 * detail listing the valid names. */
const rb_algo *rb_algo_by_name(const char *name);

/* --- building --- */

/*
 * rb_ring_build — build a ring of `algo` over members[0 .. n_members).
 * Validates (the code returned when violated):
 *   n_members >= 1 (RB_EEMPTY) and <= RB_MAX_MEMBERS (RB_ERANGE);
 *   members non-NULL, ids non-empty (RB_EINVAL), <= RB_MAX_ID_BYTES
 *   (RB_ERANGE) and unique (RB_EDUP);
 *   weights >= 1 (RB_ENOPOINT) and <= RB_MAX_WEIGHT (RB_ERANGE);
 *   V >= 1 (RB_ENOPOINT); B >= 1 and <= RB_MAX_BUCKETS (RB_ERANGE);
 *   points (V x total weight for vnode algorithms, total weight otherwise)
 *   <= RB_MAX_POINTS (RB_ERANGE; compared without overflow);
 *   cfg, algo and both hashes non-NULL (RB_EINVAL);
 *   ids valid input for the ring hash (RB_EENCODING: invalid UTF-8 under
 *   fnv1a32-js).
 * `verify/test_contract.c` checks each of these for every algorithm.
 * Copies the ids; the caller keeps ownership of `members`.
 * On success *out owns a ring to free with rb_ring_destroy. On failure *out is
 * set to NULL. Thread-safe (no shared state).
 */
int rb_ring_build(const rb_algo *algo, const rb_config *cfg, const rb_member *members,
                  size_t n_members, rb_ring **out);

/* rb_ring_destroy — free a ring; NULL is a no-op. Not concurrent with lookups
 * on the same ring. */
void rb_ring_destroy(rb_ring *r);

/* --- lookups (thread-safe, cannot fail) --- */

/* rb_bucket_of — bucket of a key: bucket_hash(key, seed) mod B. */
uint32_t rb_bucket_of(const rb_config *cfg, const void *key, size_t len);

/* rb_ring_bucket_of_hash — bucket of a precomputed bucket hash h: h mod B. */
static inline uint32_t rb_ring_bucket_of_hash(const rb_ring *r, uint64_t h) {
    return (uint32_t)(r->bucket_mask ? (h & r->bucket_mask) : (h % r->cfg.n_buckets));
}

/* rb_ring_owner_bucket — owner (member index) of bucket b, 0 <= b < B. */
static inline uint32_t rb_ring_owner_bucket(const rb_ring *r, uint32_t b) {
    return r->algo->owner_bucket(r, b);
}

/* rb_ring_owner_hash — owner of a key whose bucket hash is h (the value a
 * producer stores), i.e. owner of bucket h mod B. */
static inline uint32_t rb_ring_owner_hash(const rb_ring *r, uint64_t h) {
    return r->algo->owner_bucket(r, rb_ring_bucket_of_hash(r, h));
}

/* rb_ring_owner_key — owner of a key (any bytes; NULL allowed when len 0). */
uint32_t rb_ring_owner_key(const rb_ring *r, const void *key, size_t len);

/* rb_ring_fill_table — owners of all B buckets into owners[0 .. B). */
void rb_ring_fill_table(const rb_ring *r, uint32_t *owners);

/* rb_ring_member_id — id bytes of member `idx` (< n_members); *len gets the
 * length. Pointer valid while the ring lives. */
const void *rb_ring_member_id(const rb_ring *r, uint32_t idx, size_t *len);

/* rb_ring_bytes_held — bytes held by the ring: the algorithm's structures plus
 * the header, the copied ids and the bucket positions. */
size_t rb_ring_bytes_held(const rb_ring *r);

/* rb_ring_n_points — number of vnodes/slots a ring of these members has:
 * V * total weight for vnode algorithms, total weight otherwise. */
uint64_t rb_ring_n_points(const rb_ring *r);

/* rb_vnode_label — write the label of vnode `i` of member `id` (id, '#',
 * decimal i) into buf (size >= id_len + 12); returns its length. */
size_t rb_vnode_label(char *buf, const void *id, size_t id_len, uint32_t i);

/* rb_jump_hash — Lamping & Veach's jump consistent hash (arXiv:1406.2294,
 * figure 1): the bucket in [0, n_buckets) of a 64-bit key; n_buckets >= 1.
 * Exposed for known-answer tests. Pure. */
uint32_t rb_jump_hash(uint64_t key, uint32_t n_buckets);

#ifdef __cplusplus
}
#endif
#endif
