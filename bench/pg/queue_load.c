/*
 * queue_load.c — the queue library (queue.h) as `ringbench pg bench` drives
 * it (queue_load.h): the claim modes, the driver's session (migrate, the ring configuration,
 * EXPLAIN), the backlog filled by COPY, the queue's state read back with
 * plain SQL on the schema of queue/schema.sql, and the worker
 * process body: the claim loop of queue.h with timing around each claim and
 * each completion.
 *
 * Duplicates are counted three ways, any of which must stay 0: effect rows
 * beyond one per inbox row; effect rows whose lease_generation is not the
 * row's final one or whose row is not done (a stale completion that landed);
 * and, per cell, completions the workers saw succeed minus rows done. An effect
 * whose row is gone belongs to a done row deleted by retention (the soak's): the
 * protocol deletes no other row.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "children.h"
#include "db.h"
#include "queue.h"
#include "queue_load.h"
#include "stats.h"
#include "worker.h"

#define RBB_SCHEMA "ringbench"

static const char *const mode_names[] = {"competing", "affinity", "ordered"};

const char *rbb_mode_name(rbb_mode m) { return m < RBB_N_MODES ? mode_names[m] : "?"; }

int rbb_mode_parse(const char *s, rbb_mode *out) {
    for (int m = 0; m < RBB_N_MODES; m++)
        if (strcmp(s, mode_names[m]) == 0) return *out = (rbb_mode)m, 0;
    return -1;
}

static char *driver_conninfo; /* the bench database */
static rb_config ring_cfg;    /* the queue's ring parameters (queue_config) */
static const rb_algo *default_algo;

/* The driver's own queue session, open only while it is used: an idle
 * session would show in the wait-event samples and delay the statistics. */
static int driver_open(rb_queue **q) {
    rb_queue_config cfg;
    rb_queue_config_init(&cfg);
    cfg.conninfo = driver_conninfo;
    cfg.schema = RBB_SCHEMA;
    cfg.batch = 1000;
    return rb_queue_open(&cfg, q);
}

int rbb_queue_prepare(const char *conninfo, PGconn *c, char *err, size_t err_size) {
    free(driver_conninfo);
    driver_conninfo = malloc(strlen(conninfo) + 1);
    if (!driver_conninfo) return snprintf(err, err_size, "out of memory"), -1;
    strcpy(driver_conninfo, conninfo);
    rb_queue *driver_q = NULL;
    int rc = driver_open(&driver_q);
    rb_config ring;
    rb_config_init(&ring);
    default_algo = rb_algo_by_name("binary");
    if (!rc) rc = rb_queue_migrate(driver_q, default_algo, &ring);
    if (rc) {
        snprintf(err, err_size, "queue: %s", rb_error_detail());
        rb_queue_close(driver_q);
        return -1;
    }
    ring_cfg = *rb_queue_ring_config(driver_q);
    rb_queue_close(driver_q);
    return rbb_db_exec(c, err, err_size, "SET search_path TO " RBB_SCHEMA);
}

/* How long rbb_queue_reconnect keeps trying (ms). */
#define RECONNECT_MS 10000u

int rbb_queue_reconnect(PGconn *c, char *err, size_t err_size) {
    if (PQstatus(c) != CONNECTION_BAD) return 0;
    char lost[512];
    snprintf(lost, sizeof lost, "%s", PQerrorMessage(c));
    rbb_db_one_line(lost);
    /* a restart takes a moment ("the database system is shutting down" / "is starting up"):
     * try again for up to RECONNECT_MS, backing off from 50 ms to 1 s */
    PQreset(c);
    for (unsigned wait_ms = 50, waited = 0;
         PQstatus(c) != CONNECTION_OK &&
                 waited<RECONNECT_MS; waited += wait_ms, wait_ms = wait_ms * 2> 1000
             ? 1000
             : wait_ms * 2) {
        rbb_sleep_us(wait_ms * 1000u);
        PQreset(c);
    }
    if (PQstatus(c) != CONNECTION_OK) {
        char again[512];
        snprintf(again, sizeof again, "%s", PQerrorMessage(c));
        rbb_db_one_line(again);
        snprintf(err, err_size, "the driver's connection was lost (%s) and reconnecting failed: %s",
                 lost, again);
        return -1;
    }
    fprintf(stderr, "pg bench:   the driver's connection was lost (%s); reconnected\n", lost);
    return rbb_db_exec(c, err, err_size, "SET search_path TO " RBB_SCHEMA);
}

