/*
 * maglev.c — Maglev hashing: a lookup table of M entries (M prime), each
 * member filling it in turn along its own permutation of 0..M-1.
 * Source: D. E. Eisenbud et al., "Maglev: A Fast and Reliable Software
 * Network Load Balancer", NSDI 2016, section 3.4 (pseudo-code 1, "Populate
 * Maglev hashing lookup table").
 *
 * Member i's permutation: offset = h1(id) mod M, skip = h2(id) mod (M-1) + 1,
 * permutation[j] = (offset + j * skip) mod M; with M prime every skip is
 * coprime to M, so the permutation visits every entry. Here h1 is the ring
 * hash of the id bytes under the ring seed, h2 the ring hash under
 * seed XOR RB_MAGLEV_SKIP_SEED. Members take turns in id order (so the table
 * does not depend on list order); a member of weight w takes w entries per
 * round (the weighted variant sec. 3.4 mentions). The owner of a position is
 * entry[position mod M].
 *
 * Not monotone: a change also moves some entries between members that stay
 * (the paper's "disruption"); `ringbench verify` reports it and checks the
 * declared bound. M must be prime and >= the total weight (each turn takes an
 * entry; a member with no entry would own nothing).
 */
#include <stdlib.h>

#include "ring_impl.h"

#define RB_MAGLEV_DEFAULT_M 65537u            /* the paper's "M = 65537" (sec. 5.3) */
#define RB_MAGLEV_SKIP_SEED 0x4d41474c4556ULL /* "MAGLEV": h2's seed, distinct from h1's */

typedef struct {
    rb_ring hdr;
    uint32_t *entry; /* M entries: member index */
    uint32_t m;      /* table size M */
} maglev_ring;

/* Trial division: M <= 2^24, at most 4096 divisions. */
static int check_prime(uint64_t m) {
    if (m < 2) return rb_set_error(RB_EINVAL, "%llu is not prime", (unsigned long long)m);
    for (uint64_t d = 2; d * d <= m; d++)
        if (m % d == 0)
            return rb_set_error(RB_EINVAL, "%llu is not prime (divisible by %llu)",
                                (unsigned long long)m, (unsigned long long)d);
    return 0;
}

static const rb_param_spec params[] = {
    {"table_size", "lookup table entries M, a prime >= the total member weight",
     RB_MAGLEV_DEFAULT_M, 2, 1u << 24, check_prime},
};

/* Per member (in id order): where its permutation starts, its step, and how
 * far along it the fill has gone. */
typedef struct {
    uint64_t offset, skip, next;
    uint32_t member, weight;
} maglev_cursor;

static void init_cursors(const rb_ring *hdr, uint32_t m, maglev_cursor *c) {
    const rb_hash *h = hdr->cfg.ring_hash;
    for (uint32_t k = 0; k < hdr->n_members; k++) {
        const rb_member *mb = &hdr->members[hdr->id_order[k]];
        uint64_t h1 = h->fn(mb->id, mb->id_len, hdr->cfg.seed);
        uint64_t h2 = h->fn(mb->id, mb->id_len, hdr->cfg.seed ^ RB_MAGLEV_SKIP_SEED);
        c[k] = (maglev_cursor){.offset = h1 % m,
                               .skip = h2 % (m - 1) + 1,
                               .next = 0,
                               .member = hdr->id_order[k],
                               .weight = mb->weight};
    }
}

/* One turn of pseudo-code 1: the member's next free entry along its
 * permutation becomes its own. */
static void take_turn(maglev_cursor *c, uint32_t *entry, uint32_t m) {
    uint64_t slot = (c->offset + c->next * c->skip) % m;
    while (entry[slot] != UINT32_MAX)
        slot = (c->offset + ++c->next * c->skip) % m;
    entry[slot] = c->member;
    c->next++;
}

/* Pseudo-code 1: rounds over the members until all M entries are filled. */
static void populate(maglev_cursor *c, uint32_t n, uint32_t *entry, uint32_t m) {
    for (uint32_t j = 0; j < m; j++)
        entry[j] = UINT32_MAX;
    for (uint32_t filled = 0;;)
        for (uint32_t k = 0; k < n; k++)
            for (uint32_t w = 0; w < c[k].weight; w++) {
                take_turn(&c[k], entry, m);
                if (++filled == m) return;
            }
}

static int build(const rb_ring *hdr, rb_ring **out) {
    uint64_t m = rb_ring_param(hdr, "table_size"), total = rb_ring_n_points(hdr);
    if (m < total)
        return rb_set_error(RB_ERANGE,
                            "maglev: --param table_size=%llu is smaller than the total weight "
                            "%llu of the members (give a prime >= %llu)",
                            (unsigned long long)m, (unsigned long long)total,
                            (unsigned long long)total);
    maglev_ring *r = malloc(sizeof *r);
    uint32_t *entry = malloc(m * sizeof *entry);
    maglev_cursor *c = malloc(hdr->n_members * sizeof *c);
    if (!r || !entry || !c) {
        free(r), free(entry), free(c);
        return rb_set_error(RB_ENOMEM, "out of memory for a Maglev table of %llu entries",
                            (unsigned long long)m);
    }
    init_cursors(hdr, (uint32_t)m, c);
    populate(c, hdr->n_members, entry, (uint32_t)m);
    free(c);
    r->hdr = *hdr, r->entry = entry, r->m = (uint32_t)m;
    *out = &r->hdr;
    return 0;
}

static uint32_t owner_position(const rb_ring *ring, uint64_t pos) {
    const maglev_ring *r = (const maglev_ring *)ring;
    return r->entry[pos % r->m];
}

static size_t bytes_held(const rb_ring *ring) {
    const maglev_ring *r = (const maglev_ring *)ring;
    return sizeof *r - sizeof(rb_ring) + (size_t)r->m * sizeof *r->entry;
}

static void destroy(rb_ring *ring) {
    maglev_ring *r = (maglev_ring *)ring;
    free(r->entry);
    free(r);
}

const rb_algo rb_algo_maglev = {
    .name = "maglev",
    .description = "Maglev lookup table of M entries (prime), filled by per-member permutations",
    .source = "Eisenbud et al., Maglev: A Fast and Reliable Software Network Load Balancer, "
              "NSDI 2016, sec. 3.4",
    .flags = RB_ALGO_POSITIONAL | RB_ALGO_ORDER_FREE | RB_ALGO_WEIGHTED,
    .build = build,
    .owner_position = owner_position,
    .bytes_held = bytes_held,
    .destroy = destroy,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    /* measured (verify, M 65537, B 1024, N 3..512): about 1% of the buckets
     * change hands between members that stay, whatever N; 2% declared */
    .movement_bound = 1.0,
    .movement_excess = 0.02,
};
