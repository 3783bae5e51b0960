/*
 * anchor.c — AnchorHash over member slots.
 * Source: G. Mendelson, S. Vargaftik, K. Barabash, D. H. Lorenz, I. Keslassy,
 * A. Orda, "AnchorHash: A Scalable Consistent Hash", IEEE/ACM Transactions on
 * Networking 29(2), 2021: the implementation algorithm (anchor array A,
 * "replaced by" array K, removed-bucket stack R; GetBucket, RemoveBucket,
 * AddBucket), in the memory-saving form of the authors' code (A and K only,
 * W and L recomputed by following K: anchorhash/cpp-anchorhash, mem/).
 *
 * Slots (the paper's buckets) 0 .. a-1, a = the capacity (parameter
 * `capacity`; default 0: the power of two >= 2 x the total weight of the
 * first build, which a derived ring keeps; see rb_stateful_capacity). Slot
 * owners and the removed-slot stack follow slotmap.h: a fresh build gives the
 * members slots in list order (slots 0 .. N-1 for N members of weight 1, the
 * others "removed" in the order a-1 .. N, as the paper's initialisation);
 * derive (rb_ring_derive) removes and adds members without moving anyone
 * else: removing ANY member moves only its buckets, adding one takes the last
 * removed slot and moves buckets only to it.
 *
 * A[b] = 0 for a working slot, else the number of working slots just after
 * b was removed; K[b] = the slot that took b's place in the view of size
 * A[b]. Lookup of a ring position `pos` (a bucket's position, ring.h):
 *     b = range(h(pos, 0), a)
 *     while A[b] > 0:                       b was removed
 *         h = range(h(pos, b + 1), A[b])    re-hash into b's view
 *         while A[h] >= A[b]: h = K[h]      h was removed before b: its replacer
 *         b = h
 * with h(pos, j) = rb_slot_hash and range = rb_slot_range (slotmap.h). The
 * expected number of rounds is at most 1 + ln(a / N) (the paper's bound).
 *
 * Memory: 8 bytes per slot of capacity (A, K) plus 4 per used slot (owner)
 * and 4 per removed slot. Built rings are immutable: concurrent lookups need
 * no lock; derive reads the old ring and writes only the new one.
 */
#include <stdlib.h>

#include "slotmap.h"

typedef struct {
    rb_ring hdr;
    rb_slotmap map;
    uint32_t capacity; /* a */
    uint32_t *A;       /* a entries */
    uint32_t *K;       /* a entries */
} anchor_ring;

static const rb_param_spec params[] = {
    {"capacity", "slots a, >= the total member weight; 0: the power of two >= 2 x the total weight",
     0, 0, RB_MAX_POINTS, NULL},
};

/* A and K from the slot map: slots >= n_used removed in the order a-1 .. n_used
 * (A[j] = j, K[j] = j), then the stack replayed oldest first (RemoveBucket). */
static void fill_anchor(anchor_ring *r) {
    const rb_slotmap *m = &r->map;
    for (uint32_t j = 0; j < r->capacity; j++) {
        r->A[j] = j < m->n_used ? 0 : j;
        r->K[j] = j;
    }
    for (uint32_t i = 0; i < m->n_removed; i++) {
        uint32_t b = m->removed[i], n = m->n_used - i, h = n - 1; /* n: working before */
        while (r->A[h] >= n)
            h = r->K[h];
        r->K[b] = h;
        r->A[b] = n - 1;
    }
}

static int build(const rb_ring *hdr, rb_ring **out) {
    const rb_ring *old = rb_stateful_origin(hdr);
    uint32_t a;
    int rc =
        rb_stateful_capacity(hdr, old ? ((const anchor_ring *)old)->capacity : 0, "anchor", &a);
    if (rc) return rc;
    anchor_ring *r = calloc(1, sizeof *r);
    if (!r) return rb_set_error(RB_ENOMEM, "out of memory for a ring");
    r->hdr = *hdr;
    r->capacity = a;
    rc =
        old ? rb_slotmap_derive(&r->map, &((const anchor_ring *)old)->map, old, hdr, 0, a, "anchor")
            : rb_slotmap_fresh(&r->map, hdr, 0);
    if (rc) {
        free(r);
        return rc;
    }
    r->A = malloc((size_t)a * sizeof *r->A);
    r->K = malloc((size_t)a * sizeof *r->K);
    if (!r->A || !r->K) {
        free(r->A), free(r->K), rb_slotmap_free(&r->map), free(r);
        return rb_set_error(RB_ENOMEM, "out of memory for an anchor of %u slots", a);
    }
    fill_anchor(r);
    *out = &r->hdr;
    return 0;
}

static uint32_t anchor_slot(const anchor_ring *r, uint64_t pos) {
    const uint32_t *A = r->A, *K = r->K;
    uint32_t b = rb_slot_range(rb_slot_hash(pos, 0), r->capacity);
    while (A[b]) {
        uint32_t view = A[b], h = rb_slot_range(rb_slot_hash(pos, (uint64_t)b + 1), view);
        while (A[h] >= view)
            h = K[h];
        b = h;
    }
    return b;
}

static uint32_t owner_position(const rb_ring *ring, uint64_t pos) {
    const anchor_ring *r = (const anchor_ring *)ring;
    return r->map.owner[anchor_slot(r, pos)];
}

static size_t bytes_held(const rb_ring *ring) {
    const anchor_ring *r = (const anchor_ring *)ring;
    return sizeof *r - sizeof(rb_ring) + rb_slotmap_bytes(&r->map) +
           2 * (size_t)r->capacity * sizeof(uint32_t);
}

static void destroy(rb_ring *ring) {
    anchor_ring *r = (anchor_ring *)ring;
    free(r->A), free(r->K), rb_slotmap_free(&r->map), free(r);
}

const rb_algo rb_algo_anchor = {
    .name = "anchor",
    .description = "AnchorHash over member slots (list order; derive: any removal minimal)",
    .source = "Mendelson et al., AnchorHash: A Scalable Consistent Hash, IEEE/ACM ToN 2021",
    .flags = RB_ALGO_POSITIONAL | RB_ALGO_MONOTONE | RB_ALGO_WEIGHTED,
    .build = build,
    .owner_position = owner_position,
    .bytes_held = bytes_held,
    .destroy = destroy,
    .derive = rb_stateful_derive,
    /* through derive a change moves exactly the changed member's slots'
     * share: about the ideal; 1.5 leaves room for the spread of slot shares
     * over B = 1024 buckets at small N, as for jump */
    .movement_bound = 1.5,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
};