void rbb_queue_finish(void) {
    free(driver_conninfo);
    driver_conninfo = NULL;
}

int rbb_queue_set_retention(uint64_t retention_ms, uint32_t batch_rows, char *err,
                            size_t err_size) {
    rb_queue *q = NULL;
    rb_queue_retention r = {(int64_t)retention_ms, batch_rows};
    int rc = driver_open(&q);
    if (!rc) rc = rb_queue_retention_set(q, &r);
    if (rc) snprintf(err, err_size, "retention: %s", rb_error_detail());
    rb_queue_close(q);
    return rc ? -1 : 0;
}

int rbb_queue_reset(PGconn *c, char *err, size_t err_size) {
    return rbb_db_exec(
        c, err, err_size,
        "TRUNCATE inbox, inbox_done, inbox_leases, effects, workers RESTART IDENTITY");
}

int rbb_queue_settle(PGconn *c, char *err, size_t err_size) {
    return rbb_db_exec(c, err, err_size, "VACUUM ANALYZE inbox, effects, workers");
}

uint32_t rbb_queue_n_buckets(void) { return ring_cfg.n_buckets; }
const rb_config *rbb_queue_ring_config(void) { return &ring_cfg; }

int rbb_queue_ring(const char *algo, const rb_member *members, size_t n, rb_ring **out) {
    const rb_algo *a = rb_algo_by_name(algo);
    if (!a) return RB_EUNKNOWN;
    return rb_ring_build(a, &ring_cfg, members, n, out);
}

int rbb_queue_fill(PGconn *c, uint64_t n_rows, uint64_t n_hot, rbb_keys *keys, const char *tag,
                   char *err, size_t err_size) {
    PGresult *r = rbb_db_exec_stoppable(c, "COPY inbox (partition_key, partition_bucket, "
                                           "idempotency_key) FROM STDIN");
    if (PQresultStatus(r) != PGRES_COPY_IN) {
        if (rbb_stop_signal)
            rbb_stop_reason(err, err_size);
        else
            snprintf(err, err_size, "COPY inbox: %s", PQerrorMessage(c)), rbb_db_one_line(err);
        PQclear(r);
        return -1;
    }
    PQclear(r);
    char line[160], key[32];
    int ok = 1;
    for (uint64_t i = 0; ok && i < n_rows; i++) {
        if (rbb_stop_signal) { /* the COPY is aborted: none of its rows stays */
            ok = 0;
            break;
        }
        int hot = (i + 1) * n_hot / n_rows > i * n_hot / n_rows;
        size_t kl = hot ? (size_t)snprintf(key, sizeof key, "%s", RBB_HOT_KEY)
                        : rbb_key_format(key, sizeof key, rbb_keys_next_rank(keys));
        int n = snprintf(line, sizeof line, "%s\t%u\t%s:%llu\n", key,
                         rb_bucket_of(&ring_cfg, key, kl), tag, (unsigned long long)i);
        ok = PQputCopyData(c, line, n) == 1;
    }
    PQputCopyEnd(c, ok ? NULL : rbb_stop_signal ? "pg bench was interrupted" : "client error");
    int rc = 0;
    while ((r = PQgetResult(c))) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK && !rc) {
            snprintf(err, err_size, "COPY inbox: %s", PQerrorMessage(c));
            rbb_db_one_line(err);
            rc = -1;
        }
        PQclear(r);
    }
    if (rc && rbb_stop_signal) rbb_stop_reason(err, err_size);
    return rc;
}

static const char *const heap_order_names[] = {"loaded", "id", "bucket"}; /* rbb_heap_order */

const char *rbb_heap_order_name(rbb_heap_order o) { return heap_order_names[o]; }

int rbb_heap_order_parse(const char *s, rbb_heap_order *out) {
    for (int o = RBB_HEAP_LOADED; o <= RBB_HEAP_BUCKET; o++)
        if (strcmp(s, heap_order_names[o]) == 0) return *out = (rbb_heap_order)o, 0;
    return -1;
}

