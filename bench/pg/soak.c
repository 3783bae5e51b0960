/*
 * soak.c — the soak run (soak.h). Rows completed are read from the effects sequence
 * (one effect row per completed row, written in the completion's statement), so the
 * per-interval rate costs one read of a sequence, not a scan of a growing inbox.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "queue.h"
#include "soak.h"

#define SOAK_HEARTBEAT_MS 1000 /* the library default, named: the retention bound uses it */
#define SOAK_BACKLOG 20000

static int u64_of(PGconn *c, uint64_t *out, char *err, size_t err_size, const char *sql) {
    double v = 0;
    int rc = rbb_db_double(c, &v, err, err_size, "%s", sql);
    *out = (uint64_t)v;
    return rc;
}

/* Rows completed so far: the effects sequence (0 before the first effect). */
static int rows_done(PGconn *c, uint64_t *out, char *err, size_t err_size) {
    return u64_of(c, out, err, err_size,
                  "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM effects_seq_seq");
}

static int sample(PGconn *c, rbb_soak_interval *iv, char *err, size_t err_size) {
    int rc = u64_of(c, &iv->n_inbox_rows, err, err_size, "SELECT count(*) FROM inbox_all");
    if (!rc)
        rc = u64_of(c, &iv->n_pending, err, err_size,
                    "SELECT count(*) FROM inbox WHERE status = 'pending'");
    if (!rc) rc = u64_of(c, &iv->n_done, err, err_size, "SELECT count(*) FROM inbox_done");
    if (!rc)
        rc = u64_of(c, &iv->n_dead_tup, err, err_size,
                    "SELECT coalesce(sum(n_dead_tup), 0) FROM pg_stat_user_tables WHERE "
                    "relname IN ('inbox', 'inbox_done', 'inbox_leases', 'effects') AND "
                    "schemaname = current_schema()");
    if (!rc)
        rc = u64_of(c, &iv->inbox_bytes, err, err_size,
                    "SELECT pg_total_relation_size('inbox') + "
                    "pg_total_relation_size('inbox_done')");
    if (!rc)
        rc = u64_of(c, &iv->inbox_heap_bytes, err, err_size,
                    "SELECT pg_relation_size('inbox') + pg_relation_size('inbox_done')");
    if (!rc)
        rc = u64_of(c, &iv->inbox_index_bytes, err, err_size,
                    "SELECT pg_indexes_size('inbox') + pg_indexes_size('inbox_done')");
    if (!rc)
        rc = u64_of(c, &iv->oldest_pending_ms, err, err_size,
                    "SELECT coalesce(floor(extract(epoch FROM now() - min(run_at)) * 1000), 0) "
                    "FROM inbox WHERE status = 'pending' AND run_at <= now()");
    if (!rc)
        rc = u64_of(c, &iv->n_autovacuum, err, err_size,
                    "SELECT coalesce(sum(autovacuum_count), 0) FROM pg_stat_user_tables WHERE "
                    "relname = 'inbox' AND schemaname = current_schema()");
    return rc;
}

/* The interval's work per row and its machine figures, from the work counters at its start
 * (w0) and end (w1), n rows completed over secs seconds. */
static void interval_work(rbb_soak_interval *iv, const rbb_work *w0, const rbb_work *w1, uint64_t n,
                          double secs) {
    double rows = n ? (double)n : NAN;
    iv->buffers_per_row = (w1->buffers - w0->buffers) / rows;
    iv->wal_bytes_per_row = (w1->wal_bytes - w0->wal_bytes) / rows;
    iv->wal_fpi_per_krow = (w1->wal_fpi - w0->wal_fpi) * 1000 / rows;
    iv->machine_cpu_us_per_row = (w1->busy_us - w0->busy_us) / rows;
    iv->cores_busy = secs > 0 ? (w1->busy_us - w0->busy_us) / 1e6 / secs : NAN;
    double all_us = w1->total_us - w0->total_us;
    iv->steal_share = all_us > 0 ? (w1->steal_us - w0->steal_us) / all_us : NAN;
    double flushes = w1->wal_syncs - w0->wal_syncs, flush_ms = w1->wal_sync_ms - w0->wal_sync_ms;
    iv->wal_flush_ms = flushes > 0 && flush_ms > 0 ? flush_ms / flushes : NAN;
    iv->n_checkpoints = w1->checkpoints - w0->checkpoints;
}

const char *const rbb_soak_tables[RBB_SOAK_N_TABLES] = {"inbox", "inbox_done", "inbox_leases",
                                                        "effects"};

/* One sample of the vacuums running (autovacuum's: the soak runs no VACUUM of its own): hits[k]
 * += 1 when a VACUUM or ANALYZE of rbb_soak_tables[k] (the search path's) is in progress now
 * (pg_stat_progress_vacuum, _analyze). 0; 1 when the role may not see other roles' progress
 * (needs pg_read_all_stats or superuser: nothing added, the shares are unknown); -1 when the
 * sample failed (nothing added: a sample lost is not fatal). */
