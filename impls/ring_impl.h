/*
 * ring_impl.h — private to impls/: the layout of a built ring. Public code
 * sees `rb_ring` as an opaque handle (ringbench/ring.h) and reads it through
 * accessors; algorithm files include this header to embed the header struct
 * as their ring's first member. In-tree hot loops (bench, verify, the CLI)
 * include it too for the inline lookups below, which skip the call into the
 * library that the public rb_ring_owner_* functions cost; it is not installed.
 */
#ifndef RINGBENCH_RING_IMPL_H
#define RINGBENCH_RING_IMPL_H

#include "ringbench/ring.h"

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

/* rb_ring_owner_bucket_of — rb_ring_owner_bucket: the algorithm's
 * owner_bucket, or when it has none (NULL) the default, the owner of the
 * bucket's ring position (owner_position of bucket_pos[b]; positional
 * algorithms only). 0 <= b < B, not checked. Pure; thread safe on a built
 * ring. */
static inline uint32_t rb_ring_owner_bucket_of(const rb_ring *r, uint32_t b) {
    const rb_algo *a = r->algo;
    return a->owner_bucket ? a->owner_bucket(r, b) : a->owner_position(r, r->bucket_pos[b]);
}

/* rb_ring_owner_hash_of — rb_ring_owner_hash inlined: owner of the bucket
 * h mod B (a mask when B is a power of two). Pure; thread safe. */
static inline uint32_t rb_ring_owner_hash_of(const rb_ring *r, uint64_t h) {
    uint32_t b = (uint32_t)(r->bucket_mask ? (h & r->bucket_mask) : (h % r->cfg.n_buckets));
    return rb_ring_owner_bucket_of(r, b);
}

/* rb_ring_owner_key_of — rb_ring_owner_key inlined: owner of a key's bucket
 * (bucket_hash of the len bytes at key, seeded). Pure; thread safe. */
static inline uint32_t rb_ring_owner_key_of(const rb_ring *r, const void *key, size_t len) {
    return rb_ring_owner_hash_of(r, r->cfg.bucket_hash->fn(key, len, r->cfg.seed));
}

/* rb_member_id_cmp — the order of member ids (the tie-break order of
 * id_order): memcmp over the common length, then the shorter first. <0, 0
 * (same id), >0. Pure. */
int rb_member_id_cmp(const rb_member *a, const rb_member *b);

/* rb_param_check_value — the value of `p` against spec's range and check, for
 * `algo`: 0, or RB_ERANGE ("ALGO: --param NAME: 'VALUE' is out of range
 * (MIN..MAX)", the range spec declares) / the check's code with a detail. */
int rb_param_check_value(const rb_algo *algo, const rb_param_spec *spec, const rb_param *p);

#endif