double rbb_queue_bucket_correlation(PGconn *c) {
    double v;
    char err[256]; /* no figure is no failure */
    return rbb_db_double(c, &v, err, sizeof err,
                         "SELECT correlation FROM pg_stats WHERE schemaname = current_schema() "
                         "AND tablename = 'inbox' AND attname = 'partition_bucket'")
               ? NAN
               : v;
}

/* CLUSTER needs a full (not partial) index in the order wanted: one made for it and dropped. */
int rbb_queue_rewrite(PGconn *c, rbb_heap_order o, char *err, size_t err_size) {
    if (o == RBB_HEAP_LOADED) return 0;
    const char *cols = o == RBB_HEAP_BUCKET ? "partition_bucket, id" : "id";
    if (rbb_db_exec(c, err, err_size,
                    "CREATE INDEX rbb_heap_order ON inbox (%s); CLUSTER inbox USING "
                    "rbb_heap_order; DROP INDEX rbb_heap_order",
                    cols))
        return -1;
    return rbb_queue_settle(c, err, err_size);
}

int rbb_queue_fresh(PGconn *c, uint64_t n_rows, rbb_dist dist, uint32_t n_keys, double zipf_s,
                    uint64_t seed, const char *tag, char *err, size_t err_size) {
    rbb_keys keys;
    if (rbb_keys_init(&keys, dist, n_keys, zipf_s, seed))
        return snprintf(err, err_size, "out of memory"), -1;
    int rc = rbb_queue_reset(c, err, err_size);
    if (!rc) rc = rbb_queue_fill(c, n_rows, 0, &keys, tag, err, err_size);
    if (!rc) rc = rbb_queue_settle(c, err, err_size);
    rbb_keys_free(&keys);
    return rc;
}

static uint64_t q_u64(PGconn *c, const char *sql, int *ok) {
    if (!*ok) return 0; /* after a failure: libpq's message of the first kept */
    PGresult *r = PQexec(c, sql);
    uint64_t v = 0;
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0)
        v = strtoull(PQgetvalue(r, 0, 0), NULL, 10);
    else
        *ok = 0;
    PQclear(r);
    return v;
}

int rbb_queue_count(PGconn *c, rbb_queue_counts *o, char *err, size_t err_size) {
    int ok = 1;
    memset(o, 0, sizeof *o);
    if (rbb_db_lost(c, err, err_size)) return -1;
    PGresult *r = PQexec(c, "SELECT status, count(*) FROM inbox_all GROUP BY 1");
    if (PQresultStatus(r) != PGRES_TUPLES_OK) ok = 0;
    for (int i = 0; ok && i < PQntuples(r); i++) {
        const char *s = PQgetvalue(r, i, 0);
        uint64_t n = strtoull(PQgetvalue(r, i, 1), NULL, 10);
        o->n_rows += n;
        if (!strcmp(s, "pending"))
            o->n_pending += n;
        else if (!strcmp(s, "claimed"))
            o->n_claimed += n;
        else if (!strcmp(s, "done"))
            o->n_completed += n;
        else if (!strcmp(s, "failed"))
            o->n_failed += n;
    }
    PQclear(r);
    o->n_effects = q_u64(c, "SELECT count(*) FROM effects", &ok);
    o->n_duplicates =
        q_u64(c,
              "SELECT (SELECT count(*) - count(DISTINCT inbox_id) FROM effects) + (SELECT "
              "count(*) FROM effects e JOIN inbox_all i ON i.id = e.inbox_id WHERE "
              "i.status <> 'done' OR i.lease_generation <> e.lease_generation)",
              &ok);
    o->n_completed_no_effect = q_u64(c,
                                     "SELECT count(*) FROM inbox_done i WHERE "
                                     "NOT EXISTS (SELECT 1 FROM effects e WHERE "
                                     "e.idempotency_key = i.idempotency_key AND "
                                     "e.inbox_id = i.id)", /* by the effects key: indexed */
                                     &ok);
    o->n_dead_tup = q_u64(c,
                          "SELECT coalesce(sum(n_dead_tup), 0) FROM pg_stat_user_tables WHERE "
                          "schemaname = '" RBB_SCHEMA
                          "' AND relname IN ('inbox', 'inbox_done', 'inbox_leases', 'effects')",
                          &ok);
    if (!ok) snprintf(err, err_size, "counting the queue: %s", PQerrorMessage(c));
    if (!ok) rbb_db_one_line(err);
    return ok ? 0 : -1;
}

