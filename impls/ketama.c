/*
 * ketama.c — a ring compatible with libketama (R. Jones, last.fm, 2007) and
 * the memcached clients that copy it: for the same server list and weights
 * it gives the same owner as libketama's ketama_get_server for every key.
 * Source: libketama's published algorithm (ketama.c: ketama_create_continuum,
 * ketama_hashi, ketama_get_server), the continuum of Karger et al., STOC
 * 1997, sec. 4, over MD5 (RFC 1321).
 *
 * Points: server i of weight w_i (libketama's "memory") gets
 * ks = floorf(pct * 40.0 * N) digests, pct = (float)w_i / (float)sum(w), so
 * 40 digests (160 points) per server when weights are equal; digest k is
 * MD5 of the label "<id>-<k>" (id bytes, '-', decimal k: libketama's
 * "%s-%d" of the server address, e.g. "10.0.1.1:11211-0"), and each digest
 * gives 4 points, point h = digest bytes 4h..4h+3 read little-endian.
 * A key's position is the first 4 bytes of MD5(key), little-endian; its
 * owner is the first point >= the position, wrapping to the first point.
 * Here a bucket is the key "<b>" (decimal), so bucket b's owner is
 * ketama_get_server("<b>"): build writes these MD5 positions over the
 * header's bucket positions (RB_ALGO_OWN_HASH). Ring positions
 * (owner_position) are the low 32 bits of the given position. The ring hash
 * (--hash) is not used: MD5 is part of the format; the bucket hash still
 * maps keys to buckets.
 *
 * Lookup: libketama's binary search gives the first point >= the position;
 * here the front table of front_table.h (2 slots per point, 8 bytes each,
 * over the top bits of the 32-bit position) answers most lookups with one
 * load and falls back to the same search of the continuum otherwise, so the
 * owners are exactly the search's.
 *
 * Equal points (libketama's qsort leaves their order unspecified) are
 * ordered by member id, digest and point index, as ring.h's total order.
 * Monotone for equal weights (the others' points stay); with unequal
 * weights a change rescales every server's ks, so monotonicity is not
 * claimed. A weight so small that ks = 0 is rejected (RB_ENOPOINT).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front_table.h"
#include "md5.h"
#include "ring_impl.h"
#include "vnode_ring.h"

#define KETAMA_DIGESTS_PER_UNIT 40.0 /* libketama: 40 digests x 4 points = 160 per server */
#define KETAMA_POINTS_PER_DIGEST 4u

typedef struct {
    rb_ring hdr;
    rb_vnode_ring vr;  /* the continuum: n sorted 32-bit points and their owners */
    rb_front_table ft; /* its front table over the points' top bits */
} ketama_ring;

/* libketama's digest count, with its float arithmetic (pct is a float,
 * 40.0 a double, floorf of the product converted to float). */
static uint32_t digests_of(uint32_t weight, uint64_t total_weight, uint32_t n_members) {
    float pct = (float)weight / (float)total_weight;
    return (uint32_t)floorf((float)(pct * KETAMA_DIGESTS_PER_UNIT * (float)n_members));
}

/* Digest counts per member (in member index order) and their total points;
 * RB_ENOPOINT for a member with none, RB_ERANGE past RB_MAX_POINTS. */
static int count_points(const rb_ring *hdr, uint32_t *ks, uint64_t *n_points) {
    uint64_t tw = rb_ring_n_points(hdr), total = 0; /* no vnodes: the total weight */
    for (uint32_t i = 0; i < hdr->n_members; i++) {
        ks[i] = digests_of(hdr->members[i].weight, tw, hdr->n_members);
        if (ks[i] == 0)
            return rb_set_error(RB_ENOPOINT,
                                "ketama: member %u weight %u is below 1/(40 N) of the total "
                                "weight %llu and would own no point",
                                i, hdr->members[i].weight, (unsigned long long)tw);
        total += (uint64_t)ks[i] * KETAMA_POINTS_PER_DIGEST;
    }
    if (total > RB_MAX_POINTS)
        return rb_set_error(RB_ERANGE, "ketama: %llu points exceed the limit of %u",
                            (unsigned long long)total, RB_MAX_POINTS);
    *n_points = total;
    return 0;
}

