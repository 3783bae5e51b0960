/*
 * table.c — precomputed bucket table: B entries bucket -> owner, filled at
 * build time from a ring algorithm (cfg.table_source, `binary` by default).
 * A lookup is one array load after the bucket hash. The table agrees with its
 * source on every bucket and inherits its movement and spread; what it
 * changes is the lookup and rebuild cost (refill B entries on every
 * membership change). Not positional: it answers for buckets only.
 * Source: the seed's bucket table; cf. Maglev's lookup table (Eisenbud et al.,
 * NSDI 2016, sec. 3.4) for the same idea with another fill rule.
 */
#include <stdlib.h>
#include <string.h>

#include "ring_impl.h"

typedef struct {
    rb_ring hdr;
    uint32_t *owner; /* B entries */
} table_ring;

extern const rb_algo rb_algo_table;

static int build(const rb_ring *hdr, rb_ring **out) {
    const char *src_name = hdr->cfg.table_source ? hdr->cfg.table_source : "binary";
    if (strcmp(src_name, "table") == 0)
        return rb_set_error(RB_EINVAL, "table cannot be filled from itself");
    const rb_algo *src = rb_algo_by_name(src_name);
    if (!src) return RB_EUNKNOWN;
    if (!(src->flags & RB_ALGO_POSITIONAL))
        return rb_set_error(RB_EINVAL, "table source '%s' is not positional", src_name);
    rb_ring *inner;
    int rc = rb_ring_build(src, &hdr->cfg, hdr->members, hdr->n_members, &inner);
    if (rc) return rc;
    table_ring *r = malloc(sizeof *r);
    uint32_t *owner = malloc((size_t)hdr->cfg.n_buckets * sizeof *owner);
    if (!r || !owner) {
        free(r), free(owner);
        rb_ring_destroy(inner);
        return rb_set_error(RB_ENOMEM, "out of memory for a table of %u buckets",
                            hdr->cfg.n_buckets);
    }
    rb_ring_fill_table(inner, owner);
    rb_ring_destroy(inner);
    r->hdr = *hdr;
    r->owner = owner;
    *out = &r->hdr;
    return 0;
}

static uint32_t owner_bucket(const rb_ring *ring, uint32_t b) {
    return ((const table_ring *)ring)->owner[b];
}

static size_t bytes_held(const rb_ring *ring) {
    return sizeof(table_ring) - sizeof(rb_ring) + (size_t)ring->cfg.n_buckets * sizeof(uint32_t);
}

static void destroy(rb_ring *ring) {
    table_ring *r = (table_ring *)ring;
    free(r->owner);
    free(r);
}

/* The properties of a table are its source's (it agrees with the source on
 * every bucket), minus the ring positions: `table` from `jump` depends on
 * member order and is monotone only at the end of the list, like `jump`. */
static unsigned flags_for(const rb_config *cfg) {
    const rb_algo *src = rb_algo_by_name(cfg->table_source ? cfg->table_source : "binary");
    if (!src || src == &rb_algo_table) return 0;
    return rb_algo_flags(src, cfg) & ~(unsigned)RB_ALGO_POSITIONAL;
}

const rb_algo rb_algo_table = {
    .name = "table",
    .description = "precomputed bucket table (B entries) filled from a ring (binary by default)",
    .source = "the seed's 1,024-bucket table; cf. Eisenbud et al., Maglev, NSDI 2016, sec. 3.4",
    .flags = RB_ALGO_ORDER_FREE | RB_ALGO_USES_VNODES | RB_ALGO_MONOTONE | RB_ALGO_WEIGHTED |
             RB_ALGO_READS_SOURCE,
    .build = build,
    .owner_position = NULL,
    .owner_bucket = owner_bucket,
    .bytes_held = bytes_held,
    .destroy = destroy,
    .flags_for = flags_for,
};
