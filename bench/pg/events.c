/*
 * events.c — the fault half of `ringbench pg bench` (events.h):
 *
 * Scale event: 3 affinity workers at steady state, a 4th joins. Moved buckets
 * are counted on the rings built from the live membership before and after
 * (the same algorithm and configuration the workers use); rows in flight on
 * moved buckets are counted in the database at the moment the joiner is
 * registered; the throughput timeline comes from the rows' completed_at
 * (database clock) in RBB_BIN_MS bins. Run once with the consistent ring and
 * once with `modn` for contrast.
 *
 * Crash injection: 3 workers drain R rows with a handler that sleeps
 * handler_us per row (so most instants are mid-batch); the driver SIGKILLs a
 * worker holding rows, several times, starting a replacement each time, and
 * watches the database every 10 ms for the victim being marked dead
 * (detect, TTL), its rows leaving its lease (reclaim) and those rows being
 * completed by others (redone). Then one worker is paused (SIGSTOP) past its
 * lease and resumed: its completions must be refused (fenced). At the end
 * every row must be completed once, with one effect.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "events.h"

/* Sleep ms, cut short by a stop signal (rbb_stop_signal): 50 ms at a time. */
static void sleep_ms(double ms) {
    uint64_t until = rb_now_ns() + (uint64_t)(ms > 0 ? ms * 1e6 : 0);
    for (uint64_t now = rb_now_ns(); now < until && !rbb_stop_signal; now = rb_now_ns())
        rbb_sleep_us(until - now < 50000000u ? (until - now) / 1000 : 50000);
}

static void stop_all(rbb_child *ch, size_t n, int sig) {
    for (size_t i = 0; i < n; i++)
        if (ch[i].pid > 0) kill(ch[i].pid, sig);
}

/* The workers asked to stop (SIGTERM): collected, killed when one has not stopped within
 * RBB_STOP_GRACE_S (a stall must not hang the run). */
static void stop_and_collect(rbb_child *ch, size_t n) {
    stop_all(ch, n, SIGTERM);
    rbb_collect(ch, n, NULL, NULL, 100, rb_now_ns() + (uint64_t)(RBB_STOP_GRACE_S * 1e9));
}

/* -1 with err when a stop signal came (the event stops where it is), else rc. */
static int unless_stopped(int rc, char *err, size_t err_size) {
    if (!rc && rbb_stop_signal) return rbb_stop_reason(err, err_size), -1;
    return rc;
}

static int cmp_member_id(const void *a, const void *b) {
    return strcmp(((const rb_member *)a)->id, ((const rb_member *)b)->id);
}

/* Owners of all buckets on the ring `algo` builds over `ids`, as indices
 * into ids. The members are listed in byte order of their ids, as
 * rb_queue_refresh_membership lists them: index-based algorithms (modn,
 * jump) depend on that order. */
static int owners_of(const char *algo, char ids[][RBB_WORKER_ID_BYTES], size_t n, uint32_t *owners,
                     char *err, size_t err_size) {
    rb_member m[16];
    for (size_t i = 0; i < n; i++)
        m[i] = (rb_member){ids[i], strlen(ids[i]), 1};
    qsort(m, n, sizeof m[0], cmp_member_id);
    rb_ring *r = NULL;
    int rc = rbb_queue_ring(algo, m, n, &r);
    if (rc) {
        snprintf(err, err_size, "ring %s: %s", algo, rb_error_detail());
        return -1;
    }
    rb_ring_fill_table(r, owners);
    rb_ring_destroy(r);
    /* back from sorted positions to indices into ids */
    for (uint32_t b = 0; b < rbb_queue_n_buckets(); b++)
        for (size_t i = 0; i < n; i++)
            if (m[owners[b]].id == ids[i]) {
                owners[b] = (uint32_t)i;
                break;
            }
    return 0;
}

