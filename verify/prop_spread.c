/*
 * prop_spread.c — load spread of the bucket table.
 * 1. For every algorithm, hash, N and V (seeds 1 and 2): the peak-to-mean
 *    that rb_sweep_spread reports equals an independent integer recount of
 *    the table (each bucket's owner counted, peak * N / B), every bucket has
 *    an owner among the N members, and so the figure is never below the
 *    integer floor ceil(B/N)/(B/N).
 * 2. For the vnode algorithms (RB_ALGO_USES_VNODES): the mean peak-to-mean
 *    over 16 seeds falls as V grows, within noise: each step V -> 4V may rise
 *    by at most NOISE, and V = 1024 must be below V = 1 for every N >= 2
 *    (asserted under both hashes).
 *
 * The one exception, asserted as such: under fnv1a32 at N >= 33 the mean
 * peak-to-mean RISES from V 256 to V 1024. FNV-1a 32 disperses short labels
 * that differ in their last bytes poorly (one multiply after the last byte),
 * so the vnodes "id#0", "id#1", ... of one member and the bucket labels "0"
 * .. "1023" sit in clusters (measured: N 33 2.65 -> 2.93, N 64 3.92 -> 4.39;
 * a finding about the seed's hash, reported in verify/README.md). The test
 * fails if the rise disappears too, so the finding cannot go stale unseen.
 */
#include <math.h>

#include "prop_util.h"

#define NOISE 0.05        /* allowed rise of a 16-seed mean from V to 4V */
#define FNV_RISE_MIN_N 33 /* fnv1a32: from this N the mean rises from V 256 to V 1024 */

/* Peak-to-mean of the bucket table recounted from the owners, in integers. */
static double recount_peak_to_mean(const rb_algo *a, const rb_hash *h, uint32_t n, uint32_t v,
                                   uint32_t B, uint64_t seed, int *bad_owner) {
    char *ids;
    rb_config cfg;
    rb_member *m = prop_setup(h, n, v, B, seed, &ids, &cfg);
    uint32_t *owners = malloc((size_t)B * sizeof *owners), *count = calloc(n, sizeof *count);
    if (!owners || !count) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    if (rb_sweep_table(a, &cfg, m, n, owners)) {
        fprintf(stderr, "algo %s: build failed: %s\n", a->name, rb_error_detail());
        exit(1);
    }
    uint32_t peak = 0;
    *bad_owner = 0;
    for (uint32_t b = 0; b < B; b++) {
        if (owners[b] >= n) {
            (*bad_owner)++;
            continue;
        }
        if (++count[owners[b]] > peak) peak = count[owners[b]];
    }
    free(ids), free(m), free(owners), free(count);
    return (double)peak * n / B;
}

int main(void) {
    static const uint32_t members[] = {1, 2, 3, 5, 7, 16, 33, 64};
    static const uint32_t vnodes[] = {1, 4, 16, 64, 256, 1024};
    enum { N_V = sizeof vnodes / sizeof vnodes[0], N_SEEDS = 16, N_RECOUNT = 2, B = 1024 };
    for (size_t ai = 0; ai < rb_algo_count(); ai++) {
        const rb_algo *a = rb_algo_at(ai);
        /* bounded loads (the algorithm with eps_pct) cap the spread at 1 + eps
         * whatever V: its rules are verify/test_bounded.c's, not these */
        int uses = (a->flags & RB_ALGO_USES_VNODES) != 0 && !rb_algo_param_spec(a, "eps_pct");
        for (size_t hi = 0; hi < PROP_N_HASHES; hi++)
            for (size_t ni = 0; ni < sizeof members / sizeof members[0]; ni++) {
                const rb_hash *h = prop_hashes[hi];
                uint32_t n = members[ni];
                double floor = rb_integer_floor(B, n), mean[N_V];
                for (size_t vi = 0; vi < (uses ? (size_t)N_V : 1); vi++) {
                    double sum = 0;
                    for (uint64_t seed = 1; seed <= N_SEEDS; seed++) {
                        rb_case c;
                        prop_case(a, h, n, vnodes[vi], B, seed, &c);
                        double p2m = c.bucket_spread.peak_to_mean;
                        sum += p2m;
                        if (seed > N_RECOUNT) continue;
                        int bad = 0;
                        double re = recount_peak_to_mean(a, h, n, vnodes[vi], B, seed, &bad);
                        prop_check(bad == 0 && fabs(p2m - re) < 1e-9 && re >= floor - 1e-12,
                                   "algo %s hash %s N %u V %u seed %llu: peak-to-mean %.6f, "
                                   "recounted %.6f (%d buckets without a member, floor %.4f)",
                                   a->name, h->name, n, vnodes[vi], (unsigned long long)seed, p2m,
                                   re, bad, floor);
                    }
                    mean[vi] = sum / N_SEEDS;
                }
                if (!uses || n < 2) continue;
                printf("%-8s %-8s N %2u  mean peak-to-mean by V:", a->name, h->name, n);
                for (size_t vi = 0; vi < N_V; vi++)
                    printf(" %u:%.3f", vnodes[vi], mean[vi]);
                printf("  (floor %.3f)\n", floor);
                for (size_t vi = 1; vi < N_V; vi++) {
                    if (h == &rb_hash_fnv1a32 && n >= FNV_RISE_MIN_N && vnodes[vi] == 1024) {
                        prop_check(mean[vi] > mean[vi - 1],
                                   "algo %s hash %s N %u: mean peak-to-mean %.4f (V %u) -> %.4f "
                                   "(V %u), expected the documented rise of the seed's hash",
                                   a->name, h->name, n, mean[vi - 1], vnodes[vi - 1], mean[vi],
                                   vnodes[vi]);
                        continue;
                    }
                    prop_check(mean[vi] <= mean[vi - 1] * (1 + NOISE),
                               "algo %s hash %s N %u: mean peak-to-mean rose from %.4f (V %u) to "
                               "%.4f (V %u), expected no rise beyond %.0f%%",
                               a->name, h->name, n, mean[vi - 1], vnodes[vi - 1], mean[vi],
                               vnodes[vi], NOISE * 100);
                }
                prop_check(mean[N_V - 1] < mean[0],
                           "algo %s hash %s N %u: mean peak-to-mean at V 1024 %.4f, expected "
                           "below V 1 %.4f",
                           a->name, h->name, n, mean[N_V - 1], mean[0]);
            }
    }
    return prop_finish("prop_spread");
}