int rbb_queue_db_epoch(PGconn *c, double *out, char *err, size_t err_size) {
    return rbb_db_double(c, out, err, err_size, "SELECT extract(epoch FROM clock_timestamp())");
}

/* A Postgres array literal "{v0,v1,...}" of n integers, from u32[] or, when
 * u32 is NULL, from i64[] (malloc'ed; NULL when out of memory). Each element
 * is written with a bound (snprintf into what is left): 21 bytes hold any
 * int64 or uint32 and its comma, whatever B or the ids are (issue 10, kind 12). */
static char *int_array_literal(const uint32_t *u32, const int64_t *i64, size_t n) {
    size_t cap = n * 21 + 3, k = 0;
    char *s = malloc(cap);
    if (!s) return NULL;
    s[k++] = '{';
    for (size_t i = 0; i < n; i++) {
        int w = u32 ? snprintf(s + k, cap - k, "%s%u", i ? "," : "", u32[i])
                    : snprintf(s + k, cap - k, "%s%lld", i ? "," : "", (long long)i64[i]);
        if (w < 0 || (size_t)w >= cap - k) {
            free(s);
            return NULL;
        }
        k += (size_t)w;
    }
    s[k++] = '}';
    s[k] = '\0';
    return s;
}

int rbb_queue_count_on_buckets(PGconn *c, const uint32_t *buckets, size_t n, uint64_t *claimed,
                               uint64_t *pending, char *err, size_t err_size) {
    char *arr = int_array_literal(buckets, NULL, n);
    if (!arr) return snprintf(err, err_size, "out of memory"), -1;
    const char *v[1] = {arr};
    PGresult *r = PQexecParams(c,
                               "SELECT count(*) FILTER (WHERE status = 'claimed'), count(*) "
                               "FILTER (WHERE status = 'pending') FROM inbox WHERE "
                               "partition_bucket = ANY($1::int[])",
                               1, NULL, v, NULL, NULL, 0);
    free(arr);
    int rc = PQresultStatus(r) == PGRES_TUPLES_OK ? 0 : -1;
    if (rc)
        snprintf(err, err_size, "%s", PQerrorMessage(c));
    else
        *claimed = strtoull(PQgetvalue(r, 0, 0), NULL, 10),
        *pending = strtoull(PQgetvalue(r, 0, 1), NULL, 10);
    PQclear(r);
    return rc;
}

int rbb_queue_timeline(PGconn *c, double t0, double t1, double **bins, size_t *n_bins, char *err,
                       size_t err_size) {
    size_t n = (size_t)((t1 - t0) * 1000 / RBB_BIN_MS); /* whole bins only */
    if (n == 0) n = 1;
    double *b = calloc(n, sizeof *b);
    if (!b) return snprintf(err, err_size, "out of memory"), -1;
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT floor((extract(epoch FROM completed_at) - %.6f) * 1000 / %d)::bigint, "
             "count(*) FROM inbox_done GROUP BY 1",
             t0, RBB_BIN_MS);
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        snprintf(err, err_size, "%s", PQerrorMessage(c));
        PQclear(r);
        free(b);
        return -1;
    }
    for (int i = 0; i < PQntuples(r); i++) {
        long long k = atoll(PQgetvalue(r, i, 0));
        if (k >= 0 && (size_t)k < n) b[k] = atof(PQgetvalue(r, i, 1)) * (1000.0 / RBB_BIN_MS);
    }
    PQclear(r);
    *bins = b;
    *n_bins = n;
    return 0;
}

int rbb_queue_worker_is_dead(PGconn *c, const char *id, char *err, size_t err_size) {
    const char *v[1] = {id};
    PGresult *r = PQexecParams(c, "SELECT status = 'dead' FROM workers WHERE id = $1", 1, NULL, v,
                               NULL, NULL, 0);
    int rc = -1;
    if (PQresultStatus(r) == PGRES_TUPLES_OK)
        rc = PQntuples(r) > 0 && PQgetvalue(r, 0, 0)[0] == 't';
    else
        snprintf(err, err_size, "%s", PQerrorMessage(c));
    PQclear(r);
    return rc;
}