static int vacuum_sample(PGconn *c, uint64_t hits[RBB_SOAK_N_TABLES]) {
    PGresult *r = PQexec(c, "SELECT CASE WHEN pg_has_role('pg_read_all_stats', 'USAGE') THEN "
                            "EXISTS (SELECT FROM pg_stat_progress_vacuum v WHERE v.relid = t.rel) "
                            "OR EXISTS (SELECT FROM pg_stat_progress_analyze a WHERE a.relid = "
                            "t.rel) END FROM unnest(ARRAY['inbox', 'inbox_done', 'inbox_leases', "
                            "'effects']::regclass[]) WITH ORDINALITY t(rel, k) ORDER BY t.k");
    int rc = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == RBB_SOAK_N_TABLES ? 0 : -1;
    for (int k = 0; !rc && k < RBB_SOAK_N_TABLES; k++)
        if (PQgetisnull(r, k, 0)) rc = 1;
    for (int k = 0; !rc && k < RBB_SOAK_N_TABLES; k++)
        hits[k] += PQgetvalue(r, k, 0)[0] == 't';
    PQclear(r);
    return rc;
}

/* The autovacuum settings that govern the queue tables, as one line. */
static void autovacuum_settings(PGconn *c, char *out, size_t size) {
    rbb_db_settings(c,
                    "autovacuum,autovacuum_vacuum_scale_factor,autovacuum_vacuum_threshold,"
                    "autovacuum_naptime,autovacuum_vacuum_cost_limit,autovacuum_vacuum_cost_delay,"
                    "autovacuum_vacuum_insert_scale_factor,shared_buffers",
                    1, out, size);
}