int rbb_run_scale(const rbb_params *p, const char *conninfo, PGconn *c, const char *algo,
                  rbb_scale *out, char *err, size_t err_size) {
    memset(out, 0, sizeof *out);
    out->algo = algo;
    out->n_before = 3;
    out->batch = p->scale_batch;
    out->n_buckets = rbb_queue_n_buckets();
    double secs = p->scale_pre_s + p->scale_post_s;
    uint64_t n_rows = rbb_rows_for(p, out->batch, 4, secs);
    int rc = rbb_queue_fresh(c, n_rows, RBB_DIST_UNIFORM, p->n_keys, p->zipf_s, p->seed, "scale",
                             err, err_size);
    if (rc) return out->failed = 1, -1;

    rbb_worker_spec spec = {.conninfo = conninfo,
                            .mode = RBB_MODE_AFFINITY,
                            .batch = out->batch,
                            .ring_algo = algo,
                            .age_bound_ms = p->age_bound_ms,
                            .heartbeat_ms = 100,
                            .max_samples = 0};
    rbb_child ch[4];
    memset(ch, 0, sizeof ch);
    size_t n = 0;
    double t_go = 0, t_join = 0, t_end = 0;
    /* member ids fixed by the seed: the same ring, the same moved buckets, every run */
    char fixed_id[4][RBB_WORKER_ID_BYTES];
    for (size_t i = 0; i < 4; i++)
        snprintf(fixed_id[i], sizeof fixed_id[i], "scale-%s-s%llu-w%zu", algo,
                 (unsigned long long)p->seed, i);
    for (; n < 3 && !rc; n++) {
        spec.worker_id = fixed_id[n]; /* the child takes its copy at the fork */
        rc = rbb_spawn_ready(&ch[n], rbb_worker_body, &spec, err, err_size);
    }
    /* the 3 start on their own; the steady state begins once all 3 run */
    if (!rc) rc = rbb_queue_db_epoch(c, &t_go, err, err_size);
    char ids[4][RBB_WORKER_ID_BYTES];
    uint32_t *before = calloc(out->n_buckets, sizeof *before);
    uint32_t *after = calloc(out->n_buckets, sizeof *after);
    uint32_t *moved = calloc(out->n_buckets, sizeof *moved);
    if (!before || !after || !moved) rc = -1, snprintf(err, err_size, "out of memory");
    if (!rc) {
        sleep_ms(1000 * p->scale_pre_s);
        for (size_t i = 0; i < 3; i++)
            memcpy(ids[i], ch[i].worker_id, RBB_WORKER_ID_BYTES);
        spec.worker_id = fixed_id[3];
        rc = rbb_spawn_ready(&ch[n], rbb_worker_body, &spec, err, err_size);
        if (!rc) {
            n++;
            rc = rbb_queue_db_epoch(c, &t_join, err, err_size);
            memcpy(ids[3], ch[3].worker_id, RBB_WORKER_ID_BYTES);
        }
    }
    if (!rc) rc = owners_of(algo, ids, 3, before, err, err_size);
    if (!rc) rc = owners_of(algo, ids, 4, after, err, err_size);
    if (!rc) {
        /* member indices differ between the rings: compare ids */
        size_t nm = 0;
        for (uint32_t b = 0; b < out->n_buckets; b++) {
            const char *was = ids[before[b]], *now = ids[after[b]];
            if (strcmp(was, now) != 0) {
                moved[nm++] = b;
                out->n_moved_to_new += after[b] == 3;
            }
        }
        out->n_moved_buckets = (uint32_t)nm;
        rc = rbb_queue_count_on_buckets(c, moved, nm, &out->n_claimed_on_moved,
                                        &out->n_pending_on_moved, err, err_size);
    }
    if (!rc) sleep_ms(1000 * p->scale_post_s);
    rc = unless_stopped(rc, err, err_size);
    if (!rc) rc = rbb_queue_db_epoch(c, &t_end, err, err_size); /* before the stop */
    stop_and_collect(ch, n);
    for (size_t i = 0; i < n; i++) {
        if (!rc && (!ch[i].has_final || ch[i].exit_status != 0)) {
            char how[96];
            snprintf(err, err_size, "worker %zu %s", i, rbb_child_end(&ch[i], how, sizeof how));
            rc = -1;
        }
        rbb_child_free(&ch[i]);
    }
    free(before);
    free(after);
    free(moved);
    if (!rc) rc = rbb_queue_timeline(c, t_go, t_end, &out->rows_per_s, &out->n_bins, err, err_size);
    if (!rc) rc = rbb_queue_count(c, &out->after, err, err_size);
    if (rc) return out->failed = 1, -1;
    uint64_t accounted = out->after.n_completed + out->after.n_pending + out->after.n_failed;
    out->n_lost = (n_rows > accounted ? n_rows - accounted : 0) + out->after.n_claimed;
    out->join_bin = (size_t)((t_join - t_go) * 1000 / RBB_BIN_MS);
    /* baseline: the last second before the join (10 bins); recovery: the first
     * 300 ms window (3 bins) back at >= 90% of it */
    /* the dip is looked for in the 2 s after the join: later bins are a new
     * steady state (4 workers on 2 cores), not the event */
    size_t end = out->join_bin + 2000 / RBB_BIN_MS;
    rbb_recovery dip = rbb_timeline_recovery(out->rows_per_s, end < out->n_bins ? end : out->n_bins,
                                             out->join_bin, 1000 / RBB_BIN_MS, 3);
    out->rec =
        rbb_timeline_recovery(out->rows_per_s, out->n_bins, out->join_bin, 1000 / RBB_BIN_MS, 3);
    out->rec.min_rows_per_s = dip.min_rows_per_s;
    out->rec.min_at_ms = dip.min_at_ms;
    out->rec.dip_fraction = dip.dip_fraction;
    double sum = 0;
    size_t k = 0;
    for (size_t i = out->join_bin; i < out->n_bins && k < 1000 / RBB_BIN_MS; i++, k++)
        sum += out->rows_per_s[i];
    out->post_rows_per_s = k ? sum / (double)k : 0;
    /* the dip over 1 s windows beside the same statistic before the join (the first
     * 0.5 s skipped: the workers' first claims and plans) */
    out->dip_1s = rbb_timeline_window_dip(out->rows_per_s, out->n_bins, out->join_bin,
                                          1000 / RBB_BIN_MS, 500 / RBB_BIN_MS);
    return 0;
}