long rbb_queue_rows_leased_to(PGconn *c, const char *id, char *err, size_t err_size) {
    const char *v[1] = {id};
    PGresult *r = PQexecParams(c,
                               "SELECT count(*) FROM inbox WHERE status = 'claimed' AND "
                               "claimed_by = $1",
                               1, NULL, v, NULL, NULL, 0);
    long n = -1;
    if (PQresultStatus(r) == PGRES_TUPLES_OK)
        n = atol(PQgetvalue(r, 0, 0));
    else
        snprintf(err, err_size, "%s", PQerrorMessage(c));
    PQclear(r);
    return n;
}

int rbb_queue_rows_held(PGconn *c, const char *id, int64_t **ids, size_t *n, char *err,
                        size_t err_size) {
    const char *v[1] = {id};
    PGresult *r =
        PQexecParams(c, "SELECT id FROM inbox WHERE status = 'claimed' AND claimed_by = $1", 1,
                     NULL, v, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        snprintf(err, err_size, "%s", PQerrorMessage(c));
        PQclear(r);
        return -1;
    }
    *n = (size_t)PQntuples(r);
    *ids = malloc((*n ? *n : 1) * sizeof **ids);
    for (size_t i = 0; *ids && i < *n; i++)
        (*ids)[i] = atoll(PQgetvalue(r, (int)i, 0));
    PQclear(r);
    return *ids ? 0 : -1;
}

long rbb_queue_n_unfinished(PGconn *c, const int64_t *ids, size_t n, char *err, size_t err_size) {
    if (n == 0) return 0;
    char *s = int_array_literal(NULL, ids, n);
    if (!s) return snprintf(err, err_size, "out of memory"), -1;
    const char *v[1] = {s};
    PGresult *r = PQexecParams(c, "SELECT count(*) FROM inbox WHERE id = ANY($1::bigint[])", 1,
                               NULL, v, NULL, NULL, 0);
    free(s);
    long out = -1;
    if (PQresultStatus(r) == PGRES_TUPLES_OK)
        out = atol(PQgetvalue(r, 0, 0));
    else
        snprintf(err, err_size, "%s", PQerrorMessage(c));
    PQclear(r);
    return out;
}

const char *rbb_queue_sql_unfinished(void) { return "SELECT count(*) FROM inbox"; }

#define RBB_EXPLAIN_MEMBERS 4

