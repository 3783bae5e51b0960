/*
 * bench_queue.c — PROVISIONAL stand-in for the issue-5 queue library, so the
 * harness can be exercised before that library lands. To be replaced by
 * calls into queue/queue.h.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static const char schema_sql[] =
    "CREATE TABLE IF NOT EXISTS workers (id text PRIMARY KEY, status text NOT NULL DEFAULT "
    "'alive', started_at timestamptz NOT NULL DEFAULT now(), last_seen_at timestamptz NOT NULL "
    "DEFAULT now());"
    "CREATE TABLE IF NOT EXISTS inbox (id bigserial PRIMARY KEY, partition_key text NOT NULL, "
    "partition_bucket int NOT NULL CHECK (partition_bucket BETWEEN 0 AND 1023), idempotency_key "
    "text NOT NULL UNIQUE, payload text, status text NOT NULL DEFAULT 'pending', claimed_by text, "
    "lease_expires_at timestamptz, lease_generation bigint NOT NULL DEFAULT 0, attempts int NOT "
    "NULL DEFAULT 0, run_at timestamptz NOT NULL DEFAULT now(), created_at timestamptz NOT NULL "
    "DEFAULT now(), completed_at timestamptz);"
    "CREATE INDEX IF NOT EXISTS inbox_pending ON inbox (partition_bucket, id) WHERE status = "
    "'pending';"
    "CREATE INDEX IF NOT EXISTS inbox_pending_id ON inbox (id) WHERE status = 'pending';"
    "CREATE INDEX IF NOT EXISTS inbox_key ON inbox (partition_key, id) WHERE status <> "
    "'completed';"
    "CREATE TABLE IF NOT EXISTS bench_effects (inbox_id bigint NOT NULL, worker_id text NOT "
    "NULL, done_at timestamptz NOT NULL DEFAULT now());";

int rbb_queue_prepare(PGconn *c, char *err, size_t err_size) {
    return rbb_db_exec(c, err, err_size, "%s", schema_sql);
}

int rbb_queue_reset(PGconn *c, char *err, size_t err_size) {
    return rbb_db_exec(c, err, err_size, "TRUNCATE inbox, workers, bench_effects RESTART IDENTITY");
}

int rbb_queue_settle(PGconn *c, char *err, size_t err_size) {
    return rbb_db_exec(c, err, err_size, "VACUUM ANALYZE inbox, bench_effects, workers");
}

uint32_t rbb_queue_n_buckets(void) { return RB_DEFAULT_N_BUCKETS; }

static rb_config ring_config(void) {
    rb_config cfg;
    rb_config_init(&cfg);
    return cfg;
}

int rbb_queue_ring(const char *algo, const rb_member *members, size_t n, rb_ring **out) {
    const rb_algo *a = rb_algo_by_name(algo);
    if (!a) return RB_EUNKNOWN;
    rb_config cfg = ring_config();
    return rb_ring_build(a, &cfg, members, n, out);
}

int rbb_queue_fill(PGconn *c, uint64_t n_rows, rbb_keys *keys, const char *tag, char *err,
                   size_t err_size) {
    rb_config cfg = ring_config();
    PGresult *r = PQexec(c, "COPY inbox (partition_key, partition_bucket, idempotency_key, "
                            "payload) FROM STDIN");
    if (PQresultStatus(r) != PGRES_COPY_IN) {
        snprintf(err, err_size, "COPY: %s", PQerrorMessage(c));
        PQclear(r);
        return -1;
    }
    PQclear(r);
    char line[256], key[64];
    for (uint64_t i = 0; i < n_rows; i++) {
        size_t kl = rbb_key_format(key, sizeof key, rbb_keys_next_rank(keys));
        uint32_t b = rb_bucket_of(&cfg, key, kl);
        int n = snprintf(line, sizeof line, "%s\t%u\t%s:%llu\tx\n", key, b, tag,
                         (unsigned long long)i);
        if (PQputCopyData(c, line, n) != 1) break;
    }
    PQputCopyEnd(c, NULL);
    r = PQgetResult(c);
    int rc = PQresultStatus(r) == PGRES_COMMAND_OK ? 0 : -1;
    if (rc) snprintf(err, err_size, "COPY: %s", PQerrorMessage(c));
    PQclear(r);
    while ((r = PQgetResult(c))) PQclear(r);
    return rc;
}

static uint64_t q_u64(PGconn *c, const char *sql, int *ok) {
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
    PGresult *r = PQexec(c, "SELECT status, count(*) FROM inbox GROUP BY 1");
    if (PQresultStatus(r) != PGRES_TUPLES_OK) ok = 0;
    for (int i = 0; ok && i < PQntuples(r); i++) {
        const char *s = PQgetvalue(r, i, 0);
        uint64_t n = strtoull(PQgetvalue(r, i, 1), NULL, 10);
        o->n_rows += n;
        if (!strcmp(s, "pending")) o->n_pending += n;
        else if (!strcmp(s, "claimed")) o->n_claimed += n;
        else if (!strcmp(s, "completed")) o->n_completed += n;
        else if (!strcmp(s, "failed")) o->n_failed += n;
    }
    PQclear(r);
    o->n_effects = q_u64(c, "SELECT count(*) FROM bench_effects", &ok);
    o->n_duplicates =
        q_u64(c, "SELECT count(*) - count(DISTINCT inbox_id) FROM bench_effects", &ok);
    o->n_completed_no_effect = q_u64(c,
                                     "SELECT count(*) FROM inbox i WHERE status = 'completed' AND "
                                     "NOT EXISTS (SELECT 1 FROM bench_effects e WHERE e.inbox_id "
                                     "= i.id)",
                                     &ok);
    o->n_dead_tup = q_u64(c,
                          "SELECT coalesce(sum(n_dead_tup), 0) FROM pg_stat_user_tables WHERE "
                          "relname IN ('inbox', 'bench_effects')",
                          &ok);
    if (!ok) snprintf(err, err_size, "counting the queue: %s", PQerrorMessage(c));
    return ok ? 0 : -1;
}

int rbb_queue_db_epoch(PGconn *c, double *out, char *err, size_t err_size) {
    return rbb_db_double(c, out, err, err_size, "SELECT extract(epoch FROM clock_timestamp())");
}

static char *bucket_array(const uint32_t *b, size_t n) {
    char *s = malloc(n * 6 + 4);
    if (!s) return NULL;
    size_t k = 0;
    s[k++] = '{';
    for (size_t i = 0; i < n; i++) k += (size_t)sprintf(s + k, "%s%u", i ? "," : "", b[i]);
    s[k++] = '}';
    s[k] = '\0';
    return s;
}

int rbb_queue_count_on_buckets(PGconn *c, const uint32_t *buckets, size_t n, uint64_t *claimed,
                               uint64_t *pending, char *err, size_t err_size) {
    char *arr = bucket_array(buckets, n);
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
    size_t n = (size_t)((t1 - t0) * 1000 / RBB_BIN_MS) + 1;
    double *b = calloc(n, sizeof *b);
    if (!b) return snprintf(err, err_size, "out of memory"), -1;
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT floor((extract(epoch FROM completed_at) - %.6f) * 1000 / %d)::bigint, "
             "count(*) FROM inbox WHERE status = 'completed' GROUP BY 1",
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
        if (k >= 0 && (size_t)k < n)
            b[k] = atof(PQgetvalue(r, i, 1)) * (1000.0 / RBB_BIN_MS);
    }
    PQclear(r);
    *bins = b;
    *n_bins = n;
    return 0;
}

int rbb_queue_worker_is_dead(PGconn *c, const char *id, char *err, size_t err_size) {
    const char *v[1] = {id};
    PGresult *r = PQexecParams(c, "SELECT status = 'dead' FROM workers WHERE id = $1", 1, NULL,
                               v, NULL, NULL, 0);
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
    PGresult *r = PQexecParams(c,
                               "SELECT id FROM inbox WHERE status = 'claimed' AND claimed_by = $1",
                               1, NULL, v, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        snprintf(err, err_size, "%s", PQerrorMessage(c));
        PQclear(r);
        return -1;
    }
    *n = (size_t)PQntuples(r);
    *ids = malloc((*n ? *n : 1) * sizeof **ids);
    for (size_t i = 0; *ids && i < *n; i++) (*ids)[i] = atoll(PQgetvalue(r, (int)i, 0));
    PQclear(r);
    return *ids ? 0 : -1;
}

long rbb_queue_n_unfinished(PGconn *c, const int64_t *ids, size_t n, char *err, size_t err_size) {
    if (n == 0) return 0;
    char *s = malloc(n * 21 + 4);
    if (!s) return -1;
    size_t k = 0;
    s[k++] = '{';
    for (size_t i = 0; i < n; i++) k += (size_t)sprintf(s + k, "%s%lld", i ? "," : "", (long long)ids[i]);
    s[k++] = '}';
    s[k] = '\0';
    const char *v[1] = {s};
    PGresult *r = PQexecParams(c,
                               "SELECT count(*) FROM inbox WHERE id = ANY($1::bigint[]) AND "
                               "status <> 'completed'",
                               1, NULL, v, NULL, NULL, 0);
    free(s);
    long out = -1;
    if (PQresultStatus(r) == PGRES_TUPLES_OK)
        out = atol(PQgetvalue(r, 0, 0));
    else
        snprintf(err, err_size, "%s", PQerrorMessage(c));
    PQclear(r);
    return out;
}

const char *rbb_queue_sql_unfinished(void) {
    return "SELECT count(*) FROM inbox WHERE status <> 'completed'";
}

/* ---------------- worker (provisional) ---------------- */

