/*
 * test_threads.c — built rings are immutable and safe for concurrent lookups
 * (ringbench/ring.h). For every registered algorithm, 4 threads look up all
 * buckets and 50,000 keys on one shared ring at the same time; each thread's
 * answers must equal the single-threaded answers. Run under the sanitizer
 * build too (scripts/test), so a lookup that wrote shared state would show.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ringbench/ring.h"
#include "unit.h"

enum { N_THREADS = 4, N_KEYS = 50000 };

typedef struct {
    const rb_ring *ring;
    uint32_t *owners; /* B bucket owners, then N_KEYS key owners */
} job;

static void lookup_all(const rb_ring *r, uint32_t *out) {
    uint32_t B = rb_ring_n_buckets(r);
    for (uint32_t b = 0; b < B; b++)
        out[b] = rb_ring_owner_bucket(r, b);
    char key[32];
    for (unsigned k = 0; k < N_KEYS; k++) {
        size_t len = (size_t)snprintf(key, sizeof key, "order:%u", k);
        out[B + k] = rb_ring_owner_key(r, key, len);
    }
}

static void *run(void *arg) {
    job *j = arg;
    lookup_all(j->ring, j->owners);
    return NULL;
}

int main(void) {
    rb_config cfg;
    rb_config_init(&cfg);
    rb_unit_members ms;
    rb_unit_members_make(&ms, 10, "worker-%u");
    for (size_t i = 0; i < rb_algo_count(); i++) {
        const rb_algo *a = rb_algo_at(i);
        rb_ring *r = rb_unit_build(a, &cfg, ms.m, ms.n, "10 members, defaults");
        if (!r) continue;
        size_t n = cfg.n_buckets + (size_t)N_KEYS;
        uint32_t *expected = malloc(n * sizeof *expected);
        job jobs[N_THREADS];
        pthread_t tid[N_THREADS];
        lookup_all(r, expected);
        int started = 0;
        for (int t = 0; t < N_THREADS; t++) {
            jobs[t] = (job){r, malloc(n * sizeof(uint32_t))};
            if (pthread_create(&tid[t], NULL, run, &jobs[t]) == 0)
                started++;
            else
                rb_unit_true(a->name, "pthread_create", 0, "got an error, expected a thread");
        }
        for (int t = 0; t < started; t++)
            pthread_join(tid[t], NULL);
        for (int t = 0; t < started; t++) {
            char c[64];
            snprintf(c, sizeof c, "thread %d of %d: owners equal the single-threaded ones", t,
                     N_THREADS);
            size_t n_diff = 0;
            for (size_t k = 0; k < n; k++)
                n_diff += jobs[t].owners[k] != expected[k];
            rb_unit_eq(a->name, c, n_diff, 0);
        }
        for (int t = 0; t < N_THREADS; t++)
            free(jobs[t].owners);
        free(expected);
        rb_ring_destroy(r);
    }
    rb_unit_members_free(&ms);
    return rb_unit_finish("test_threads");
}