char *rbb_queue_explain_modes(uint32_t batch, char *err, size_t err_size) {
    rb_queue_config cfg;
    rb_queue_config_init(&cfg);
    cfg.conninfo = driver_conninfo;
    cfg.schema = RBB_SCHEMA;
    cfg.batch = batch;
    /* as one of RBB_EXPLAIN_MEMBERS registered workers, so the affinity
     * plans filter on a realistic owned-bucket set (about 1/4 of B) */
    rb_queue *members[RBB_EXPLAIN_MEMBERS] = {0};
    for (int i = 0; i < RBB_EXPLAIN_MEMBERS; i++) {
        if (rb_queue_open(&cfg, &members[i]) || rb_queue_register(members[i])) {
            snprintf(err, err_size, "queue: %s", rb_error_detail());
            for (int j = 0; j <= i; j++)
                rb_queue_close(members[j]);
            return NULL;
        }
    }
    rb_queue *q = members[0];
    if (rb_queue_refresh_membership(q, NULL)) {
        snprintf(err, err_size, "queue: %s", rb_error_detail());
        for (int j = 0; j < RBB_EXPLAIN_MEMBERS; j++)
            rb_queue_close(members[j]);
        return NULL;
    }
    size_t n_owned = 0;
    rb_queue_owned_buckets(q, &n_owned);
    size_t cap = 16384, len = 0;
    char *out = malloc(cap);
    /* every mode's claim as one of the members, affinity's with the age scan too, then ordered
     * mode's as the only live member (claim_window.sql; affinity's is the competing claim) */
    const struct {
        rb_claim_mode mode;
        int flags;
    } plans[] = {{RB_CLAIM_COMPETING, 0},
                 {RB_CLAIM_AFFINITY, 0},
                 {RB_CLAIM_AFFINITY, RB_EXPLAIN_AGED},
                 {RB_CLAIM_ORDERED, 0},
                 {RB_CLAIM_ORDERED, RB_EXPLAIN_ALONE}};
    for (size_t p = 0; out && p < sizeof plans / sizeof plans[0]; p++) {
        rb_claim_mode m = plans[p].mode;
        int flags = RB_EXPLAIN_ANALYZE | RB_EXPLAIN_GENERIC | plans[p].flags;
        char *text = NULL;
        if (rb_queue_explain(q, m, flags, &text)) {
            snprintf(err, err_size, "explain: %s", rb_error_detail());
            free(out);
            out = NULL;
            break;
        }
        size_t need = len + strlen(text) + 128;
        if (need > cap) {
            char *o = realloc(out, cap = need * 2);
            if (!o) free(out);
            out = o;
        }
        char as[96];
        if (plans[p].flags & RB_EXPLAIN_ALONE)
            snprintf(as, sizeof as, "the only live member (every bucket)");
        else
            snprintf(as, sizeof as, "1 of %d workers owning %zu buckets%s", RBB_EXPLAIN_MEMBERS,
                     n_owned, plans[p].flags & RB_EXPLAIN_AGED ? ", with the age scan" : "");
        if (out)
            len += (size_t)snprintf(out + len, cap - len, "-- %s, batch %u, as %s\n%s\n",
                                    rb_claim_mode_name(m), batch, as, text);
        free(text);
    }
    for (int j = 0; j < RBB_EXPLAIN_MEMBERS; j++)
        rb_queue_close(members[j]);
    return out;
}

/* ---------------- the worker process ---------------- */

static volatile sig_atomic_t stop_requested;
static void on_term(int sig) {
    (void)sig;
    stop_requested = 1;
}

static void die(const char *what) {
    fprintf(stderr, "pg bench worker %d: %s: %s\n", (int)getpid(), what, rb_error_detail());
    _exit(1);
}

/* What the hooks of the library's worker loop share in one bench worker. */
typedef struct bench_worker {
    const rbb_worker_spec *s;
    int go_fd, report_fd;
    rbb_report_head h;
    rbb_sample *samples;
    uint64_t deadline_ns;
    uint64_t cpu_go_ns; /* process_cpu_ns() at the go */
} bench_worker;

/* CPU time of this process, every thread, user + system, in ns (0 if unreadable). */
static uint64_t process_cpu_ns(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)) return 0;
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Registered: report READY with the worker id, wait for the go (EOF on the go
 * pipe: every worker is registered), start the clock. */
static int bw_ready(void *ctx, rb_queue *q) {
    bench_worker *w = ctx;
    w->h.kind = RBB_REPORT_READY;
    snprintf(w->h.worker_id, sizeof w->h.worker_id, "%s", rb_queue_worker_id(q));
    if (rbb_report_send(w->report_fd, &w->h, NULL)) _exit(1);
    if (w->go_fd >= 0) {
        char ch;
        while (read(w->go_fd, &ch, 1) < 0 && errno == EINTR) {
        }
        close(w->go_fd);
    }
    w->h.kind = RBB_REPORT_FINAL;
    w->h.t_go_ns = rb_now_ns();
    w->cpu_go_ns = process_cpu_ns();
    w->deadline_ns = w->s->run_s > 0 ? w->h.t_go_ns + (uint64_t)(w->s->run_s * 1e9) : UINT64_MAX;
    return 0;
}

/* One claim and the completion of its rows: counters and a latency sample. */
static void bw_batch(void *ctx, const rb_worker_batch_info *b) {
    bench_worker *w = ctx;
    w->h.n_claims++;
    if (b->n_claimed == 0) {
        w->h.n_empty_claims++;
        return;
    }
    if (b->n_claimed < w->s->batch) w->h.n_short_claims++;
    w->h.n_rows += b->n_done;
    w->h.n_fenced += b->n_lost + b->n_skipped; /* refused, or not started: lease lost */
    if (w->h.n_samples < w->s->max_samples) {
        w->samples[w->h.n_samples].claim_ns = b->claim_ns;
        w->samples[w->h.n_samples].claim_timed = (uint32_t)b->claim_timed;
        w->samples[w->h.n_samples].complete_ns = b->complete_ns;
        w->h.n_samples++;
    }
}