int rbb_run_soak(rbb_run *run, const char *conninfo, PGconn *c, char *err, size_t err_size) {
    const rbb_params *p = &run->p;
    rbb_soak *s = &run->soak;
    memset(s, 0, sizeof *s);
    run->has_soak = 1;
    s->secs = p->soak_s;
    s->interval_s = p->soak_s >= 300 ? 60 : p->soak_s / 5;
    s->n_workers = RBB_SOAK_WORKERS;
    s->batch = RBB_SOAK_BATCH;
    s->backlog = SOAK_BACKLOG;
    s->heartbeat_ms = SOAK_HEARTBEAT_MS;
    rbb_keys keys;
    if (rbb_keys_init(&keys, RBB_DIST_UNIFORM, p->n_keys, p->zipf_s, p->seed))
        return snprintf(err, err_size, "out of memory"), s->failed = 1, -1;
    int rc = rbb_queue_fresh(c, s->backlog, RBB_DIST_UNIFORM, p->n_keys, p->zipf_s, p->seed + 7,
                             "soak", err, err_size);
    s->retention_ms = p->soak_retention_ms;
    s->retention_batch = RB_QUEUE_RETENTION_BATCH_DEFAULT;
    if (!rc) rc = rbb_queue_set_retention(s->retention_ms, s->retention_batch, err, err_size);
    uint64_t n_enqueued = s->backlog, n_fills = 0;
    autovacuum_settings(c, s->autovacuum, sizeof s->autovacuum);
    rbb_worker_spec spec = {.conninfo = conninfo,
                            .mode = RBB_MODE_AFFINITY,
                            .batch = s->batch,
                            .ring_algo = p->ring_algo,
                            .age_bound_ms = p->age_bound_ms,
                            .run_s = s->secs,
                            .heartbeat_ms = SOAK_HEARTBEAT_MS,
                            .max_samples = 0};
    rbb_child ch[RBB_SOAK_WORKERS];
    memset(ch, 0, sizeof ch);
    size_t n = 0;
    for (; !rc && n < RBB_SOAK_WORKERS; n++)
        rc = rbb_spawn_ready(&ch[n], rbb_worker_body, &spec, err, err_size);
    rbb_work w_prev;
    rbb_work_now(c, &w_prev);
    uint64_t t0 = rb_now_ns(), done_prev = 0;
    uint64_t av_hits[RBB_SOAK_N_TABLES] = {0}, av_samples = 0; /* in the current interval */
    double t_prev = 0, next_iv = s->interval_s;
    while (!rc) {
        double t = (double)(rb_now_ns() - t0) / 1e9;
        int last = t >= s->secs;
        /* The producer keeps the rows not yet done (pending, and in flight: at most W x
         * batch) at the backlog. It reads the effects sequence, not count(*) over inbox: a
         * count every half second cost 12-23 ms, growing with the table, and its work
         * was charged to the queue's rows/s. */
        uint64_t done_now = 0;
        rc = rows_done(c, &done_now, err, err_size);
        uint64_t undone = n_enqueued > done_now ? n_enqueued - done_now : 0;
        if (!rc && !last && undone < s->backlog) {
            char tag[32];
            snprintf(tag, sizeof tag, "soak%llu", (unsigned long long)++n_fills);
            rc = rbb_queue_fill(c, s->backlog - undone, 0, &keys, tag, err, err_size);
            n_enqueued += s->backlog - undone;
        }
        if (!rc && !vacuum_sample(c, av_hits)) av_samples++;
        if (!rc && (t >= next_iv || last) && s->n_intervals < RBB_MAX_SOAK_INTERVALS) {
            rbb_soak_interval *iv = &s->iv[s->n_intervals++];
            uint64_t done = 0;
            rc = rows_done(c, &done, err, err_size);
            rbb_work w;
            rbb_work_now(c, &w);
            if (!rc) rc = sample(c, iv, err, err_size);
            interval_work(iv, &w_prev, &w, done - done_prev, t - t_prev);
            w_prev = w;
            iv->t_end_s = t;
            iv->n_completed = done;
            iv->rows_per_s = t > t_prev ? (double)(done - done_prev) / (t - t_prev) : 0;
            for (int k = 0; k < RBB_SOAK_N_TABLES; k++) {
                iv->autovacuum_share[k] = av_samples ? (double)av_hits[k] / av_samples : NAN;
                av_hits[k] = 0;
            }
            av_samples = 0;
            fprintf(stderr,
                    "pg bench:   soak %.0f s: %.0f rows/s, inbox %llu rows (%llu pending), %llu "
                    "dead tuples; per row %.0f buffers, %.0f us CPU; %.2f cores busy\n",
                    t, iv->rows_per_s, (unsigned long long)iv->n_inbox_rows,
                    (unsigned long long)iv->n_pending, (unsigned long long)iv->n_dead_tup,
                    iv->buffers_per_row, iv->machine_cpu_us_per_row, iv->cores_busy);
            done_prev = done, t_prev = t, next_iv += s->interval_s;
        }
        if (last) break;
        if (rbb_stop_signal) rc = -1, rbb_stop_reason(err, err_size);
        if (!rc) rbb_sleep_us(500000);
    }
    /* the workers stop at s->secs on their own (or now, when something failed); one that
     * has not stopped RBB_STOP_GRACE_S later is killed */
    uint64_t until = t0 + (uint64_t)((s->secs + rbb_overrun_slack_s(s->secs)) * 1e9);
    if (rc) {
        for (size_t i = 0; i < n; i++)
            kill(ch[i].pid, SIGTERM);
        until = rb_now_ns() + (uint64_t)(RBB_STOP_GRACE_S * 1e9);
    }
    rbb_collect(ch, n, NULL, NULL, 100, until);
    for (size_t i = 0; i < n; i++) {
        if (!rc && (!ch[i].has_final || ch[i].exit_status != 0)) {
            char how[96];
            snprintf(err, err_size, "soak worker %zu %s", i,
                     rbb_child_end(&ch[i], how, sizeof how));
            rc = -1;
        }
        if (ch[i].has_final) {
            s->n_claims += ch[i].final.n_claims;
            s->n_empty_claims += ch[i].final.n_empty_claims;
            s->n_rows_aged += ch[i].final.n_rows_aged;
        }
        rbb_child_free(&ch[i]);
    }
    rbb_keys_free(&keys);
    /* retention off again, so the bench's later runs on this queue keep their done rows */
    char off_err[256];
    if (rbb_queue_set_retention(0, RB_QUEUE_RETENTION_BATCH_DEFAULT, off_err, sizeof off_err) &&
        !rc)
        rc = -1, snprintf(err, err_size, "%s", off_err);
    rbb_queue_counts after;
    if (!rc) rc = rbb_queue_count(c, &after, err, err_size);
    if (rc) return s->failed = 1, -1;
    /* done rows past the retention are deleted; their effect rows stay, one per row done */
    s->n_rows = after.n_effects;
    uint64_t accounted = after.n_effects + after.n_pending + after.n_failed;
    s->n_lost = (n_enqueued > accounted ? n_enqueued - accounted : 0) + after.n_claimed;
    s->n_duplicates = after.n_duplicates;
    if (s->n_intervals >= 2 && s->iv[0].rows_per_s > 0) {
        const rbb_soak_interval *first = &s->iv[0], *last = &s->iv[s->n_intervals - 1];
        s->last_vs_first = last->rows_per_s / first->rows_per_s;
        s->buffers_last_vs_first = last->buffers_per_row / first->buffers_per_row;
        s->cpu_last_vs_first = last->machine_cpu_us_per_row / first->machine_cpu_us_per_row;
    }
    if (s->n_intervals && s->retention_ms) {
        const rbb_soak_interval *last = &s->iv[s->n_intervals - 1];
        double window_s = (double)(s->retention_ms + s->heartbeat_ms) / 1e3;
        uint64_t since = 0; /* completed by the latest interval end >= window_s before */
        for (size_t i = 0; i + 1 < s->n_intervals; i++)
            if (s->iv[i].t_end_s <= last->t_end_s - window_s) since = s->iv[i].n_completed;
        s->done_bound_rows = (double)(last->n_completed - since + s->retention_batch);
        s->inbox_bounded = (double)last->n_done <= s->done_bound_rows;
    }
    return 0;
}
