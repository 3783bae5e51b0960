/*
 * test_replicas.c — replicas (rb_ring_owners, `ringbench owner --replicas`):
 *
 *   shape        for every algorithm with a replica scheme, N = 1..12 and
 *                every K <= N: K valid, distinct owners for every bucket, the
 *                first one the bucket's owner (so a 2-member ring asked for 2
 *                owners returns both);
 *   errors       K > N is RB_ERANGE, K = 0 RB_EINVAL, an algorithm without a
 *                scheme RB_ENOTSUP -- never a short or repeated list;
 *   monotone     adding a member changes a bucket's replica set only by the
 *                new member entering (one old member leaves); removing one
 *                changes only the sets that held it (one other member enters);
 *   movement     the replaced fraction of replica slots, sum |new \ old| /
 *                (K B), against the ideal 1/(N+1) on add and 1/N on remove
 *                (the new member's, or the removed member's, share of the K
 *                copies); printed per algorithm, and its mean over N = K+1..12
 *                and the seeds must stay within 1.5x the ideal (V = 128).
 *
 * Failures print the algorithm, the case, got and expected.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ringbench/ring.h"
#include "unit.h"

enum { MAX_N = 12, MAX_K = 4, N_SEEDS = 3 };

static int has_scheme(const rb_algo *a) {
    rb_config cfg;
    rb_config_init(&cfg);
    rb_unit_members ms;
    rb_unit_members_make(&ms, 1, "solo-%u");
    rb_ring *r = NULL;
    uint32_t out[1];
    int rc = rb_ring_build(a, &cfg, ms.m, ms.n, &r) ? RB_ENOTSUP : rb_ring_owners(r, 0, out, 1);
    rb_ring_destroy(r);
    rb_unit_members_free(&ms);
    return rc != RB_ENOTSUP;
}

static void check_shape(const rb_algo *a, const rb_ring *r, uint32_t n, const char *case_) {
    uint32_t out[MAX_N + 1];
    for (uint32_t k = 1; k <= n; k++)
        for (uint32_t b = 0; b < rb_ring_n_buckets(r); b++) {
            int got = rb_ring_owners(r, b, out, k);
            int ok = got == (int)k && out[0] == rb_ring_owner_bucket(r, b);
            for (uint32_t i = 0; ok && i < k; i++)
                for (uint32_t j = 0; j < i; j++)
                    ok &= out[i] < n && out[i] != out[j];
            if (!rb_unit_true(a->name, case_, ok,
                              "bucket %u K %u: got %d owners (first %u, owner %u), expected %u "
                              "distinct, the first the owner",
                              b, k, got, got > 0 ? out[0] : 0, rb_ring_owner_bucket(r, b), k))
                return;
        }
    int rc = rb_ring_owners(r, 0, out, n + 1);
    rb_unit_true(a->name, case_, rc == RB_ERANGE, "K = N + 1: got %d, expected RB_ERANGE", rc);
    rc = rb_ring_owners(r, 0, out, 0);
    rb_unit_true(a->name, case_, rc == RB_EINVAL, "K = 0: got %d, expected RB_EINVAL", rc);
}

/* Is the member with id `id` (NUL-terminated) in set[0 .. k) of ring r? */
static int contains(const uint32_t *set, uint32_t k, const char *id, const rb_ring *r) {
    size_t len, want = strlen(id);
    for (uint32_t i = 0; i < k; i++) {
        const void *p = rb_ring_member_id(r, set[i], &len);
        if (len == want && memcmp(p, id, len) == 0) return 1;
    }
    return 0;
}

/* Replica-set change from ring `old` to `now` (`who`: the member added or
 * removed); returns the replaced slots, counts violations of monotonicity. */