static int bw_should_stop(void *ctx) {
    const bench_worker *w = ctx;
    return stop_requested || rb_now_ns() >= w->deadline_ns ||
           (w->s->max_rows && w->h.n_rows >= w->s->max_rows);
}

/* Events (membership changes, workers marked dead) are not printed: the bench's
 * stderr carries one line per cell. */
static void bw_event(void *ctx, rb_queue *q, const char *line) { (void)ctx, (void)q, (void)line; }

/* The worker process: the library's worker loop (worker.h, rb_worker_run) — the loop
 * `ringbench pg worker` runs, so what is measured is what users run — with hooks that
 * report READY, wait for the go, stop at the deadline, the row cap or SIGTERM and time each claim
 * and completion. */
void rbb_worker_body(void *arg, int go_fd, int report_fd) {
    const rbb_worker_spec *s = arg;
    signal(SIGTERM, on_term); /* the driver's stop */
    signal(SIGINT, on_term);  /* Ctrl-C reaches the whole process group: stop and report too */
    rb_queue_config cfg;
    rb_queue_config_init(&cfg);
    cfg.conninfo = s->conninfo;
    cfg.schema = RBB_SCHEMA;
    cfg.mode = s->mode == RBB_MODE_COMPETING  ? RB_CLAIM_COMPETING
               : s->mode == RBB_MODE_AFFINITY ? RB_CLAIM_AFFINITY
                                              : RB_CLAIM_ORDERED;
    cfg.batch = s->batch;
    cfg.age_bound_ms = s->age_bound_ms;
    if (s->lease_ms) cfg.lease_ms = s->lease_ms;
    if (s->ttl_ms) cfg.ttl_ms = s->ttl_ms;
    if (s->heartbeat_ms) cfg.heartbeat_ms = s->heartbeat_ms;
    cfg.algo = rb_algo_by_name(s->ring_algo);
    cfg.worker_id = s->worker_id;
    cfg.ring = ring_cfg;
    cfg.ring_override = 1;
    rb_queue *q = NULL;
    if (rb_queue_open(&cfg, &q)) die("open");
    bench_worker w;
    memset(&w, 0, sizeof w);
    w.s = s, w.go_fd = go_fd, w.report_fd = report_fd;
    w.h.magic = RBB_REPORT_MAGIC;
    w.deadline_ns = UINT64_MAX;
    w.samples = calloc(s->max_samples ? s->max_samples : 1, sizeof *w.samples);
    if (!w.samples) die("out of memory");
    rb_worker_options o;
    rb_worker_options_init(&o);
    o.work_us = s->handler_us;
    o.poll_us = 2000;
    o.complete_each = s->complete_each;
    o.chain = s->chain;
    rb_worker_hooks hooks = {.ctx = &w,
                             .on_ready = bw_ready,
                             .on_batch = bw_batch,
                             .on_event = bw_event,
                             .should_stop = bw_should_stop};
    rb_worker_stats st;
    int rc = rb_worker_run(q, &o, &hooks, &st);
    if (rc && rc != RB_ELOST) die("worker loop");
    /* RB_ELOST: this incarnation was declared dead (a stall past the TTL): it stops,
     * as the protocol wants, and reports what it did */
    if (rc == RB_ELOST) w.h.n_errors++;
    w.h.t_end_ns = rb_now_ns();
    if (w.cpu_go_ns) w.h.cpu_ns = process_cpu_ns() - w.cpu_go_ns;
    w.h.n_rows_aged = st.n_rows_aged;
    w.h.n_complete_tx = st.n_complete_tx - st.n_chained; /* a chained one commits with a claim */
    if (w.h.kind != RBB_REPORT_FINAL) {                  /* stopped before the go */
        w.h.kind = RBB_REPORT_FINAL;
        w.h.t_go_ns = w.h.t_end_ns;
    }
    rb_queue_close(q); /* leaves the membership */
    int src = rbb_report_send(report_fd, &w.h, w.samples);
    free(w.samples);
    _exit(src ? 1 : 0);
}