static volatile sig_atomic_t stop_requested;
static void on_term(int sig) {
    (void)sig;
    stop_requested = 1;
}

typedef struct wstate {
    PGconn *c;
    char id[RBB_WORKER_ID_BYTES];
    const rbb_worker_spec *s;
    char *owned; /* "{1,2,...}" int[] literal of owned buckets */
    uint64_t next_hb_ns;
} wstate;

static int w_exec(wstate *w, const char *sql, int n, const char *const *v, PGresult **out) {
    PGresult *r = PQexecParams(w->c, sql, n, NULL, v, NULL, NULL, 0);
    ExecStatusType st = PQresultStatus(r);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        fprintf(stderr, "pg bench worker %s: %s", w->id, PQerrorMessage(w->c));
        PQclear(r);
        return -1;
    }
    if (out)
        *out = r;
    else
        PQclear(r);
    return 0;
}

static int w_refresh_owned(wstate *w) {
    PGresult *r;
    char ttl[32];
    snprintf(ttl, sizeof ttl, "%u milliseconds", w->s->ttl_ms);
    const char *v[1] = {ttl};
    if (w_exec(w, "SELECT id FROM workers WHERE status = 'alive' AND last_seen_at > now() - "
                  "$1::interval ORDER BY id",
               1, v, &r))
        return -1;
    size_t n = (size_t)PQntuples(r);
    rb_member *m = calloc(n ? n : 1, sizeof *m);
    uint32_t self = UINT32_MAX;
    for (size_t i = 0; m && i < n; i++) {
        m[i].id = PQgetvalue(r, (int)i, 0);
        m[i].id_len = strlen(m[i].id);
        m[i].weight = 1;
        if (strcmp(m[i].id, w->id) == 0) self = (uint32_t)i;
    }
    rb_ring *ring = NULL;
    int rc = m && n && rbb_queue_ring(w->s->ring_algo, m, n, &ring) == 0 ? 0 : -1;
    free(w->owned);
    w->owned = NULL;
    if (!rc) {
        uint32_t B = rbb_queue_n_buckets();
        uint32_t *owners = malloc(B * sizeof *owners);
        uint32_t *mine = malloc(B * sizeof *mine);
        size_t k = 0;
        if (owners && mine) {
            rb_ring_fill_table(ring, owners);
            for (uint32_t b = 0; b < B; b++)
                if (owners[b] == self) mine[k++] = b;
            w->owned = bucket_array(mine, k);
        }
        free(owners);
        free(mine);
    }
    rb_ring_destroy(ring);
    free(m);
    PQclear(r);
    return w->owned ? 0 : -1;
}