static uint64_t set_change(const rb_ring *old, const rb_ring *now, uint32_t k, const char *who,
                           int added, uint64_t *bad) {
    uint32_t a[MAX_K], b[MAX_K];
    uint64_t replaced = 0;
    for (uint32_t bk = 0; bk < rb_ring_n_buckets(old); bk++) {
        rb_ring_owners(old, bk, a, k);
        rb_ring_owners(now, bk, b, k);
        uint32_t fresh = 0;
        char id[64];
        for (uint32_t i = 0; i < k; i++) {
            size_t len;
            const void *p = rb_ring_member_id(now, b[i], &len);
            snprintf(id, sizeof id, "%.*s", (int)len, (const char *)p);
            fresh += !contains(a, k, id, old);
        }
        replaced += fresh;
        int had = added ? contains(b, k, who, now) : contains(a, k, who, old);
        if (fresh > 1 || (fresh == 1 && !had) || (!added && had && fresh != 1)) ++*bad;
    }
    return replaced;
}

static void check_movement(const rb_algo *a) {
    const char *names[] = {"add", "remove last", "remove middle"};
    for (uint32_t k = 1; k <= MAX_K; k++) {
        double ratio_sum[3] = {0}, n_rows = 0;
        uint64_t bad = 0;
        for (uint32_t n = k + 1; n <= MAX_N; n++)
            for (uint64_t seed = 1; seed <= N_SEEDS; seed++) {
                rb_config cfg;
                rb_config_init(&cfg);
                cfg.seed = seed;
                rb_unit_members ms;
                rb_unit_members_make(&ms, n + 1, "node-%u");
                rb_ring *small = rb_unit_build(a, &cfg, ms.m, n, "n members");
                rb_ring *big = rb_unit_build(a, &cfg, ms.m, n + 1, "n + 1 members");
                rb_member mid[MAX_N + 1];
                uint32_t gone = n / 2, j = 0;
                for (uint32_t i = 0; i < n; i++)
                    if (i != gone) mid[j++] = ms.m[i];
                rb_ring *less = rb_unit_build(a, &cfg, mid, n - 1, "n - 1 members (middle)");
                if (small && big && less) {
                    double kb = (double)k * cfg.n_buckets;
                    ratio_sum[0] += set_change(small, big, k, ms.ids[n], 1, &bad) / kb * (n + 1);
                    ratio_sum[1] += set_change(big, small, k, ms.ids[n], 0, &bad) / kb * (n + 1);
                    if (k < n)
                        ratio_sum[2] += set_change(small, less, k, ms.ids[gone], 0, &bad) / kb * n;
                    n_rows++;
                }
                rb_ring_destroy(small), rb_ring_destroy(big), rb_ring_destroy(less);
                rb_unit_members_free(&ms);
            }
        char case_[96];
        snprintf(case_, sizeof case_, "replica sets K %u, N %u..%u, %d seeds", k, k + 1, MAX_N,
                 N_SEEDS);
        rb_unit_true(a->name, case_, bad == 0,
                     "got %llu bucket changes other than one member entering/leaving, expected 0",
                     (unsigned long long)bad);
        for (int c = 0; c < 3; c++) {
            double mean = n_rows ? ratio_sum[c] / n_rows : 0;
            printf("%-11s K %u %-13s replaced slots / ideal: %.3f\n", a->name, k, names[c], mean);
            rb_unit_true(a->name, case_, mean > 0.5 && mean <= 1.5,
                         "%s: replaced %.3f x the ideal, expected 0.5 .. 1.5", names[c], mean);
        }
    }
}

int main(void) {
    for (size_t ai = 0; ai < rb_algo_count(); ai++) {
        const rb_algo *a = rb_algo_at(ai);
        if (!has_scheme(a)) {
            printf("%-11s no replica scheme (RB_ENOTSUP)\n", a->name);
            continue;
        }
        for (uint32_t n = 1; n <= MAX_N; n++) {
            rb_config cfg;
            rb_config_init(&cfg);
            rb_unit_members ms;
            rb_unit_members_make(&ms, n, "m-%u");
            char case_[64];
            snprintf(case_, sizeof case_, "N %u", n);
            rb_ring *r = rb_unit_build(a, &cfg, ms.m, ms.n, case_);
            if (r) check_shape(a, r, n, case_);
            rb_ring_destroy(r);
            rb_unit_members_free(&ms);
        }
        check_movement(a);
    }
    return rb_unit_finish("test_replicas");
}
