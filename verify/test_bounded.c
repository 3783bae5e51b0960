/*
 * test_bounded.c — consistent hashing with bounded loads (impls/bounded.c;
 * Mirrokni, Thorup, Zadimoghaddam, SODA 2018):
 *
 *   capacity     for eps in {0, 5, 10, 25, 50, 100} %, sources binary (V 16),
 *                jump and rendezvous, N = 2..40: every member holds at most
 *                ceil((1 + eps) B / N) buckets, so the peak-to-mean is at
 *                most that over B/N, and every owner is a member;
 *   agreement    with eps large enough that no member fills up (10000 %), the
 *                table is the source's, bucket by bucket;
 *   movement     the moved fraction on adding a member to N (N = 4..24, 3
 *                seeds, source binary V 16), as a multiple of the ideal
 *                1/(N+1), per eps: printed as the cost of the bound, and
 *                held under 1 + 4 / eps (a conservative form of the paper's
 *                O(1/eps^2) expected bound, which is looser for eps < 4), and
 *                under 8 at eps 0.
 *
 * Failures print the case, got and expected.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ringbench/ring.h"
#include "unit.h"

static const uint32_t eps_pcts[] = {0, 5, 10, 25, 50, 100};
#define N_EPS (sizeof eps_pcts / sizeof eps_pcts[0])

static rb_ring *build_bounded(const char *source, uint32_t eps_pct, uint64_t seed,
                              const rb_member *m, size_t n, const char *case_) {
    rb_config cfg;
    rb_config_init(&cfg);
    cfg.n_vnodes = 16;
    cfg.seed = seed;
    cfg.table_source = source;
    char assign[32];
    snprintf(assign, sizeof assign, "eps_pct=%u", eps_pct);
    if (rb_config_set_param(&cfg, assign)) {
        rb_unit_true("bounded", case_, 0, "got a rejected %s, expected it accepted", assign);
        return NULL;
    }
    return rb_unit_build(rb_algo_by_name("bounded"), &cfg, m, n, case_);
}

static void test_capacity(void) {
    const char *sources[] = {"binary", "jump", "rendezvous"};
    uint32_t load[64];
    for (size_t s = 0; s < 3; s++)
        for (size_t e = 0; e < N_EPS; e++)
            for (uint32_t n = 2; n <= 40; n++) {
                rb_unit_members ms;
                rb_unit_members_make(&ms, n, "w%u");
                char case_[96];
                snprintf(case_, sizeof case_, "source %s eps %u%% N %u", sources[s], eps_pcts[e],
                         n);
                rb_ring *r = build_bounded(sources[s], eps_pcts[e], 1, ms.m, ms.n, case_);
                if (r) {
                    uint32_t b_total = rb_ring_n_buckets(r), peak = 0, bad = 0;
                    memset(load, 0, sizeof load);
                    for (uint32_t b = 0; b < b_total; b++) {
                        uint32_t o = rb_ring_owner_bucket(r, b);
                        if (o >= n)
                            bad++;
                        else if (++load[o] > peak)
                            peak = load[o];
                    }
                    /* ceil((1 + eps) B / N) in integers */
                    uint64_t num = (uint64_t)(100 + eps_pcts[e]) * b_total, den = 100ULL * n;
                    uint64_t cap = (num + den - 1) / den;
                    rb_unit_true("bounded", case_, bad == 0 && peak <= cap,
                                 "got peak load %u (%u invalid owners), expected <= %llu "
                                 "(peak-to-mean <= %.3f)",
                                 peak, bad, (unsigned long long)cap, cap / (b_total / (double)n));
                }
                rb_ring_destroy(r);
                rb_unit_members_free(&ms);
            }
}

static void test_agreement(void) {
    const char *sources[] = {"binary", "jump", "rendezvous", "multiprobe"};
    for (size_t s = 0; s < 4; s++)
        for (uint32_t n = 1; n <= 20; n++) {
            rb_unit_members ms;
            rb_unit_members_make(&ms, n, "w%u");
            char case_[96];
            snprintf(case_, sizeof case_, "source %s eps 10000%% N %u", sources[s], n);
            rb_ring *r = build_bounded(sources[s], 10000, 1, ms.m, ms.n, case_), *src = NULL;
            rb_config cfg;
            rb_config_init(&cfg);
            cfg.n_vnodes = 16;
            cfg.seed = 1;
            src = rb_unit_build(rb_algo_by_name(sources[s]), &cfg, ms.m, ms.n, case_);
            uint32_t differ = 0;
            for (uint32_t b = 0; r && src && b < rb_ring_n_buckets(r); b++)
                differ += rb_ring_owner_bucket(r, b) != rb_ring_owner_bucket(src, b);
            rb_unit_true("bounded", case_, r && src && differ == 0,
                         "got %u buckets unlike the source's, expected 0", differ);
            rb_ring_destroy(r), rb_ring_destroy(src);
            rb_unit_members_free(&ms);
        }
}

static void test_movement(void) {
    printf("bounded loads over binary (V 16): movement on add, as a multiple of 1/(N+1)\n");
    printf("%8s %10s %12s\n", "eps", "max ptm", "movement");
    for (size_t e = 0; e < N_EPS; e++) {
        double ratio = 0, rows = 0, ptm_max = 0;
        for (uint32_t n = 4; n <= 24; n++)
            for (uint64_t seed = 1; seed <= 3; seed++) {
                rb_unit_members ms;
                rb_unit_members_make(&ms, n + 1, "node-%u");
                rb_ring *a = build_bounded("binary", eps_pcts[e], seed, ms.m, n, "N");
                rb_ring *b = build_bounded("binary", eps_pcts[e], seed, ms.m, n + 1, "N + 1");
                if (a && b) {
                    uint32_t moved = 0, bt = rb_ring_n_buckets(a), load[32] = {0}, peak = 0;
                    for (uint32_t k = 0; k < bt; k++) {
                        moved += rb_ring_owner_bucket(a, k) != rb_ring_owner_bucket(b, k);
                        uint32_t o = rb_ring_owner_bucket(a, k);
                        if (++load[o] > peak) peak = load[o];
                    }
                    ratio += moved / (double)bt * (n + 1);
                    double ptm = peak / (bt / (double)n);
                    if (ptm > ptm_max) ptm_max = ptm;
                    rows++;
                }
                rb_ring_destroy(a), rb_ring_destroy(b);
                rb_unit_members_free(&ms);
            }
        double mean = rows ? ratio / rows : 0, eps = eps_pcts[e] / 100.0;
        double bound = eps > 0 ? 1 + 4 / eps : 8;
        printf("%7u%% %10.3f %11.2fx\n", eps_pcts[e], ptm_max, mean);
        char case_[64];
        snprintf(case_, sizeof case_, "movement on add, eps %u%%", eps_pcts[e]);
        rb_unit_true("bounded", case_, mean >= 1 && mean <= bound,
                     "got %.2f x the ideal, expected 1 .. %.2f", mean, bound);
    }
}

int main(void) {
    test_capacity();
    test_agreement();
    test_movement();
    return rb_unit_finish("test_bounded");
}
