/*
 * skeleton.c — skeleton-based rendezvous hashing with weights: a tree of
 * weighted highest-random-weight choices, O(f log_f N) scores per lookup
 * instead of rendezvous's N.
 * Source: W. Wang, C. V. Ravishankar, "Hash-Based Virtual Hierarchies for
 * Scalable Location Service in Mobile Ad-hoc Networks", Mobile Networks and
 * Applications 14(5), 2009 (skeleton-based rendezvous hashing: HRW over the
 * children of each node of a virtual hierarchy, from the root down to a
 * member). The paper's hierarchy is a fixed-shape tree over sites numbered
 * in order; this one is a trie over hashed member ids (below), so that it
 * does not depend on the order members are listed in. The weighted choice at
 * each node is the logarithmic method of `rendezvous` (Schindelhauer &
 * Schomaker, SPAA 2005) with each child weighted by its subtree's total
 * member weight.
 *
 * Why the shares stay proportional to weight: with E_c exponential of rate 1
 * drawn from the hash, the child with the highest W_c / E_c (the lowest
 * E_c / W_c, an exponential of rate W_c) is child c with probability
 * W_c / sum W; the minimum of the E_i / w_i over a subtree is distributed as
 * one exponential of rate sum w_i (an exponential race), so each level's
 * choice by subtree weight and then the choice inside the subtree give
 * member i the share w_i / sum(w), as flat weighted rendezvous does.
 *
 * The hierarchy (order-free and local): member i's key is
 * fmix64(ring_hash(id_i, seed)) (a trie needs the ring hash's prefixes;
 * `rendezvous` keys ids by xxh3 under a 32-bit ring hash); the members form a trie
 * over their keys, f = 2^fanout_bits children per level from the top bits,
 * with chains of one child skipped (path compression), so every node has
 * >= 2 children and adding or removing a member changes only the nodes on
 * its own path. A child is identified by its depth and its key prefix
 * (fmix64(prefix ^ depth * 0x9E3779B97F4A7C15)), whether it is a member or a
 * subtree, so that identity survives the changes of the levels below it.
 * Members whose 64-bit keys are equal (a 32-bit ring hash can collide) form
 * a group at the bottom, identified by fmix64(xxh3(id, seed) ^ "SKELETON");
 * equal scores go to the child first in key order (in a group, id order).
 *
 * Score of child c for position pos: rb_hrw_score(W_c, pos, id_c) (hrw.h,
 * shared with `rendezvous`): W_c / -ln(u), u in (0, 1) from the top 53 bits
 * of fmix64(pos ^ id_c).
 *
 * Cost of a change: not monotone. Removing member x (weight w of W) lowers
 * the subtree weights on x's path; at node a of it, whose child c toward x
 * had weight W_c of W_a, the positions that chose c and no longer do leave
 * for a sibling, wherever below c they were going. Levels are independent
 * hashes, so the product telescopes and the moved share is
 * w / (W - w) x sum over the nodes on x's path of (1 - W_c / W_a): about
 * depth x (1 - 1/f) times the ideal w / W, the depth counting only nodes
 * with two children or more (about log_f N + 1/2). Adding is the mirror
 * image. At N 1,024: about 3.4x at the default f = 8, 5x at f = 2, 2x at
 * f = 256 (measured in bench/README.md, "skeleton"); the declared
 * movement_bound, 8, holds for every fanout up to N ~ 4,096 (f = 2 there:
 * about 6.2x). Replicas: not supported.
 */
#include <stdlib.h>

#include "hrw.h"
#include "ring_impl.h"

#define SKEL_LEAF 0x80000000u /* a child reference: member index | SKEL_LEAF, else a node */
#define SKEL_GROUP_SALT 0x534b454c45544f4eULL /* "SKELETON" */
#define SKEL_GOLDEN 0x9E3779B97F4A7C15ULL

typedef struct {
    uint64_t id; /* the score's input: fmix64(pos ^ id) */
    double w;    /* the subtree's total member weight */
    uint32_t to; /* member | SKEL_LEAF, or a node index */
} skel_child;

typedef struct {
    uint32_t first, n; /* children first .. first + n - 1 */
} skel_node;

typedef struct {
    rb_ring hdr;
    skel_child *child;
    skel_node *node;
    uint32_t n_child, n_node;
    uint32_t root; /* member | SKEL_LEAF when N = 1, else node 0 */
} skel_ring;

typedef struct {
    uint64_t key;  /* fmix64(ring_hash(id)) */
    uint32_t rank; /* position in id order */
    uint32_t member;
} skel_member;

typedef struct {
    skel_ring *r;
    const skel_member *m;
    unsigned b; /* fanout_bits */
} skel_build;

static int member_cmp(const void *x, const void *y) {
    const skel_member *a = x, *b = y;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return (a->rank > b->rank) - (a->rank < b->rank);
}

/* The top min(64, b * depth) bits of key, the rest 0. */
static uint64_t prefix(uint64_t key, unsigned b, unsigned depth) {
    unsigned n = b * depth;
    return n >= 64 ? key : n == 0 ? 0 : key & ~(UINT64_MAX >> n);
}

/* The digit of key at depth d (b bits, zero-padded past bit 0). */
static unsigned digit(uint64_t key, unsigned b, unsigned d) {
    return (unsigned)((key << (b * d)) >> (64 - b));
}

static uint32_t build_range(skel_build *s, uint32_t lo, uint32_t hi, unsigned d);

