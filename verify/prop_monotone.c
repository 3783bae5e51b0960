/*
 * prop_monotone.c — monotonicity as each algorithm claims it (rb_algo.flags):
 * RB_ALGO_MONOTONE (ring algorithms, rendezvous, table): zero violations on
 * add, remove last and remove middle; RB_ALGO_MONOTONE_LAST (jump): zero on
 * add and remove last, and the verifier must see violations on a middle
 * removal (N >= 3), which jump does not promise. N = 1..64, V in {1, 16, 64},
 * 12 seeds, both hashes.
 */
#include "prop_util.h"

int main(void) {
    static const uint32_t vnodes[] = {1, 16, 64};
    enum { N_SEEDS = 12, B = 1024 };
    for (size_t ai = 0; ai < rb_algo_count(); ai++) {
        const rb_algo *a = rb_algo_at(ai);
        int all = (a->flags & RB_ALGO_MONOTONE) != 0,
            last = (a->flags & RB_ALGO_MONOTONE_LAST) != 0;
        if (!all && !last) continue;
        size_t n_v = (a->flags & RB_ALGO_USES_VNODES) ? 3 : 1;
        for (size_t hi = 0; hi < PROP_N_HASHES; hi++)
            for (uint32_t n = 1; n <= 64; n++)
                for (size_t vi = 0; vi < n_v; vi++)
                    for (uint64_t seed = 1; seed <= N_SEEDS; seed++) {
                        rb_case c;
                        prop_case(a, prop_hashes[hi], n, vnodes[vi], B, seed, &c);
                        for (int k = 0; k < 3; k++) {
                            if (k && !c.has_remove) continue;
                            uint64_t got = c.change[k].n_violating_buckets;
                            int promised = all || k != RB_CHANGE_REMOVE_MIDDLE;
                            if (promised)
                                prop_check(got == 0,
                                           "algo %s hash %s N %u V %u seed %llu %s: %llu "
                                           "violating buckets, expected 0",
                                           a->name, prop_hashes[hi]->name, n, vnodes[vi],
                                           (unsigned long long)seed, rb_change_name(k),
                                           (unsigned long long)got);
                            else if (n >= 3)
                                prop_check(got > 0,
                                           "algo %s hash %s N %u seed %llu %s: the verifier saw "
                                           "no violations, expected some (slots shift)",
                                           a->name, prop_hashes[hi]->name, n,
                                           (unsigned long long)seed, rb_change_name(k));
                        }
                    }
    }
    return prop_finish("prop_monotone");
}
