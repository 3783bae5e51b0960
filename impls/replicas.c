/*
 * replicas.c — k distinct owners of a bucket (replicas), through the
 * algorithm's owners_k: the vnode rings walk clockwise from the bucket's point
 * skipping members already chosen (wrapping; Karger et al. 1997 / Dynamo's
 * preference list, DeCandia et al., SOSP 2007, sec. 4.3); rendezvous takes the
 * k highest scores (Thaler & Ravishankar 1998); multi-probe ranks the members
 * by their closest point after any probe (the owner first). The slot algorithms (modn, jump and the
 * constant-memory family) and `table` have no replica scheme and say so.
 */
#include <stdio.h>
#include <string.h>

#include "ring_impl.h"

/* RB_ENOTSUP naming the algorithms that have a scheme (from the registry). */
static int no_scheme(const char *name) {
    char list[256] = "";
    size_t used = 0;
    for (size_t i = 0; i < rb_algo_count(); i++) {
        const rb_algo *a = rb_algo_at(i);
        if (!a->owners_k || used + strlen(a->name) + 3 >= sizeof list) continue;
        used +=
            (size_t)snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", a->name);
    }
    return rb_set_error(RB_ENOTSUP, "%s has no replica scheme (replicas: %s)", name, list);
}

int rb_ring_owners(const rb_ring *r, uint32_t b, uint32_t *out, uint32_t k) {
    if (k == 0) return rb_set_error(RB_EINVAL, "replicas must be at least 1");
    if (k > r->n_members)
        return rb_set_error(RB_ERANGE, "%u replicas need at least %u members, the ring has %u", k,
                            k, r->n_members);
    if (!r->algo->owners_k) return no_scheme(r->algo->name);
    if (b >= r->cfg.n_buckets)
        return rb_set_error(RB_EINVAL, "bucket %u is not below B = %u", b, r->cfg.n_buckets);
    uint32_t got = r->algo->owners_k(r, b, out, k);
    if (got != k)
        return rb_set_error(RB_ERANGE, "%s found %u distinct owners of bucket %u, expected %u",
                            r->algo->name, got, b, k);
    return (int)k;
}