static void w_tick(wstate *w) {
    uint64_t now = rbb_now_ns();
    if (now < w->next_hb_ns) return;
    w->next_hb_ns = now + (uint64_t)w->s->heartbeat_ms * 1000000ull;
    const char *v[1] = {w->id};
    w_exec(w, "UPDATE workers SET last_seen_at = now() WHERE id = $1 AND status = 'alive'", 1, v,
           NULL);
    char ttl[32];
    snprintf(ttl, sizeof ttl, "%u milliseconds", w->s->ttl_ms);
    const char *v2[1] = {ttl};
    PGresult *r;
    if (!w_exec(w, "SELECT pg_try_advisory_lock(4242)", 0, NULL, &r)) {
        int got = PQgetvalue(r, 0, 0)[0] == 't';
        PQclear(r);
        if (got) {
            w_exec(w, "UPDATE workers SET status = 'dead' WHERE status = 'alive' AND "
                      "last_seen_at < now() - $1::interval",
                   1, v2, NULL);
            w_exec(w, "UPDATE inbox SET status = 'pending', claimed_by = NULL, lease_expires_at "
                      "= NULL WHERE status = 'claimed' AND lease_expires_at < now()",
                   0, NULL, NULL);
            w_exec(w, "SELECT pg_advisory_unlock(4242)", 0, NULL, NULL);
        }
    }
    if (w->s->mode != RBB_MODE_COMPETING) w_refresh_owned(w);
}

