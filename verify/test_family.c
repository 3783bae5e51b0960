/*
 * test_family.c — what the papers of the constant-memory family claim, for
 * the pure bucket hashes (ringbench/consistent.h) and jump (issue 13):
 *
 *   consistency  going from n-1 to n buckets, a key either keeps its bucket
 *                or moves to the new bucket n-1 (all five papers);
 *   movement     the number of keys that move to bucket n-1 is 1/n of the
 *                keys (binomial, within 5 standard deviations);
 *   uniformity   at n in {7, 96, 1000}, every bucket holds keys/n within 6
 *                standard deviations;
 *   jump vs JumpBackHash  (Ertl 2024, sec. 3: the same "largest active
 *                index" rule, drawn top-down): same distribution -- the two
 *                checks above -- but not the same answers: at n buckets they
 *                agree on about 1/n of the keys, as two independent uniform
 *                maps would (within 5 standard deviations).
 *
 *   multi-probe with one probe (--param probes=1) is the vnode ring at
 *                V = 1 (`binary`): the same owner for every bucket, N = 1..40,
 *                both ring hashes.
 *
 * Keys: splitmix64 from a fixed seed (replayable). Failures name the
 * algorithm, n, got and expected.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ringbench/consistent.h"
#include "ringbench/hash.h"
#include "ringbench/ring.h"
#include "unit.h"

typedef struct {
    const char *name;
    uint32_t (*fn)(uint64_t, uint32_t);
} family;

static const family fams[] = {
    {"jump", rb_jump_hash},     {"jumpback", rb_jumpback_hash}, {"fliphash", rb_flip_hash},
    {"powerch", rb_power_hash}, {"binomial", rb_binomial_hash},
};

enum { N_KEYS = 20000, MAX_N = 64 };

static uint64_t keys[N_KEYS];

static int within(double got, double mean, double sd, double k) {
    return fabs(got - mean) <= k * sd;
}

static void test_consistency(const family *f) {
    static uint32_t prev[N_KEYS];
    for (int i = 0; i < N_KEYS; i++)
        prev[i] = f->fn(keys[i], 1);
    unsigned long bad = 0;
    for (uint32_t n = 2; n <= MAX_N; n++) {
        unsigned long moved = 0;
        for (int i = 0; i < N_KEYS; i++) {
            uint32_t b = f->fn(keys[i], n);
            if (b != prev[i]) {
                if (b != n - 1 && !bad++)
                    rb_unit_true(f->name, "consistency", 0,
                                 "key %llu moved %u -> %u going to %u buckets, expected -> %u",
                                 (unsigned long long)keys[i], prev[i], b, n, n - 1);
                moved++;
            }
            prev[i] = b;
        }
        double p = 1.0 / n, mean = N_KEYS * p, sd = sqrt(N_KEYS * p * (1 - p));
        char case_[64];
        snprintf(case_, sizeof case_, "movement %u -> %u buckets", n - 1, n);
        rb_unit_true(f->name, case_, within((double)moved, mean, sd, 5),
                     "got %lu of %d keys moved, expected %.0f +- %.0f", moved, N_KEYS, mean,
                     5 * sd);
    }
    rb_unit_true(f->name, "consistency n = 1..64", bad == 0,
                 "got %lu keys moving elsewhere than the new bucket, expected 0", bad);
}

static void test_uniformity(const family *f) {
    static const uint32_t ns[] = {7, 96, 1000};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        uint32_t n = ns[k];
        unsigned long *count = calloc(n, sizeof *count);
        if (!count) abort();
        for (int i = 0; i < N_KEYS; i++)
            count[f->fn(keys[i], n)]++;
        double p = 1.0 / n, mean = N_KEYS * p, sd = sqrt(N_KEYS * p * (1 - p));
        uint32_t worst = 0;
        for (uint32_t b = 1; b < n; b++)
            if (fabs(count[b] - mean) > fabs(count[worst] - mean)) worst = b;
        char case_[64];
        snprintf(case_, sizeof case_, "uniformity at %u buckets", n);
        rb_unit_true(f->name, case_, within((double)count[worst], mean, sd, 6),
                     "got %lu keys in bucket %u, expected %.1f +- %.1f", count[worst], worst, mean,
                     6 * sd);
        free(count);
    }
}

static void test_jump_vs_jumpback(void) {
    static const uint32_t ns[] = {2, 3, 10, 64, 1000};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        uint32_t n = ns[k];
        unsigned long same = 0;
        for (int i = 0; i < N_KEYS; i++)
            same += rb_jump_hash(keys[i], n) == rb_jumpback_hash(keys[i], n);
        double p = 1.0 / n, mean = N_KEYS * p, sd = sqrt(N_KEYS * p * (1 - p));
        char case_[80];
        snprintf(case_, sizeof case_, "agreement with jump at %u buckets", n);
        rb_unit_true("jumpback", case_, within((double)same, mean, sd, 5),
                     "got %lu of %d keys in the same bucket, expected %.0f +- %.0f (independent)",
                     same, N_KEYS, mean, 5 * sd);
    }
}

static void test_multiprobe_one_probe(void) {
    const rb_algo *mp = rb_algo_by_name("multiprobe"), *bin = rb_algo_by_name("binary");
    const rb_hash *hashes[] = {&rb_hash_xxh3, &rb_hash_fnv1a32};
    for (size_t h = 0; h < 2; h++)
        for (uint32_t n = 1; n <= 40; n++) {
            rb_config cfg;
            rb_config_init(&cfg);
            cfg.ring_hash = hashes[h];
            cfg.n_vnodes = 1;
            rb_unit_members ms;
            rb_unit_members_make(&ms, n, "worker-%u");
            char case_[64];
            snprintf(case_, sizeof case_, "probes=1 vs binary V=1, %s N %u", hashes[h]->name, n);
            rb_ring *b = rb_unit_build(bin, &cfg, ms.m, ms.n, case_);
            rb_ring *m = rb_config_set_param(&cfg, "probes=1") == 0
                             ? rb_unit_build(mp, &cfg, ms.m, ms.n, case_)
                             : NULL;
            uint32_t differ = 0, first = 0;
            for (uint32_t k = 0; b && m && k < cfg.n_buckets; k++)
                if (rb_ring_owner_bucket(b, k) != rb_ring_owner_bucket(m, k) && !differ++)
                    first = k;
            rb_unit_true("multiprobe", case_, b && m && differ == 0,
                         "got %u buckets with another owner (first: bucket %u), expected 0", differ,
                         first);
            rb_ring_destroy(b);
            rb_ring_destroy(m);
            rb_unit_members_free(&ms);
        }
}

int main(void) {
    uint64_t state = 0x13a1f2b6c3d4e5f7ULL;
    for (int i = 0; i < N_KEYS; i++)
        keys[i] = rb_unit_rand(&state);
    for (size_t i = 0; i < sizeof fams / sizeof fams[0]; i++) {
        test_consistency(&fams[i]);
        test_uniformity(&fams[i]);
    }
    test_jump_vs_jumpback();
    test_multiprobe_one_probe();
    return rb_unit_finish("test_family");
}