/* The points of every member, generated in id order, digest by digest. */
static void make_points(const rb_ring *hdr, const uint32_t *ks, uint64_t *pos, uint32_t *owner,
                        char *label) {
    size_t k = 0;
    for (uint32_t r = 0; r < hdr->n_members; r++) {
        uint32_t idx = hdr->id_order[r];
        const rb_member *m = &hdr->members[idx];
        memcpy(label, m->id, m->id_len);
        label[m->id_len] = '-';
        for (uint32_t d = 0; d < ks[idx]; d++) {
            unsigned char dg[16];
            int len = snprintf(label + m->id_len + 1, 12, "%u", d);
            rb_md5(label, m->id_len + 1 + (size_t)len, dg);
            for (unsigned h = 0; h < KETAMA_POINTS_PER_DIGEST; h++, k++) {
                const unsigned char *b = dg + 4 * h;
                pos[k] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                         (uint32_t)b[3] << 24;
                owner[k] = idx;
            }
        }
    }
}

/* Sorted points into r->vr (a stable sort keeps the id order of equal
 * points). 0 or RB_ENOMEM. */
static int build_continuum(const rb_ring *hdr, ketama_ring *r) {
    uint32_t *ks = malloc(hdr->n_members * sizeof *ks);
    if (!ks) return rb_set_error(RB_ENOMEM, "out of memory for %u members", hdr->n_members);
    uint64_t n = 0;
    int rc = count_points(hdr, ks, &n);
    uint64_t *tmp_pos = NULL;
    uint32_t *tmp_owner = NULL;
    char *label = NULL;
    if (!rc) {
        r->vr.pos = malloc(n * sizeof *r->vr.pos), tmp_pos = malloc(n * sizeof *tmp_pos);
        r->vr.owner = malloc(n * sizeof *r->vr.owner), tmp_owner = malloc(n * sizeof *tmp_owner);
        label = malloc(RB_MAX_ID_BYTES + 12);
        if (!r->vr.pos || !tmp_pos || !r->vr.owner || !tmp_owner || !label)
            rc = rb_set_error(RB_ENOMEM, "out of memory for a ring of %llu points",
                              (unsigned long long)n);
    }
    if (!rc) {
        make_points(hdr, ks, r->vr.pos, r->vr.owner, label);
        rb_sort_u64_stable(r->vr.pos, r->vr.owner, tmp_pos, tmp_owner, n);
        r->vr.n = (uint32_t)n;
    }
    free(ks), free(tmp_pos), free(tmp_owner), free(label);
    return rc;
}

static void free_ring(ketama_ring *r) {
    rb_vnode_ring_free(&r->vr);
    rb_front_table_free(&r->ft);
    free(r);
}

static int build(const rb_ring *hdr, rb_ring **out) {
    ketama_ring *r = calloc(1, sizeof *r);
    if (!r) return rb_set_error(RB_ENOMEM, "out of memory for a ring");
    r->hdr = *hdr;
    int rc = build_continuum(hdr, r);
    if (!rc)
        rc = rb_front_table_build(&r->ft, &r->vr, 32, RB_FRONT_DEFAULT_SPP,
                                  RB_FRONT_DEFAULT_MAX_BITS, RB_FRONT_DEFAULT_SLOT_OWNERS,
                                  hdr->n_members);
    if (rc) {
        free_ring(r);
        return rc;
    }
    for (uint32_t b = 0; b < hdr->cfg.n_buckets; b++) { /* the header's array, ours to fill */
        char label[12];
        int len = snprintf(label, sizeof label, "%u", b);
        hdr->bucket_pos[b] = rb_md5_le32(label, (size_t)len);
    }
    *out = &r->hdr;
    return 0;
}

/* ketama_get_server: the first point >= the low 32 bits, wrapping to point
 * 0 (the front table's one load, else its search of the continuum). */
static uint32_t owner_position(const rb_ring *ring, uint64_t pos) {
    const ketama_ring *r = (const ketama_ring *)ring;
    return rb_front_table_owner(&r->ft, &r->vr, (uint32_t)pos);
}

static size_t bytes_held(const rb_ring *ring) {
    const ketama_ring *r = (const ketama_ring *)ring;
    return sizeof *r - sizeof(rb_ring) + rb_vnode_ring_bytes(&r->vr) + rb_front_table_bytes(&r->ft);
}

static void destroy(rb_ring *ring) { free_ring((ketama_ring *)ring); }

const rb_algo rb_algo_ketama = {
    .name = "ketama",
    .description = "libketama-compatible ring: MD5 of \"id-k\", 160 points per server by weight",
    .source = "libketama (R. Jones, last.fm, 2007): ketama_create_continuum, ketama_get_server; "
              "Karger et al., STOC 1997, sec. 4",
    .flags = RB_ALGO_POSITIONAL | RB_ALGO_ORDER_FREE | RB_ALGO_WEIGHTED | RB_ALGO_OWN_HASH |
             RB_ALGO_MAY_REFUSE_WEIGHTS,
    .build = build,
    .owner_position = owner_position,
    .bytes_held = bytes_held,
    .destroy = destroy,
};