static const char *claim_sql[RBB_N_MODES] = {
    "WITH c AS MATERIALIZED (SELECT id FROM inbox WHERE status = 'pending' AND run_at <= now() "
    "ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED) UPDATE inbox i SET status = 'claimed', "
    "claimed_by = $1, lease_expires_at = now() + $3::interval, lease_generation = "
    "lease_generation + 1, attempts = attempts + 1 FROM c WHERE i.id = c.id RETURNING i.id, "
    "i.lease_generation",
    "WITH c AS MATERIALIZED (SELECT id FROM inbox WHERE status = 'pending' AND run_at <= now() "
    "AND partition_bucket = ANY($4::int[]) ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED) UPDATE "
    "inbox i SET status = 'claimed', claimed_by = $1, lease_expires_at = now() + $3::interval, "
    "lease_generation = lease_generation + 1, attempts = attempts + 1 FROM c WHERE i.id = c.id "
    "RETURNING i.id, i.lease_generation",
    "WITH c AS MATERIALIZED (SELECT id FROM inbox o WHERE status = 'pending' AND run_at <= now() "
    "AND partition_bucket = ANY($4::int[]) AND NOT EXISTS (SELECT 1 FROM inbox p WHERE "
    "p.partition_key = o.partition_key AND p.id < o.id AND p.status <> 'completed') ORDER BY id "
    "LIMIT $2 FOR UPDATE SKIP LOCKED) UPDATE inbox i SET status = 'claimed', claimed_by = $1, "
    "lease_expires_at = now() + $3::interval, lease_generation = lease_generation + 1, attempts "
    "= attempts + 1 FROM c WHERE i.id = c.id RETURNING i.id, i.lease_generation",
};