/* A node over members lo .. hi - 1 (sorted by key) that share the first d
 * digits and do not all share digit d (or d is past the key: a group).
 * Children are reserved first, so a node's children are contiguous. */
static uint32_t build_node(skel_build *s, uint32_t lo, uint32_t hi, unsigned d, int group) {
    skel_ring *r = s->r;
    uint32_t n = 0;
    for (uint32_t i = lo; i < hi; i++)
        n += group || i == lo || digit(s->m[i].key, s->b, d) != digit(s->m[i - 1].key, s->b, d);
    uint32_t self = r->n_node++, first = r->n_child;
    r->node[self] = (skel_node){first, n};
    r->n_child += n; /* reserve */
    uint32_t c = first;
    for (uint32_t i = lo; i < hi; c++) {
        uint32_t j = i + 1;
        while (!group && j < hi && digit(s->m[j].key, s->b, d) == digit(s->m[i].key, s->b, d))
            j++;
        if (group) j = i + 1;
        double w = 0;
        for (uint32_t k = i; k < j; k++)
            w += r->hdr.members[s->m[k].member].weight;
        const rb_member *mi = &r->hdr.members[s->m[i].member];
        uint64_t id =
            group ? rb_hash_fmix64(rb_hash_xxh3.fn(mi->id, mi->id_len, r->hdr.cfg.seed) ^
                                   SKEL_GROUP_SALT)
                  : rb_hash_fmix64(prefix(s->m[i].key, s->b, d + 1) ^ (d + 1) * SKEL_GOLDEN);
        uint32_t to = build_range(s, i, j, d + 1);
        r->child[c] = (skel_child){id, w, to};
        i = j;
    }
    return self;
}

/* The subtree of members lo .. hi - 1 that share the first d digits: a
 * member, or the first node below d where their digits differ. */
static uint32_t build_range(skel_build *s, uint32_t lo, uint32_t hi, unsigned d) {
    if (hi - lo == 1) return s->m[lo].member | SKEL_LEAF;
    unsigned depth_max = (64 + s->b - 1) / s->b;
    while (d < depth_max && digit(s->m[lo].key, s->b, d) == digit(s->m[hi - 1].key, s->b, d))
        d++; /* sorted: the first and last share digit d iff all do */
    return build_node(s, lo, hi, d, d >= depth_max);
}

static int build(const rb_ring *hdr, rb_ring **out) {
    uint32_t n = hdr->n_members;
    skel_ring *r = calloc(1, sizeof *r);
    skel_member *m = malloc(n * sizeof *m);
    if (r) {
        r->child = malloc(2 * (size_t)n * sizeof *r->child); /* a tree of n leaves: < 2n edges */
        r->node = malloc((size_t)n * sizeof *r->node);       /* >= 2 children each: < n nodes */
    }
    if (!r || !m || !r->child || !r->node) {
        if (r) free(r->child), free(r->node);
        free(r), free(m);
        return rb_set_error(RB_ENOMEM, "out of memory for %u members", n);
    }
    r->hdr = *hdr;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = hdr->id_order[k];
        const rb_member *mi = &hdr->members[i];
        m[k] = (skel_member){
            rb_hash_fmix64(hdr->cfg.ring_hash->fn(mi->id, mi->id_len, hdr->cfg.seed)), k, i};
    }
    qsort(m, n, sizeof *m, member_cmp);
    skel_build s = {r, m, (unsigned)rb_ring_param(hdr, "fanout_bits")};
    r->root = build_range(&s, 0, n, 0);
    free(m);
    *out = &r->hdr;
    return 0;
}

static uint32_t owner_position(const rb_ring *ring, uint64_t pos) {
    const skel_ring *r = (const skel_ring *)ring;
    uint32_t to = r->root;
    while (!(to & SKEL_LEAF)) {
        const skel_node *nd = &r->node[to];
        const skel_child *c = &r->child[nd->first];
        uint32_t best = 0;
        double top = rb_hrw_score(c[0].w, pos, c[0].id);
        for (uint32_t k = 1; k < nd->n; k++) {
            double sc = rb_hrw_score(c[k].w, pos, c[k].id);
            if (sc > top) top = sc, best = k; /* strict: ties stay with the first */
        }
        to = c[best].to;
    }
    return to & ~SKEL_LEAF;
}

static size_t bytes_held(const rb_ring *ring) {
    const skel_ring *r = (const skel_ring *)ring;
    return sizeof *r - sizeof(rb_ring) + r->n_child * sizeof *r->child +
           r->n_node * sizeof *r->node;
}

static void destroy(rb_ring *ring) {
    skel_ring *r = (skel_ring *)ring;
    free(r->child), free(r->node), free(r);
}

static const rb_param_spec params[] = {
    {"fanout_bits",
     "key bits per tree level: up to 2^fanout_bits children per node; more, fewer levels (less "
     "movement), more scores per level",
     3, 1, 8, NULL},
};

const rb_algo rb_algo_skeleton = {
    .name = "skeleton",
    .description = "skeleton-based rendezvous: weighted HRW down a trie of members, O(log N)",
    .source = "Wang & Ravishankar, Mobile Networks and Applications 14(5), 2009; weights: "
              "Schindelhauer & Schomaker, SPAA 2005",
    .flags = RB_ALGO_POSITIONAL | RB_ALGO_ORDER_FREE | RB_ALGO_WEIGHTED,
    .build = build,
    .owner_position = owner_position,
    .bytes_held = bytes_held,
    .destroy = destroy,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .movement_bound = 8, /* x ideal: see "Cost of a change" above */
};