/* A kill being watched. */
typedef struct watch {
    rbb_kill *k;
    uint64_t t_kill_ns;
    int64_t *held; /* ids of the rows it held */
    size_t n_held;
    int done;
} watch;

/* Reclaim and redone are measured only when the kill orphaned rows. */
static void watch_poll(PGconn *c, watch *w, uint64_t now) {
    double ms = (double)(now - w->t_kill_ns) / 1e6;
    char err[256];
    if (w->k->detect_ms < 0 && rbb_queue_worker_is_dead(c, w->k->worker_id, err, sizeof err) == 1)
        w->k->detect_ms = ms;
    if (w->n_held && w->k->reclaim_ms < 0 &&
        rbb_queue_rows_leased_to(c, w->k->worker_id, err, sizeof err) == 0)
        w->k->reclaim_ms = ms;
    if (w->n_held && w->k->redone_ms < 0 &&
        rbb_queue_n_unfinished(c, w->held, w->n_held, err, sizeof err) == 0)
        w->k->redone_ms = ms;
    w->done =
        w->k->detect_ms >= 0 && (!w->n_held || (w->k->reclaim_ms >= 0 && w->k->redone_ms >= 0));
}

int rbb_run_crash(const rbb_params *p, const char *conninfo, PGconn *c, int chain, rbb_crash *out,
                  char *err, size_t err_size) {
    memset(out, 0, sizeof *out);
    out->chain = chain;
    out->n_workers = p->crash_workers;
    out->batch = p->crash_batch;
    out->handler_us = p->crash_handler_us;
    out->lease_ms = p->crash_lease_ms;
    out->ttl_ms = p->crash_ttl_ms;
    out->heartbeat_ms = p->crash_heartbeat_ms;
    out->n_rows_enqueued = p->crash_rows;
    int rc = rbb_queue_fresh(c, p->crash_rows, RBB_DIST_UNIFORM, p->n_keys, p->zipf_s, p->seed,
                             "crash", err, err_size);
    if (rc) return out->failed = 1, -1;

    rbb_worker_spec spec = {.conninfo = conninfo,
                            .mode = RBB_MODE_AFFINITY,
                            .batch = out->batch,
                            .ring_algo = p->ring_algo,
                            .age_bound_ms = p->age_bound_ms,
                            .handler_us = out->handler_us,
                            .lease_ms = out->lease_ms,
                            .ttl_ms = out->ttl_ms,
                            .heartbeat_ms = out->heartbeat_ms,
                            .chain = chain,
                            .max_samples = 0};
    enum { MAX_CH = 3 + RBB_MAX_KILLS + 1 };
    rbb_child ch[MAX_CH];
    memset(ch, 0, sizeof ch);
    size_t n = 0;
    int alive[MAX_CH] = {0};
    for (uint32_t i = 0; i < out->n_workers && !rc && n < MAX_CH; i++, n++) {
        rc = rbb_spawn_ready(&ch[n], rbb_worker_body, &spec, err, err_size);
        alive[n] = !rc;
    }
    uint64_t t0 = rb_now_ns();
    watch w[RBB_MAX_KILLS];
    memset(w, 0, sizeof w);
    /* kills every lease + 200 ms, the first after 300 ms */
    double interval_ms = out->lease_ms + 200;
    for (uint32_t k = 0; !rc && !rbb_stop_signal && k < p->crash_kills && k < RBB_MAX_KILLS; k++) {
        double due_ms = 300 + k * interval_ms;
        while (!rc && !rbb_stop_signal && (double)(rb_now_ns() - t0) / 1e6 < due_ms) {
            for (size_t j = 0; j < out->n_kills; j++)
                if (!w[j].done) watch_poll(c, &w[j], rb_now_ns());
            sleep_ms(10);
        }
        /* the victim: a live worker holding rows now (mid-batch); wait up to
         * 1 s for one, else take any live worker */
        size_t victim = MAX_CH;
        for (int tries = 0; tries < 100 && victim == MAX_CH; tries++) {
            for (size_t i = 0; i < n; i++)
                if (alive[i] && rbb_queue_rows_leased_to(c, ch[i].worker_id, err, err_size) > 0) {
                    victim = i;
                    break;
                }
            if (victim == MAX_CH) sleep_ms(10);
        }
        for (size_t i = 0; victim == MAX_CH && i < n; i++)
            if (alive[i]) victim = i;
        if (victim == MAX_CH) break;
        kill(ch[victim].pid, SIGKILL);
        uint64_t t_kill = rb_now_ns();
        alive[victim] = 0;
        rbb_kill *kk = &out->kills[out->n_kills];
        watch *ww = &w[out->n_kills];
        out->n_kills++;
        kk->at_s = (double)(t_kill - t0) / 1e9;
        memcpy(kk->worker_id, ch[victim].worker_id, RBB_WORKER_ID_BYTES);
        kk->detect_ms = kk->reclaim_ms = kk->redone_ms = -1;
        ww->k = kk;
        ww->t_kill_ns = t_kill;
        kk->n_rows_held = (uint64_t)rbb_queue_rows_leased_to(c, kk->worker_id, err, err_size);
        /* A commit already sent when the client died still completes on the
         * server: the rows orphaned are those still leased once its backend
         * has finished (100 ms later). */
        sleep_ms(100);
        rc = rbb_queue_rows_held(c, kk->worker_id, &ww->held, &ww->n_held, err, err_size);
        kk->n_rows_orphaned = ww->n_held;
        fprintf(stderr, "pg bench:   kill %zu at %.2f s: %s holding %llu rows, %zu orphaned\n",
                out->n_kills, kk->at_s, kk->worker_id, (unsigned long long)kk->n_rows_held,
                ww->n_held);
        if (!rc && n < MAX_CH) { /* a replacement keeps W constant */
            rc = rbb_spawn_ready(&ch[n], rbb_worker_body, &spec, err, err_size);
            alive[n] = !rc;
            n++;
        }
    }
    /* the stall: pause a worker holding rows past its lease and the TTL */
    size_t stalled = MAX_CH;
    for (int tries = 0; !rc && !rbb_stop_signal && tries < 100 && stalled == MAX_CH; tries++) {
        for (size_t i = 0; i < n; i++)
            if (alive[i] && rbb_queue_rows_leased_to(c, ch[i].worker_id, err, err_size) > 0) {
                stalled = i;
                break;
            }
        if (stalled == MAX_CH) sleep_ms(10);
    }
    if (!rc && !rbb_stop_signal && stalled < MAX_CH) {
        kill(ch[stalled].pid, SIGSTOP);
        out->n_stall_held =
            (uint64_t)rbb_queue_rows_leased_to(c, ch[stalled].worker_id, err, err_size);
        out->stall_ms = out->lease_ms + out->ttl_ms + 500;
        uint64_t until = rb_now_ns() + (uint64_t)(out->stall_ms * 1e6);
        while (rb_now_ns() < until && !rbb_stop_signal) {
            for (size_t j = 0; j < out->n_kills; j++)
                if (!w[j].done) watch_poll(c, &w[j], rb_now_ns());
            sleep_ms(10);
        }
        kill(ch[stalled].pid, SIGCONT);
    }
    /* drain: every row completed (60 s at most), watching the kills */
    uint64_t deadline = rb_now_ns() + 60ull * 1000000000ull;
    while (!rc && !rbb_stop_signal && rb_now_ns() < deadline) {
        int pending = 0;
        for (size_t j = 0; j < out->n_kills; j++)
            if (!w[j].done) watch_poll(c, &w[j], rb_now_ns()), pending |= !w[j].done;
        double left = 0;
        if (rbb_db_double(c, &left, err, err_size, "%s", rbb_queue_sql_unfinished())) rc = -1;
        if (!rc && left == 0 && !pending) break;
        sleep_ms(10);
    }
    rc = unless_stopped(rc, err, err_size);
    out->drain_s = (double)(rb_now_ns() - t0) / 1e9;
    stop_and_collect(ch, n);
    for (size_t i = 0; i < n; i++) {
        if (ch[i].has_final) out->n_fenced += ch[i].final.n_fenced;
        rbb_child_free(&ch[i]);
    }
    for (size_t j = 0; j < out->n_kills; j++)
        free(w[j].held);
    if (!rc) rc = rbb_queue_count(c, &out->after, err, err_size);
    if (rc) return out->failed = 1, -1;
    out->n_lost = out->n_rows_enqueued > out->after.n_completed
                      ? out->n_rows_enqueued - out->after.n_completed
                      : 0;
    return 0;
}