void rbb_worker_body(void *arg, int go_fd, int report_fd) {
    const rbb_worker_spec *s = arg;
    wstate w;
    memset(&w, 0, sizeof w);
    w.s = s;
    signal(SIGTERM, on_term);
    snprintf(w.id, sizeof w.id, "bench-%d-%llu", (int)getpid(),
             (unsigned long long)(rbb_now_ns() % 1000000007ull));
    char err[512];
    w.c = rbb_db_connect(s->conninfo, NULL, err, sizeof err);
    if (!w.c) {
        fprintf(stderr, "pg bench worker: %s\n", err);
        _exit(1);
    }
    const char *v[1] = {w.id};
    if (w_exec(&w, "INSERT INTO workers (id) VALUES ($1)", 1, v, NULL)) _exit(1);
    rbb_report_head h;
    memset(&h, 0, sizeof h);
    h.magic = RBB_REPORT_MAGIC;
    h.kind = RBB_REPORT_READY;
    memcpy(h.worker_id, w.id, sizeof w.id);
    if (rbb_report_send(report_fd, &h, NULL)) _exit(1);
    if (go_fd >= 0) {
        char ch;
        while (read(go_fd, &ch, 1) < 0 && errno == EINTR) {
        }
        close(go_fd);
    }
    rbb_sample *samples = calloc(s->max_samples ? s->max_samples : 1, sizeof *samples);
    h.kind = RBB_REPORT_FINAL;
    h.t_go_ns = rbb_now_ns();
    uint64_t deadline = s->run_s > 0 ? h.t_go_ns + (uint64_t)(s->run_s * 1e9) : UINT64_MAX;
    char batch[16], lease[32];
    snprintf(batch, sizeof batch, "%u", s->batch);
    snprintf(lease, sizeof lease, "%u milliseconds", s->lease_ms);
    while (!stop_requested && rbb_now_ns() < deadline) {
        w_tick(&w);
        const char *cv[4] = {w.id, batch, lease, w.owned ? w.owned : "{}"};
        uint64_t t0 = rbb_now_ns();
        PGresult *r;
        if (w_exec(&w, claim_sql[s->mode], s->mode == RBB_MODE_COMPETING ? 3 : 4, cv, &r)) {
            h.n_errors++;
            rbb_sleep_us(10000);
            continue;
        }
        uint64_t t1 = rbb_now_ns();
        h.n_claims++;
        int n = PQntuples(r);
        if (n == 0) {
            h.n_empty_claims++;
            PQclear(r);
            rbb_sleep_us(1000);
            continue;
        }
        if ((uint32_t)n < s->batch) h.n_short_claims++;
        if (s->handler_us) rbb_sleep_us(s->handler_us * (uint64_t)n);
        /* complete the batch: one transaction, each row fenced on (id,
         * lease_generation), the effect row in the same transaction */
        w_exec(&w, "BEGIN", 0, NULL, NULL);
        uint64_t done = 0;
        for (int i = 0; i < n; i++) {
            const char *fv[3] = {PQgetvalue(r, i, 0), PQgetvalue(r, i, 1), w.id};
            PGresult *u;
            if (w_exec(&w, "WITH d AS (UPDATE inbox SET status = 'completed', completed_at = "
                           "now(), lease_expires_at = NULL WHERE id = $1 AND lease_generation = "
                           "$2 AND status = 'claimed' RETURNING id) INSERT INTO bench_effects "
                           "(inbox_id, worker_id) SELECT id, $3 FROM d RETURNING inbox_id",
                       3, fv, &u)) {
                h.n_errors++;
                break;
            }
            if (PQntuples(u) == 1)
                done++;
            else
                h.n_fenced++;
            PQclear(u);
        }
        PQclear(r);
        if (w_exec(&w, "COMMIT", 0, NULL, NULL)) {
            h.n_errors++;
            continue;
        }
        uint64_t t2 = rbb_now_ns();
        h.n_rows += done;
        h.n_complete_tx++;
        if (h.n_samples < s->max_samples) {
            samples[h.n_samples].claim_ns = (uint32_t)(t1 - t0 > UINT32_MAX ? UINT32_MAX : t1 - t0);
            samples[h.n_samples].complete_ns = (uint32_t)(t2 - t1 > UINT32_MAX ? UINT32_MAX : t2 - t1);
            h.n_samples++;
        }
    }
    h.t_end_ns = rbb_now_ns();
    w_exec(&w, "UPDATE workers SET status = 'stopped' WHERE id = $1", 1, v, NULL);
    PQfinish(w.c);
    int rc = rbb_report_send(report_fd, &h, samples);
    free(samples);
    _exit(rc ? 1 : 0);
}
