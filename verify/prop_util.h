/*
 * prop_util.h — what the property programs (prop_*.c) share: a failure
 * counter that prints the algorithm, the case, got and expected, and one
 * measured case per (algorithm, hash, N, V, seed).
 */
#ifndef RINGBENCH_PROP_UTIL_H
#define RINGBENCH_PROP_UTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "sweep.h"

static unsigned long prop_n_failed, prop_n_checked;

/* Count one check; when !ok print "FAIL <what>" (printf format) to stderr. */
static inline void prop_check(int ok, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static inline void prop_check(int ok, const char *fmt, ...) {
    prop_n_checked++;
    if (ok) return;
    prop_n_failed++;
    if (prop_n_failed > 50) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("FAIL ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* Print the summary and return the exit status: 1 when any check failed or
 * when no check ran (a property that checked nothing proved nothing). */
static inline int prop_finish(const char *name) {
    printf("%s: %lu checks, %lu failed\n", name, prop_n_checked, prop_n_failed);
    if (prop_n_checked == 0) fprintf(stderr, "FAIL %s: no check ran\n", name);
    return (prop_n_failed || prop_n_checked == 0) ? 1 : 0;
}

/* The membership of one case: n + 1 members from seed (ids in *ids, both
 * malloc'ed, freed by the caller) and the config: B buckets, V vnodes, ring
 * hash = bucket hash = h. Exits 1 when out of memory. */
static inline rb_member *prop_setup(const rb_hash *h, uint32_t n, uint32_t v, uint32_t B,
                                    uint64_t seed, char **ids, rb_config *cfg) {
    *ids = malloc(((size_t)n + 1) * RB_SWEEP_ID_BYTES);
    rb_member *m = malloc(((size_t)n + 1) * sizeof *m);
    if (!*ids || !m) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    rb_sweep_ids(seed, (size_t)n + 1, *ids, m);
    rb_config_init(cfg);
    cfg->n_vnodes = v;
    cfg->n_buckets = B;
    cfg->ring_hash = cfg->bucket_hash = h;
    return m;
}

/* Measure one case: n members (and the added one) from seed; B buckets,
 * ring hash = bucket hash = h. Exits 1 on a build error. */
static inline void prop_case(const rb_algo *a, const rb_hash *h, uint32_t n, uint32_t v, uint32_t B,
                             uint64_t seed, rb_case *out) {
    char *ids;
    rb_config cfg;
    rb_member *m = prop_setup(h, n, v, B, seed, &ids, &cfg);
    uint32_t *scratch = malloc(2 * (size_t)B * sizeof *scratch);
    if (!scratch) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    if (rb_sweep_case(a, &cfg, m, n, NULL, 0, scratch, out)) {
        fprintf(stderr, "algo %s hash %s N %u V %u seed %llu: build failed: %s\n", a->name, h->name,
                n, v, (unsigned long long)seed, rb_error_detail());
        exit(1);
    }
    free(ids), free(m), free(scratch);
}

/* The two hashes every property runs under: the seed's and the fast default. */
static const rb_hash *const prop_hashes[] = {&rb_hash_fnv1a32, &rb_hash_xxh3};
#define PROP_N_HASHES 2

#endif
