/*
 * queue.c — the claim protocol over libpq (queue.h). Every statement is one
 * single-statement transaction sent with PQexecParams through exec_retry(),
 * which reconnects with backoff when the connection is gone.
 */
#include "queue.h"

#include <ctype.h>
#include <errno.h>
#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "conninfo_redact.h"
#include "pg_connect.h"
#include "ringbench/common.h"
#include "ringbench/error.h"

#include "queue_sql.h"

/* claim_text: one per mode (rb_claim_mode), then ordered mode with the skip policy, then
 * ordered mode's window over every bucket (claim_window.sql) with either policy, then
 * affinity's claim with the age scan (claim_aged.sql) */
#define CLAIM_TEXT_ORDERED_SKIP (RB_CLAIM_ORDERED + 1)
#define CLAIM_TEXT_WINDOW (CLAIM_TEXT_ORDERED_SKIP + 1)
#define CLAIM_TEXT_AGED (CLAIM_TEXT_WINDOW + 2)
#define N_CLAIM_TEXTS (CLAIM_TEXT_AGED + 1)

/* The session's named prepared statements (run_statement): the claim of its mode, and, for a
 * worker that owns every bucket, the competing claim (affinity) or the window (ordered:
 * rb_queue_claim, owns_every_bucket), affinity's claim with the age scan (age_scan_plan); the
 * completions of one row and of a batch (rb_queue_complete, rb_queue_complete_batch and the
 * chained transaction). */
typedef enum {
    STMT_NONE = -1,
    STMT_CLAIM,
    STMT_CLAIM_ALL,
    STMT_CLAIM_AGED,
    STMT_COMPLETE,
    STMT_COMPLETE_BATCH,
    N_STMTS
} stmt_id;
static const char *const stmt_names[N_STMTS] = {"rb_claim", "rb_claim_all", "rb_claim_aged",
                                                "rb_complete", "rb_complete_batch"};

struct rb_queue {
    rb_queue_config cfg;
    char *conninfo, *schema, *planner_off;
    char worker_id[RB_QUEUE_WORKER_ID_MAX];
    int64_t incarnation;
    char incarnation_param[24];
    PGconn *conn;
    int registered;
    uint64_t n_reconnects; /* reconnects after a lost connection */
    int migrated;          /* queue_config exists */
    int schema_version;    /* highest applied migration (schema_migrations); 0 = none */
    /* membership */
    char **live; /* sorted live ids */
    size_t n_live;
    uint32_t *owned; /* owned buckets */
    size_t n_owned;
    size_t claim_pos; /* affinity claims start at owned[claim_pos] (buckets take turns) */
    /* affinity's age scan (age_scan_plan): where the next one starts, (run_at in us since
     * 1970, id) of the newest row the last claim took for its age or where its read ended
     * (age_scan_next; age_from_set 0: none), and
     * when the next scan from the head is due (rb_now_ms) */
    int64_t age_from_us, age_from_id;
    int age_from_set;
    uint64_t age_head_due_ms;
    /* the competing claim: when its next read from the head is due (rb_now_ms;
     * competing_head_plan) */
    uint64_t competing_head_due_ms;
    uint64_t conn_serial; /* +1 per connection made: prepared statements are per session */
    /* rb_now_ms of the first failed connect of this worker's sessions since the last good one (0:
     * none): down_since points at down_since_own, or a companion's at its owner's, so a worker's
     * sessions share one reconnect window (rb_queue_open_companion) */
    _Atomic uint64_t down_since_own, *down_since;
    uint64_t prepared_on[N_STMTS]; /* conn_serial each named statement was prepared on (0: none) */
    char *owned_param;             /* "{1,5,...}": the view published (publish_view.sql) */
    char *claim_text[N_CLAIM_TEXTS]; /* claim statements, assembled on first use (claim_sql_of) */
    int generic_plans; /* a worker's session (registered, or its companion): generic plans only */
    /* whether a stoppable statement is on the wire (exec_stoppable), a cancel was asked for it
     * (rb_queue_cancel, from a signal handler), and one was sent (await_result) */
    volatile sig_atomic_t stoppable_running, cancel_asked, cancel_sent;
    int given_up; /* after a stop, the server did not answer within the grace: closed for good */
};

static const char *const planner_names[] = {"hashjoin",  "mergejoin",  "nestloop", "seqscan",
                                            "indexscan", "bitmapscan", "sort"};
#define N_PLANNER_NAMES (sizeof planner_names / sizeof planner_names[0])

const char *rb_queue_sql(const char *name) {
    for (size_t i = 0; i < rb_queue_sql_n_statements; i++)
        if (strcmp(rb_queue_sql_statements[i].name, name) == 0)
            return rb_queue_sql_statements[i].sql;
    fprintf(stderr, "ringbench: queue/sql/%s.sql is not compiled in\n", name);
    abort();
}

/* The version of the newest migration compiled in. */
static int latest_version(void) {
    return rb_queue_sql_n_migrations
               ? rb_queue_sql_migrations[rb_queue_sql_n_migrations - 1].version
               : 0;
}

const char *rb_claim_mode_name(rb_claim_mode m) {
    switch (m) {
    case RB_CLAIM_COMPETING:
        return "competing";
    case RB_CLAIM_AFFINITY:
        return "affinity";
    case RB_CLAIM_ORDERED:
        return "ordered";
    }
    return NULL;
}

int rb_claim_mode_parse(const char *name, rb_claim_mode *out) {
    for (int m = RB_CLAIM_COMPETING; m <= RB_CLAIM_ORDERED; m++)
        if (strcmp(name, rb_claim_mode_name((rb_claim_mode)m)) == 0) {
            *out = (rb_claim_mode)m;
            return 0;
        }
    return rb_set_error(RB_EUNKNOWN, "unknown claim mode '%s' (competing, affinity, ordered)",
                        name);
}

void rb_queue_config_init(rb_queue_config *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cfg->schema = "ringbench";
    cfg->mode = RB_CLAIM_COMPETING;
    cfg->batch = 16;
    cfg->lease_ms = 30000;
    cfg->heartbeat_ms = 1000;
    cfg->ttl_ms = 3000;
    cfg->max_attempts = 5;
    cfg->retry_ms = 10000;
    cfg->backoff_base_ms = 500;
    cfg->backoff_cap_ms = 60000;
    cfg->age_bound_ms = 30000;
    rb_config_init(&cfg->ring);
}

/* Is `list` a comma-separated list of distinct planner_names? 0, or RB_EINVAL with a detail
 * naming the item (from 1): empty, unknown or listed twice. */
static int planner_list_check(const char *list) {
    const char *p = list;
    unsigned seen = 0;
    for (size_t item = 1;; item++) {
        size_t len = strcspn(p, ","), k;
        for (k = 0; k < N_PLANNER_NAMES; k++)
            if (strlen(planner_names[k]) == len && strncmp(p, planner_names[k], len) == 0) break;
        if (len == 0)
            return rb_set_error(RB_EINVAL, "planner switches '%s': item %zu is empty", list, item);
        if (k == N_PLANNER_NAMES)
            return rb_set_error(RB_EINVAL,
                                "unknown planner switch '%.*s' (hashjoin, mergejoin, nestloop, "
                                "seqscan, indexscan, bitmapscan, sort)",
                                (int)len, p);
        if (seen & (1u << k))
            return rb_set_error(RB_EINVAL, "planner switches '%s': '%s' is listed twice", list,
                                planner_names[k]);
        seen |= 1u << k;
        p += len;
        if (*p != ',') return 0;
        p++;
    }
}

int rb_queue_config_validate(const rb_queue_config *c) {
    if (c->batch < 1 || c->batch > RB_QUEUE_MAX_BATCH)
        return rb_set_error(RB_EINVAL, "batch must be >= 1 and <= %u, got %u", RB_QUEUE_MAX_BATCH,
                            c->batch);
    if (c->lease_ms < 1) return rb_set_error(RB_EINVAL, "lease must be > 0 ms");
    if (c->ttl_ms < 1) return rb_set_error(RB_EINVAL, "TTL must be > 0 ms");
    if (c->heartbeat_ms < 1) return rb_set_error(RB_EINVAL, "heartbeat interval must be > 0 ms");
    if ((uint64_t)c->heartbeat_ms * 3 > c->ttl_ms)
        return rb_set_error(RB_EINVAL,
                            "heartbeat interval %u ms must be <= TTL/3 (TTL %u ms): a worker "
                            "would be declared dead after missing fewer than 3 heartbeats",
                            c->heartbeat_ms, c->ttl_ms);
    if (c->max_attempts < 1) return rb_set_error(RB_EINVAL, "max attempts must be >= 1");
    if (c->backoff_base_ms < 1 || c->backoff_cap_ms < c->backoff_base_ms)
        return rb_set_error(
            RB_EINVAL, "backoff base must be >= 1 ms and cap >= base, got base %u ms, cap %u ms",
            c->backoff_base_ms, c->backoff_cap_ms);
    if (c->age_bound_ms > RB_QUEUE_AGE_BOUND_MAX_MS)
        return rb_set_error(RB_EINVAL, "age bound must be <= %u ms (0 = none), got %u",
                            RB_QUEUE_AGE_BOUND_MAX_MS, c->age_bound_ms);
    if (c->worker_id && (!*c->worker_id || strlen(c->worker_id) >= RB_QUEUE_WORKER_ID_MAX))
        return rb_set_error(RB_EINVAL,
                            "worker id must be 1 to %d bytes, got %zu (an id cut short could "
                            "collide with another worker's)",
                            RB_QUEUE_WORKER_ID_MAX - 1, strlen(c->worker_id));
    /* A malformed conninfo is bad input, not an unreachable server; not echoed: what cannot
     * be parsed cannot be split into keywords and secrets. */
    char bad[320];
    if (rb_conninfo_check(c->conninfo, bad, sizeof bad)) return rb_set_error(RB_EINVAL, "%s", bad);
    if (!rb_claim_mode_name(c->mode))
        return rb_set_error(RB_EINVAL, "bad claim mode %d", (int)c->mode);
    const char *s = c->schema ? c->schema : "";
    size_t n = strlen(s);
    int ok = n >= 1 && n <= 63 && (islower((unsigned char)s[0]) || s[0] == '_');
    for (size_t i = 0; ok && i < n; i++)
        ok = islower((unsigned char)s[i]) || isdigit((unsigned char)s[i]) || s[i] == '_';
    if (!ok)
        return rb_set_error(RB_EINVAL, "schema must match [a-z_][a-z0-9_]* (<= 63 bytes), got '%s'",
                            s);
    if (c->planner_off) {
        int rc = planner_list_check(c->planner_off);
        if (rc) return rc;
    }
    if (c->ring.n_buckets < 1 || c->ring.n_vnodes < 1 || !c->ring.ring_hash || !c->ring.bucket_hash)
        return rb_set_error(RB_EINVAL, "ring configuration incomplete");
    return 0;
}

/* ---- connection and retries ---- */

static void sleep_ms(uint32_t ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) && errno == EINTR) {
    }
}

/* The caller's stop flag is set (rb_queue_config.interrupt): retry no more. */
static int interrupted(const rb_queue *q) { return q->cfg.interrupt && *q->cfg.interrupt; }

static void notice_quiet(void *arg, const PGresult *res) {
    (void)arg;
    (void)res;
}

/* Run a command that returns no rows; 0 or RB_EDB. */
static int exec_simple(PGconn *conn, const char *sql) {
    PGresult *r = PQexec(conn, sql);
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
    if (!ok) rb_set_error(RB_EDB, "%s", PQresultErrorMessage(r));
    PQclear(r);
    return ok ? 0 : RB_EDB;
}

/* The planner switch every ordered claim runs under. The run of claim_run.sql reads a key's
 * rows from its head through inbox_blocking_key (partition_key, id) in id order and stops at
 * the batch; with $2 known (a custom plan: the first 5 executions of a prepared statement in
 * a session, every PQexecParams) and a few rows per key on average in the statistics, the
 * planner prefers a bitmap heap scan of all the key's rows from the head and a sort, which
 * for a hot key reads every one of its pending rows (1,799 rows, 20 ms for one claim in `pg
 * bench`; bench/pg/README.md, "Where ordered mode's time goes"). With bitmap scans off the
 * run is the ordered index scan under every plan: O(batch). */
#define ORDERED_PLANNER_OFF "enable_bitmapscan = off"
static const char ordered_planner_off[] = "SET " ORDERED_PLANNER_OFF;
static const char ordered_planner_off_local[] = "SET LOCAL " ORDERED_PLANNER_OFF;

/* A worker's session (from its registration on) runs its prepared statements under their
 * generic plans, never a custom one (issue 11, target 3). Left to choose, the server planned the
 * claims afresh on every call over a 1 M-row backlog, where their custom plans looked cheaper
 * (pg_stat_statements, `pg bench --backlog`, 2 workers at batch 8): ordered 0.73 ms of planning +
 * 0.62 ms of execution per claim, claim p50 2,155 µs at 1 M against 1,222 at 10 k (generic only: 0
 * plans, p50 1,367 µs); affinity 0.33 ms of planning per claim; competing 0.14 ms on every call at
 * any backlog. Every claim's generic plan is O(batch) by construction, whatever the statistics: the
 * walk and the competing scan stop at their LIMITs, the lease probes the primary key
 * (claim_lease.sql: joined to picked, a generic plan took 10% of the pending rows for picked
 * and hashed all of inbox; a published run's competing cells fell to 367 rows/s at W 1 batch
 * 1 with it, bench/pg/README.md, claim query 7); the batch statements probe the primary key
 * per row (complete_batch.sql, extend_batch.sql); the other statements a worker sends take
 * ids, keys and values that no plan depends on. Not the command sessions (`pg retry`, `pg
 * status`...): redrive.sql's `$2 OR id = ANY($1)` has no generic plan that probes the ids.
 * Tests: pg_14_generic_plans, pg_15_claim_plans.
 * And without JIT compilation: a generic plan's LIMIT $2 is unknown, so the planner costs the
 * claim over a tenth of the queue, and past jit_above_cost (100,000 by default: ordered mode's
 * window, claim_window.sql, over 135,000 pending rows) the server compiled the plan on every
 * execution, about 20 ms for a claim that runs in 0.4 ms (auto_explain: "JIT: Functions: 56
 * ... Emission 18.879 ms"; a W 1 ordered cell fell to 1,355 rows/s). No statement a worker
 * sends reads enough rows to gain from it. Test: pg_14_generic_plans (no JIT-compiled function). */
#define WORKER_PLANS "plan_cache_mode = force_generic_plan"
#define WORKER_NO_JIT "jit = off"
/* And no sequential scan where an index reaches the rows: every statement a worker sends
 * reaches its rows by key (ids, buckets, keys, the worker's id), never by reading a table
 * through. inbox_leases holds a few live rows (W x batch) among thousands of dead ones between
 * vacuums, so its statistics say "tiny" and the generic plan of the completions' lease delete
 * (parts/complete_move.sql, `DELETE ... USING done`) was a nested loop that read the whole
 * table once per row done: 8 x 356 pages a batch in the soak, whose claim + completion work
 * grew from 91 to 130-191 buffers a row as the table's pages did (bench/pg/README.md, "What
 * moves the soak's rate"). A table with no usable index is still read through. Test:
 * pg_21_lease_probes. */
#define WORKER_NO_SEQSCAN "enable_seqscan = off"
static const char session_generic_plans[] =
    "SET " WORKER_PLANS "; SET " WORKER_NO_JIT "; SET " WORKER_NO_SEQSCAN;
static const char session_generic_plans_local[] =
    "SET LOCAL " WORKER_PLANS "; SET LOCAL " WORKER_NO_JIT "; SET LOCAL " WORKER_NO_SEQSCAN;

/* Connect once and prepare the session: search_path, planner switches (the user's, and an
 * ordered session's, ordered_planner_off). */
static int connect_once(rb_queue *q) {
    if (q->conn) PQfinish(q->conn);
    const char *kw[] = {"dbname", NULL}, *val[] = {q->conninfo, NULL};
    char why[64];
    q->conn = rb_pg_connect(kw, val, q->cfg.interrupt, why, sizeof why);
    if (!q->conn || PQstatus(q->conn) != CONNECTION_OK) {
        char msg[512];
        rb_conninfo_redact_message(q->conninfo, q->conn ? PQerrorMessage(q->conn) : why, msg,
                                   sizeof msg);
        msg[strcspn(msg, "\n")] = 0;
        char shown[160];
        return rb_set_error(RB_EDB, "cannot connect to PostgreSQL (%s): %s",
                            q->conninfo[0] ? rb_conninfo_redact(q->conninfo, shown, sizeof shown)
                                           : "libpq defaults / PG* variables",
                            msg);
    }
    PQsetNoticeReceiver(q->conn, notice_quiet, NULL);
    char sql[512];
    snprintf(sql, sizeof sql, "SET search_path TO \"%s\"; SET application_name TO 'ringbench'",
             q->schema);
    int rc = exec_simple(q->conn, sql);
    const char *p = q->planner_off;
    while (!rc && p && *p) {
        size_t len = strcspn(p, ",");
        snprintf(sql, sizeof sql, "SET enable_%.*s = off", (int)len, p);
        rc = exec_simple(q->conn, sql);
        p += len;
        if (*p == ',') p++;
    }
    if (!rc && q->cfg.mode == RB_CLAIM_ORDERED) rc = exec_simple(q->conn, ordered_planner_off);
    if (!rc && q->generic_plans) rc = exec_simple(q->conn, session_generic_plans);
    return rc;
}

/* From here on the session is a worker's: generic plans only, on this connection and every
 * reconnect (connect_once). A failure here is a lost connection, which the reconnect mends. */
static void worker_session(rb_queue *q) {
    q->generic_plans = 1;
    exec_simple(q->conn, session_generic_plans);
}

/* Reconnect with exponential backoff until the server has been unreachable for cfg.retry_ms,
 * counted from the first failed connect of any of the worker's sessions since the last good
 * one: a later call while it stays unreachable (a worker that gave up, then tries to leave; its
 * companion, failing only then) makes one attempt, not another retry_ms (a worker took twice
 * --retry-ms to stop; fresh user, helper-71, and the sanitizer build through the companion). */
static int reconnect(rb_queue *q) {
    uint64_t since = 0, now = rb_now_ms();
    if (atomic_compare_exchange_strong(q->down_since, &since, now)) since = now;
    uint64_t deadline = since + q->cfg.retry_ms;
    uint32_t backoff_ms = 10;
    int rc;
    for (;;) {
        if ((rc = connect_once(q)) == 0) return atomic_store(q->down_since, 0), q->conn_serial++, 0;
        if (interrupted(q)) {
            char why[1024];
            snprintf(why, sizeof why, "%s", rb_error_detail());
            return rb_set_error(rc, "%s; gave up: interrupted", why);
        }
        if (rb_now_ms() + backoff_ms > deadline) return rc;
        sleep_ms(backoff_ms);
        backoff_ms = backoff_ms * 2 > 1000 ? 1000 : backoff_ms * 2;
    }
}

/* How a failed statement is handled. */
enum { ERR_FATAL, ERR_RETRY, ERR_RECONNECT };

/* Classify a failed statement by its SQLSTATE (queue.h, "Transient errors"). */
static int classify(const rb_queue *q, const PGresult *r) {
    if (PQstatus(q->conn) != CONNECTION_OK) return ERR_RECONNECT;
    const char *st = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    if (!st) return ERR_RECONNECT; /* no server reply: the connection broke */
    /* 08xxx connection exceptions; 57P01-57P03 admin/crash shutdown, cannot
     * connect now; 25006 read-only transaction: this session points at a server
     * that cannot take writes now (failover): a new session may find one. */
    if (strncmp(st, "08", 2) == 0 || strcmp(st, "57P01") == 0 || strcmp(st, "57P02") == 0 ||
        strcmp(st, "57P03") == 0 || strcmp(st, "25006") == 0)
        return ERR_RECONNECT;
    static const char *const retry[] = {"40001", "40P01", "55P03", "57014", "53300"};
    for (size_t k = 0; k < sizeof retry / sizeof retry[0]; k++)
        if (strcmp(st, retry[k]) == 0) return ERR_RETRY;
    return ERR_FATAL;
}

/* A random value in [0, 1) for backoff jitter: the project's splitmix64
 * (ringbench/common.h), one stream per thread seeded from the clock and pid. */
static double jitter_unit(void) {
    static _Thread_local uint64_t state;
    if (!state) {
        uint64_t t = rb_now_ns();
        state = t ^ ((uint64_t)getpid() << 32) ^ (uintptr_t)&t;
    }
    return rb_unit_double(&state);
}

/*
 * exec_retry — PQexecParams(sql, params) expecting `want` (COMMAND_OK or
 * TUPLES_OK). A transient failure (classify) is retried with exponential
 * backoff (10 ms doubling to 1 s, equal jitter), reconnecting first when the
 * session is unusable, until retry_ms has passed since the first failure.
 * *reconnected (may be NULL) is set when a reconnect happened (the statement
 * may have committed before the drop). Returns the result (caller PQclears) or
 * NULL with RB_EDB set (one line: the server's message and SQLSTATE).
 */
static PGresult *exec_retry_named(rb_queue *q, stmt_id stmt, const char *sql, int n_params,
                                  const char *const *params, ExecStatusType want, int *reconnected);
static PGresult *exec_retry(rb_queue *q, const char *sql, int n_params, const char *const *params,
                            ExecStatusType want, int *reconnected) {
    return exec_retry_named(q, STMT_NONE, sql, n_params, params, want, reconnected);
}

/* A cancel request from a thread of its own: PQcancel waits for the server to close the cancel
 * connection, which a server that accepts and never answers (a frozen proxy) does not: called
 * from the stop handler, it held the process there past SIGTERM (fresh user, helper-72). The
 * thread owns its handle; a process that exits first takes it along. */
static void *cancel_main(void *arg) {
    char err[256];
    PQcancel(arg, err, sizeof err);
    PQfreeCancel(arg);
    return NULL;
}

static void cancel_async(PGconn *conn) {
    PGcancel *c = PQgetCancel(conn);
    pthread_attr_t a;
    pthread_t t;
    if (!c) return;
    if (pthread_attr_init(&a)) {
        PQfreeCancel(c);
        return;
    }
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &a, cancel_main, c)) PQfreeCancel(c);
    pthread_attr_destroy(&a);
}

/* How long a statement may go unanswered after a stop: max(retry_ms, 3 s). */
static uint64_t stop_grace_ms(const rb_queue *q) {
    return q->cfg.retry_ms > 3000 ? q->cfg.retry_ms : 3000;
}

/* NULL with the error of a session given up after a stop (await_result). */
static PGresult *session_given_up(const rb_queue *q) {
    rb_set_error(RB_EDB, "no answer from the server %llu ms after the stop: session closed",
                 (unsigned long long)stop_grace_ms(q));
    return NULL;
}

/*
 * await_result — PQexec's wait for the statement just sent on q->conn, in 100 ms polls that
 * watch the stop: a stoppable statement (exec_stoppable) gets its cancel (cancel_async) once
 * the stop flag or rb_queue_cancel asks; after a stop, a server that has not answered within
 * max(retry_ms, 3 s) is given up: the session is closed for good (no reconnect: it would wait
 * on the same server) and NULL returned (RB_EDB), where libpq's wait held the worker until the
 * server answered (a frozen server: never). As PQexec: the last result, an error kept over
 * later ones.
 */
static PGresult *await_result(rb_queue *q) {
    PGconn *c = q->conn;
    PGresult *last = NULL, *r;
    uint64_t give_up = 0;
    for (;;) {
        while (PQisBusy(c)) {
            if ((interrupted(q) || q->cancel_asked) && q->stoppable_running && !q->cancel_sent)
                q->cancel_sent = 1, cancel_async(c);
            if (!give_up && interrupted(q)) give_up = rb_now_ms() + stop_grace_ms(q);
            if (give_up && rb_now_ms() >= give_up) {
                PQclear(last);
                PQfinish(c);
                q->conn = NULL;
                q->given_up = 1;
                return session_given_up(q);
            }
            struct pollfd p = {.fd = PQsocket(c), .events = POLLIN};
            if (poll(&p, 1, 100) < 0 && errno != EINTR) break;
            if (!PQconsumeInput(c)) break; /* the connection broke: PQgetResult says so */
        }
        if (!(r = PQgetResult(c))) return last;
        if (last && PQresultStatus(last) == PGRES_FATAL_ERROR) {
            PQclear(r);
        } else {
            PQclear(last);
            last = r;
        }
    }
}

/* The result of a statement PQsend* (its return value `ok`) put on the wire: await_result, or
 * libpq's error as a result when it could not be sent. */
static PGresult *sent(rb_queue *q, int ok) {
    return ok ? await_result(q) : PQmakeEmptyPGresult(q->conn, PGRES_FATAL_ERROR);
}

/*
 * run_statement — one execution of sql: unnamed (STMT_NONE; PQexecParams: planned for
 * these values, every time) or the session's prepared statement stmt (stmt_names;
 * prepared on first use in each session; the server keeps its plan and, after a few
 * executions, a generic one that costs no planning). The statements a worker sends once
 * per claim or per row are prepared (stmt_names): the claim, whose owned-bucket array of
 * hundreds of elements used to cost more to plan than to run, and the completions, whose
 * planning (about 0.2 ms on this machine, pg_stat_statements) was a sixth of a chained
 * row's time at batch 1 (queue/BENCH.md).
 */
static PGresult *run_statement(rb_queue *q, stmt_id stmt, const char *sql, int n_params,
                               const char *const *params) {
    if (stmt == STMT_NONE)
        return sent(q, PQsendQueryParams(q->conn, sql, n_params, NULL, params, NULL, NULL, 0));
    if (q->prepared_on[stmt] != q->conn_serial) {
        PGresult *p = sent(q, PQsendPrepare(q->conn, stmt_names[stmt], sql, n_params, NULL));
        if (PQresultStatus(p) != PGRES_COMMAND_OK) return p;
        PQclear(p);
        q->prepared_on[stmt] = q->conn_serial;
    }
    return sent(q, PQsendQueryPrepared(q->conn, stmt_names[stmt], n_params, params, NULL, NULL, 0));
}

/* Is r the server refusing a prepared statement whose result columns changed type since it
 * was prepared ("cached plan must not change result type", SQLSTATE 0A000, e.g. after ALTER
 * TABLE inbox ALTER COLUMN payload TYPE varchar)? Prepared again, it runs. */
static int stale_prepared(stmt_id stmt, const PGresult *r) {
    const char *st = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    return stmt != STMT_NONE && st && strcmp(st, "0A000") == 0;
}

/* Drop the session's prepared statement stmt, so that the next run prepares it again. */
static void forget_prepared(rb_queue *q, stmt_id stmt) {
    char sql[64];
    snprintf(sql, sizeof sql, "DEALLOCATE %s", stmt_names[stmt]);
    if (exec_simple(q->conn, sql) == 0) q->prepared_on[stmt] = 0;
}

static PGresult *exec_retry_named(rb_queue *q, stmt_id stmt, const char *sql, int n_params,
                                  const char *const *params, ExecStatusType want,
                                  int *reconnected) {
    if (reconnected) *reconnected = 0;
    uint64_t deadline = 0;
    uint32_t backoff_ms = 10;
    int reprepared = 0;
    for (;;) {
        if (q->given_up) return session_given_up(q);
        if (!q->conn || PQstatus(q->conn) != CONNECTION_OK) {
            if (reconnect(q)) return NULL;
            q->n_reconnects++;
            if (reconnected) *reconnected = 1;
        }
        PGresult *r = run_statement(q, stmt, sql, n_params, params);
        if (q->given_up) return session_given_up(q);
        if (PQresultStatus(r) == want) return r;
        if (!reprepared && stale_prepared(stmt, r)) { /* once: a second refusal is an error */
            PQclear(r);
            forget_prepared(q, stmt);
            reprepared = 1;
            continue;
        }
        int kind = classify(q, r);
        /* A stop's cancel (rb_queue_cancel) sent while a claim or housekeeping statement ended
         * may reach the server during the next statement (a completion, say) instead: the
         * server cancels whatever runs when it arrives. That one is run again, once. */
        const char *st = PQresultErrorField(r, PG_DIAG_SQLSTATE);
        if (q->cancel_sent && !q->stoppable_running && st && strcmp(st, "57014") == 0) {
            q->cancel_sent = 0;
            PQclear(r);
            continue;
        }
        if (!deadline) deadline = rb_now_ms() + q->cfg.retry_ms;
        int stop = interrupted(q);
        if (kind == ERR_FATAL || stop || rb_now_ms() >= deadline) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", PQresultErrorMessage(r));
            msg[strcspn(msg, "\n")] = 0;
            rb_set_error(RB_EDB, "%s%s%s%s%s", msg[0] ? msg : PQerrorMessage(q->conn),
                         st ? " (SQLSTATE " : "", st ? st : "", st ? ")" : "",
                         kind == ERR_FATAL ? ""
                         : stop            ? "; gave up: interrupted"
                                           : "; gave up after --retry-ms");
            PQclear(r);
            return NULL;
        }
        PQclear(r);
        if (kind == ERR_RECONNECT) {
            PQfinish(q->conn);
            q->conn = NULL;
        }
        uint32_t wait = (uint32_t)((double)backoff_ms * (0.5 + jitter_unit() / 2));
        uint64_t now = rb_now_ms();
        if (now + wait > deadline) wait = (uint32_t)(deadline - now);
        sleep_ms(wait);
        backoff_ms = backoff_ms * 2 > 1000 ? 1000 : backoff_ms * 2;
    }
}

/*
 * exec_stoppable — exec_retry_named for a statement a stop signal may cancel (rb_queue_cancel):
 * a claim, a housekeeping or membership statement, an enqueue, each one transaction that rolls
 * back whole, leaving nothing half done. NULL with *stopped = 1 when a stop cancelled it.
 */
static PGresult *exec_stoppable(rb_queue *q, stmt_id stmt, const char *sql, int n_params,
                                const char *const *params, ExecStatusType want, int *stopped) {
    q->cancel_sent = q->cancel_asked = 0;
    q->stoppable_running = 1;
    PGresult *r = exec_retry_named(q, stmt, sql, n_params, params, want, NULL);
    q->stoppable_running = 0;
    /* given up (no answer after the stop): an error, not a stop (the claim's fate unknown) */
    *stopped = !r && q->cancel_sent && interrupted(q) && !q->given_up;
    return r;
}

int rb_queue_cancel(rb_queue *q) {
    if (!q || !q->stoppable_running) return 0;
    q->cancel_asked = 1; /* await_result sends it, from a thread of its own */
    return 1;
}

/* exec_cmd — exec_retry for a statement whose result is not needed: 0 or RB_EDB. */
static int exec_cmd(rb_queue *q, const char *sql, int n_params, const char *const *params) {
    PGresult *r = exec_retry(q, sql, n_params, params, PGRES_COMMAND_OK, NULL);
    if (!r) return RB_EDB;
    PQclear(r);
    return 0;
}

static char *xstrdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

static void new_worker_id(rb_queue *q) {
    char host[128] = "host";
    gethostname(host, sizeof host - 1);
    host[sizeof host - 1] = 0;
    unsigned long long rnd = 0;
    FILE *f = fopen("/dev/urandom", "rb");
    if (!f || fread(&rnd, sizeof rnd, 1, f) != 1) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        rnd =
            rb_hash_fmix64((uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)getpid());
    }
    if (f) fclose(f);
    snprintf(q->worker_id, sizeof q->worker_id, "%s:%ld:%08llx", host, (long)getpid(),
             rnd & 0xffffffffULL);
}

/* Read queue_config into q->cfg and the schema version (when migrated). 0 also
 * when absent. A queue made before schema_migrations existed (main at 7f57670)
 * counts as version 1: its tables are migration 001. */
static int load_queue_config(rb_queue *q) {
    PGresult *t = exec_retry(q, rb_queue_sql("schema_state"), 0, NULL, PGRES_TUPLES_OK, NULL);
    if (!t) return RB_EDB;
    int absent = strcmp(PQgetvalue(t, 0, 0), "t") != 0;
    int legacy = strcmp(PQgetvalue(t, 0, 1), "t") != 0;
    PQclear(t);
    if (absent) return 0;
    q->migrated = 1;
    q->schema_version = 1;
    if (!legacy) {
        t = exec_retry(q, rb_queue_sql("schema_version"), 0, NULL, PGRES_TUPLES_OK, NULL);
        if (!t) return RB_EDB;
        q->schema_version = atoi(PQgetvalue(t, 0, 0));
        PQclear(t);
    }
    PGresult *r = exec_retry(q, rb_queue_sql("config_read"), 0, NULL, PGRES_TUPLES_OK, NULL);
    if (!r) return RB_EDB;
    int rc = 0;
    if (PQntuples(r) == 1) {
        rb_config *ring = &q->cfg.ring;
        ring->n_buckets = (uint32_t)strtoul(PQgetvalue(r, 0, 0), NULL, 10);
        ring->bucket_hash = rb_hash_by_name(PQgetvalue(r, 0, 1));
        ring->seed = strtoull(PQgetvalue(r, 0, 2), NULL, 10);
        if (!q->cfg.ring_override) {
            ring->ring_hash = rb_hash_by_name(PQgetvalue(r, 0, 3));
            q->cfg.algo = rb_algo_by_name(PQgetvalue(r, 0, 4));
            ring->n_vnodes = (uint32_t)strtoul(PQgetvalue(r, 0, 5), NULL, 10);
        } else if (!q->cfg.algo) {
            q->cfg.algo = rb_algo_by_name(PQgetvalue(r, 0, 4));
        }
        if (!ring->bucket_hash || !ring->ring_hash || !q->cfg.algo)
            rc = rb_set_error(RB_EINVAL, "queue_config names an unknown hash or algorithm");
    }
    PQclear(r);
    return rc;
}

int rb_queue_open(const rb_queue_config *cfg, rb_queue **out) {
    *out = NULL;
    int rc = rb_queue_config_validate(cfg);
    if (rc) return rc;
    rb_queue *q = calloc(1, sizeof *q);
    if (!q) return rb_set_error(RB_ENOMEM, "out of memory");
    q->cfg = *cfg;
    q->down_since = &q->down_since_own;
    q->conninfo = xstrdup(cfg->conninfo ? cfg->conninfo : "");
    q->schema = xstrdup(cfg->schema);
    q->planner_off = cfg->planner_off ? xstrdup(cfg->planner_off) : NULL;
    if (!q->conninfo || !q->schema || (cfg->planner_off && !q->planner_off)) {
        rb_queue_close(q);
        return rb_set_error(RB_ENOMEM, "out of memory");
    }
    q->cfg.conninfo = q->conninfo;
    q->cfg.schema = q->schema;
    q->cfg.planner_off = q->planner_off;
    if (cfg->worker_id)
        snprintf(q->worker_id, sizeof q->worker_id, "%s", cfg->worker_id);
    else
        new_worker_id(q);
    q->cfg.worker_id = q->worker_id;
    if ((rc = reconnect(q)) || (rc = load_queue_config(q))) {
        rb_queue_close(q);
        return rc;
    }
    if (!q->cfg.algo) q->cfg.algo = rb_algo_by_name("binary"); /* not migrated yet */
    *out = q;
    return 0;
}

static void free_membership(rb_queue *q) {
    for (size_t i = 0; i < q->n_live; i++)
        free(q->live[i]);
    free(q->live);
    free(q->owned);
    free(q->owned_param);
    q->live = NULL;
    q->owned = NULL;
    q->owned_param = NULL;
    q->n_live = q->n_owned = 0;
}

void rb_queue_abandon(rb_queue *q) {
    if (!q) return;
    q->registered = 0;
    if (q->conn) PQfinish(q->conn);
    q->conn = NULL;
}

void rb_queue_close(rb_queue *q) {
    if (!q) return;
    if (q->registered && q->conn) rb_queue_leave(q);
    if (q->conn) PQfinish(q->conn);
    free_membership(q);
    free(q->conninfo);
    free(q->schema);
    free(q->planner_off);
    for (size_t k = 0; k < N_CLAIM_TEXTS; k++)
        free(q->claim_text[k]);
    free(q);
}

const char *rb_queue_worker_id(const rb_queue *q) { return q->worker_id; }
int64_t rb_queue_incarnation(const rb_queue *q) { return q->incarnation; }
const rb_queue_config *rb_queue_config_of(const rb_queue *q) { return &q->cfg; }
int rb_queue_registered(const rb_queue *q) { return q->registered; }

int rb_queue_open_companion(rb_queue *q, rb_queue **out) {
    int rc = rb_queue_open(&q->cfg, out);
    if (rc) return rc;
    (*out)->down_since = q->down_since;
    (*out)->incarnation = q->incarnation;
    memcpy((*out)->incarnation_param, q->incarnation_param, sizeof q->incarnation_param);
    worker_session(*out);
    return 0;
}
uint64_t rb_queue_n_reconnects(const rb_queue *q) { return q->n_reconnects; }
const rb_config *rb_queue_ring_config(const rb_queue *q) { return &q->cfg.ring; }

/* ---- migrate ---- */

/* Run `sql` inside the open migration transaction; on error the caller rolls back. */
static PGresult *tx_exec(rb_queue *q, const char *sql, int n, const char *const *params,
                         ExecStatusType want) {
    PGresult *r = PQexecParams(q->conn, sql, n, NULL, params, NULL, NULL, 0);
    if (PQresultStatus(r) == want) return r;
    char msg[512];
    snprintf(msg, sizeof msg, "%s", PQresultErrorMessage(r));
    msg[strcspn(msg, "\n")] = 0;
    rb_set_error(RB_EDB, "migrate: %s", msg[0] ? msg : PQerrorMessage(q->conn));
    PQclear(r);
    return NULL;
}

/* tmpl with every `mark` replaced by `text` (malloc'd, NULL when out of memory). */
static char *substitute(const char *tmpl, const char *mark, const char *text) {
    size_t n_marks = 0, ml = strlen(mark), tl = strlen(text);
    for (const char *p = strstr(tmpl, mark); p; p = strstr(p + ml, mark))
        n_marks++;
    char *out = malloc(strlen(tmpl) - n_marks * ml + n_marks * tl + 1), *o = out;
    if (!out) return NULL;
    for (const char *p = tmpl;;) {
        const char *at = strstr(p, mark);
        if (!at) {
            strcpy(o, p);
            break;
        }
        memcpy(o, p, (size_t)(at - p));
        o += at - p;
        memcpy(o, text, tl);
        o += tl;
        p = at + ml;
    }
    return out;
}

/* Migration text with @N_BUCKETS@ replaced by B (malloc'd, NULL when out of memory). */
static char *substitute_buckets(const char *tmpl, uint32_t B) {
    char b[16];
    snprintf(b, sizeof b, "%u", B);
    return substitute(tmpl, "@N_BUCKETS@", b);
}

/* Compare the recorded queue_config with what was asked (in the transaction). */
static int check_recorded(rb_queue *q, const char *const want[6]) {
    PGresult *r = tx_exec(q, rb_queue_sql("config_read"), 0, NULL, PGRES_TUPLES_OK);
    if (!r) return RB_EDB;
    int rc = 0;
    /* Everything recorded must match: B, bucket hash and seed place the stored rows;
     * the ring is every worker's default, and a run that asked for another one and
     * printed "ready" would leave the workers on the old one without a word. */
    for (int k = 0; k < 6 && !rc && PQntuples(r) == 1; k++)
        if (strcmp(PQgetvalue(r, 0, k), want[k]))
            rc = rb_set_error(
                RB_EINVAL,
                "schema '%s' was migrated with buckets=%s bucket-hash=%s seed=%s hash=%s algo=%s "
                "vnodes=%s; asked for buckets=%s bucket-hash=%s seed=%s hash=%s algo=%s vnodes=%s "
                "(these are fixed once recorded: use another --schema)",
                q->schema, PQgetvalue(r, 0, 0), PQgetvalue(r, 0, 1), PQgetvalue(r, 0, 2),
                PQgetvalue(r, 0, 3), PQgetvalue(r, 0, 4), PQgetvalue(r, 0, 5), want[0], want[1],
                want[2], want[3], want[4], want[5]);
    PQclear(r);
    return rc;
}

/* The migration transaction: everything below COMMITs together or not at all. */
static int migrate_tx(rb_queue *q, const rb_algo *algo, const rb_config *ring) {
    char sql[512];
    snprintf(sql, sizeof sql,
             "BEGIN; SELECT pg_advisory_xact_lock(29282, hashtext('migrate')); "
             "CREATE SCHEMA IF NOT EXISTS \"%s\"; SET LOCAL search_path TO \"%s\"",
             q->schema, q->schema);
    if (exec_simple(q->conn, sql) || exec_simple(q->conn, rb_queue_sql("migrations_table")))
        return RB_EDB;
    char b[16], v[16], seed[32];
    snprintf(b, sizeof b, "%u", ring->n_buckets);
    snprintf(v, sizeof v, "%u", ring->n_vnodes);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)ring->seed);
    const char *want[] = {b, ring->bucket_hash->name, seed, ring->ring_hash->name, algo->name, v};
    /* An existing queue: refuse other parameters before any migration runs. */
    PGresult *r = tx_exec(q, rb_queue_sql("schema_state"), 0, NULL, PGRES_TUPLES_OK);
    if (!r) return RB_EDB;
    int exists = strcmp(PQgetvalue(r, 0, 0), "t") == 0;
    PQclear(r);
    if (!(r = tx_exec(q, rb_queue_sql("schema_version"), 0, NULL, PGRES_TUPLES_OK))) return RB_EDB;
    int version = atoi(PQgetvalue(r, 0, 0));
    PQclear(r);
    int rc;
    if (exists && (rc = check_recorded(q, want))) return rc;
    if (version > latest_version())
        return rb_set_error(RB_EINVAL,
                            "schema '%s' is at version %d, newer than this binary's %d: use a "
                            "newer ringbench",
                            q->schema, version, latest_version());
    for (size_t i = 0; i < rb_queue_sql_n_migrations; i++) {
        const rb_queue_sql_text *m = &rb_queue_sql_migrations[i];
        if (m->version <= version) continue;
        char *text = substitute_buckets(m->sql, ring->n_buckets);
        if (!text) return rb_set_error(RB_ENOMEM, "out of memory");
        rc = exec_simple(q->conn, text);
        free(text);
        if (rc) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", rb_error_detail());
            return rb_set_error(RB_EDB, "migration %s: %s", m->name, msg);
        }
        char ver[16];
        snprintf(ver, sizeof ver, "%d", m->version);
        const char *p[] = {ver, m->name};
        if (!(r = tx_exec(q, rb_queue_sql("migration_record"), 2, p, PGRES_COMMAND_OK)))
            return RB_EDB;
        PQclear(r);
    }
    const char *params[] = {b, ring->bucket_hash->name, ring->ring_hash->name, seed, algo->name, v};
    if (!(r = tx_exec(q, rb_queue_sql("config_record"), 6, params, PGRES_COMMAND_OK)))
        return RB_EDB;
    PQclear(r);
    if ((rc = check_recorded(q, want))) return rc;
    return exec_simple(q->conn, "COMMIT");
}

int rb_queue_ring_check(const rb_config *ring) {
    /* a larger seed would be recorded, and every row inserted without a bucket would then
     * fail in the trigger ("function ringbench_bucket(text, integer, unknown, numeric) does
     * not exist") */
    if (ring->seed > RB_QUEUE_MAX_SEED)
        return rb_set_error(RB_EINVAL,
                            "seed %llu is out of range for a queue (0..%llu): the bucket trigger "
                            "passes the seed to the extension's ringbench_bucket as a bigint",
                            (unsigned long long)ring->seed, (unsigned long long)RB_QUEUE_MAX_SEED);
    return 0;
}

int rb_queue_migrate(rb_queue *q, const rb_algo *algo, const rb_config *ring) {
    int checked = rb_queue_ring_check(ring); /* before anything is created */
    if (checked) return checked;
    if (!q->conn || PQstatus(q->conn) != CONNECTION_OK) {
        int rc = reconnect(q);
        if (rc) return rc;
    }
    int rc = migrate_tx(q, algo, ring);
    if (rc) {
        int saved = rc;
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", rb_error_detail());
        exec_simple(q->conn, "ROLLBACK");
        return rb_set_error(saved, "%s", msg);
    }
    return load_queue_config(q);
}

/* ---- enqueue ---- */

/* Append `s` as a quoted element of a Postgres array literal. */
static char *array_append(char *buf, size_t *len, size_t *cap, const char *s, int first) {
    size_t need = *len + 2 * (s ? strlen(s) : 4) + 8;
    if (need > *cap) {
        size_t nc = *cap * 2 > need ? *cap * 2 : need;
        char *nb = realloc(buf, nc);
        if (!nb) {
            free(buf);
            return NULL;
        }
        buf = nb;
        *cap = nc;
    }
    if (!first) buf[(*len)++] = ',';
    if (!s) {
        memcpy(buf + *len, "NULL", 4);
        *len += 4;
    } else {
        buf[(*len)++] = '"';
        for (; *s; s++) {
            if (*s == '"' || *s == '\\') buf[(*len)++] = '\\';
            buf[(*len)++] = *s;
        }
        buf[(*len)++] = '"';
    }
    buf[*len] = 0;
    return buf;
}

/* RB_EDB with a hint when the schema has no queue tables. */
static int need_migrated(const rb_queue *q) {
    if (q->migrated && q->schema_version >= latest_version()) return 0;
    if (q->migrated)
        return rb_set_error(RB_EDB,
                            "schema '%s' is at version %d, this binary needs %d (run `ringbench pg "
                            "migrate` to upgrade it; nothing is lost)",
                            q->schema, q->schema_version, latest_version());
    return rb_set_error(
        RB_EDB, "schema '%s' has no queue tables (run `ringbench pg migrate` first)", q->schema);
}

int rb_queue_enqueue(rb_queue *q, const rb_queue_item *items, size_t n, size_t *n_inserted) {
    if (n_inserted) *n_inserted = 0;
    if (need_migrated(q)) return RB_EDB;
    /* One statement for all rows: all or nothing (a server error leaves no row). */
    for (size_t start = 0; start < n; start = n) {
        size_t end = n;
        char *arr[4] = {0};
        size_t len[4] = {0}, cap[4] = {0};
        for (int a = 0; a < 4; a++) {
            cap[a] = 64;
            arr[a] = malloc(cap[a]);
            if (arr[a]) {
                arr[a][0] = '{';
                len[a] = 1;
            }
        }
        char bucket[16];
        for (size_t i = start; i < end && arr[0] && arr[1] && arr[2] && arr[3]; i++) {
            const rb_queue_item *it = &items[i];
            snprintf(bucket, sizeof bucket, "%u",
                     rb_bucket_of(&q->cfg.ring, it->partition_key, strlen(it->partition_key)));
            arr[0] = array_append(arr[0], &len[0], &cap[0], it->partition_key, i == start);
            arr[1] = array_append(arr[1], &len[1], &cap[1], bucket, i == start);
            arr[2] = array_append(arr[2], &len[2], &cap[2], it->idempotency_key, i == start);
            arr[3] = array_append(arr[3], &len[3], &cap[3], it->payload, i == start);
        }
        int ok = 1;
        for (int a = 0; a < 4; a++) {
            if (!arr[a])
                ok = 0;
            else {
                arr[a][len[a]++] = '}';
                arr[a][len[a]] = 0;
            }
        }
        if (!ok) {
            for (int a = 0; a < 4; a++)
                free(arr[a]);
            return rb_set_error(RB_ENOMEM, "out of memory");
        }
        const char *params[4] = {arr[0], arr[1], arr[2], arr[3]};
        int stopped;
        PGresult *r = exec_stoppable(q, STMT_NONE, rb_queue_sql("enqueue"), 4, params,
                                     PGRES_COMMAND_OK, &stopped);
        for (int a = 0; a < 4; a++)
            free(arr[a]);
        if (!r && stopped) return rb_set_error(RB_EDB, "interrupted: the INSERT was cancelled");
        if (!r) return RB_EDB;
        if (n_inserted) *n_inserted += strtoul(PQcmdTuples(r), NULL, 10);
        PQclear(r);
    }
    return 0;
}

/* ---- membership ---- */

/* Run a fenced/identity UPDATE; RB_ELOST when it touched no row. */
static int exec_count(rb_queue *q, const char *sql, int n, const char *const *params, long *count,
                      int *reconnected) {
    PGresult *r = exec_retry(q, sql, n, params, PGRES_COMMAND_OK, reconnected);
    if (!r) return RB_EDB;
    *count = strtol(PQcmdTuples(r), NULL, 10);
    PQclear(r);
    return 0;
}

int rb_queue_register(rb_queue *q) {
    if (need_migrated(q)) return RB_EDB;
    char ttl[16];
    snprintf(ttl, sizeof ttl, "%u", q->cfg.ttl_ms);
    const char *params[] = {q->worker_id, ttl, rb_claim_mode_name(q->cfg.mode)};
    /* An id still alive belongs to another process (or this one's lost first try):
     * taking it over would put two processes in the ring as one member, both owning
     * its buckets. A dead or left id is taken over as a new incarnation. */
    int reconnected = 0;
    PGresult *r = exec_retry(q, rb_queue_sql("register"), 3, params, PGRES_TUPLES_OK, &reconnected);
    if (!r) return RB_EDB;
    if (PQntuples(r) == 0 && reconnected) {
        /* Our first try may have committed before the connection dropped. */
        PQclear(r);
        if (!(r = exec_retry(q, rb_queue_sql("incarnation"), 1, params, PGRES_TUPLES_OK, NULL)))
            return RB_EDB;
    }
    if (PQntuples(r) == 0) {
        PQclear(r);
        return rb_set_error(RB_EINVAL,
                            "worker id '%s' is already alive in the membership (another process "
                            "uses it): give another --id, or none for a generated one",
                            q->worker_id);
    }
    q->incarnation = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    snprintf(q->incarnation_param, sizeof q->incarnation_param, "%lld", (long long)q->incarnation);
    PQclear(r);
    q->registered = 1;
    /* register.sql clears the published view, which the claim's walk reads: forget this
     * session's too, so the next rb_queue_refresh_membership publishes one */
    free_membership(q);
    worker_session(q);
    return 0;
}

int rb_queue_rejoin(rb_queue *q) {
    new_worker_id(q);
    q->cfg.worker_id = q->worker_id;
    return rb_queue_register(q);
}

int rb_queue_heartbeat(rb_queue *q) {
    const char *params[] = {q->worker_id, q->incarnation_param};
    long n = 0;
    int rc = exec_count(q, rb_queue_sql("heartbeat"), 2, params, &n, NULL);
    if (rc) return rc;
    if (n == 0)
        return rb_set_error(RB_ELOST,
                            "worker %s incarnation %lld is no longer alive in the membership "
                            "(marked dead, or its id was registered again)",
                            q->worker_id, (long long)q->incarnation);
    return 0;
}

int rb_queue_leave(rb_queue *q) {
    const char *params[] = {q->worker_id, q->incarnation_param};
    long n = 0;
    int rc = exec_count(q, rb_queue_sql("leave"), 2, params, &n, NULL);
    q->registered = 0;
    return rc;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A membership view built aside and swapped in only when complete. */
typedef struct membership {
    char **live;
    size_t n_live;
    uint32_t *owned;
    size_t n_owned;
    char *owned_param;
} membership;

static void membership_free(membership *m) {
    for (size_t i = 0; m->live && i < m->n_live; i++)
        free(m->live[i]);
    free(m->live);
    free(m->owned);
    free(m->owned_param);
    memset(m, 0, sizeof *m);
}

/* Build the view over the live ids of `r` (sorted) into *m: the ring over them
 * and the buckets this worker owns. 0, RB_ENOMEM, or the ring's error (e.g. a
 * member id it rejects), with *m partly built (the caller frees it). */
static int membership_build(const rb_queue *q, const PGresult *r, membership *m) {
    size_t n = (size_t)PQntuples(r);
    uint32_t B = q->cfg.ring.n_buckets;
    size_t cap = 16 + (size_t)B * 11;
    m->live = calloc(n ? n : 1, sizeof *m->live);
    m->owned = malloc(sizeof *m->owned * B);
    m->owned_param = malloc(cap);
    if (!m->live || !m->owned || !m->owned_param) return rb_set_error(RB_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        if (!(m->live[m->n_live++] = xstrdup(PQgetvalue(r, (int)i, 0))))
            return rb_set_error(RB_ENOMEM, "out of memory");
    /* COLLATE "C" is byte order, strcmp's, so the comparison with the last view
     * is exact; the qsort only guards against a server that orders otherwise.
     * The ring itself does not depend on member order. */
    qsort(m->live, m->n_live, sizeof *m->live, cmp_str);
    size_t plen = 0, me = n;
    m->owned_param[plen++] = '{';
    for (size_t i = 0; i < n; i++)
        if (strcmp(m->live[i], q->worker_id) == 0) me = i;
    if (me < n) {
        rb_member *members = calloc(n, sizeof *members);
        if (!members) return rb_set_error(RB_ENOMEM, "out of memory");
        for (size_t i = 0; i < n; i++) {
            members[i].id = m->live[i];
            members[i].id_len = strlen(m->live[i]);
            members[i].weight = 1;
        }
        rb_ring *ring = NULL;
        int rc = rb_ring_build(q->cfg.algo, &q->cfg.ring, members, n, &ring);
        free(members);
        if (rc) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", rb_error_detail());
            return rb_set_error(
                rc, "membership of %zu live workers: %s (the previous view is kept)", n, msg);
        }
        for (uint32_t b = 0; b < B; b++)
            if (rb_ring_owner_bucket(ring, b) == me) {
                m->owned[m->n_owned++] = b;
                plen += (size_t)snprintf(m->owned_param + plen, cap - plen, "%s%u",
                                         m->n_owned > 1 ? "," : "", b);
            }
        rb_ring_destroy(ring);
    }
    m->owned_param[plen++] = '}';
    m->owned_param[plen] = 0;
    return 0;
}

int rb_queue_refresh_membership(rb_queue *q, int *changed) {
    if (changed) *changed = 0;
    int stopped; /* a stop cancelled a statement: the view stays as it was */
    PGresult *r = exec_stoppable(q, STMT_NONE, rb_queue_sql("membership"), 0, NULL, PGRES_TUPLES_OK,
                                 &stopped);
    if (!r) return stopped ? 0 : RB_EDB;
    size_t n = (size_t)PQntuples(r);
    int same = n == q->n_live && q->owned_param;
    for (size_t i = 0; same && i < n; i++)
        same = strcmp(PQgetvalue(r, (int)i, 0), q->live[i]) == 0;
    if (same) {
        PQclear(r);
        return 0;
    }
    /* Build aside; the current view stays until the new one is complete, so a
     * failure (out of memory, a member id the ring rejects) leaves it intact and
     * the next call tries again instead of taking "unchanged" for success. */
    membership m = {0};
    int rc = membership_build(q, r, &m);
    PQclear(r);
    if (rc) {
        membership_free(&m);
        return rc;
    }
    /* Publish the view: what this worker believes it owns. */
    size_t mlen = 0, mcap = 64;
    char *members_param = malloc(mcap);
    if (members_param) members_param[mlen++] = '{';
    for (size_t i = 0; i < m.n_live && members_param; i++)
        members_param = array_append(members_param, &mlen, &mcap, m.live[i], i == 0);
    if (!members_param) {
        membership_free(&m);
        return rb_set_error(RB_ENOMEM, "out of memory");
    }
    members_param[mlen++] = '}';
    members_param[mlen] = 0;
    const char *params[] = {q->worker_id, members_param, m.owned_param, q->incarnation_param};
    r = exec_stoppable(q, STMT_NONE, rb_queue_sql("publish_view"), 4, params, PGRES_COMMAND_OK,
                       &stopped);
    free(members_param);
    if (!r) {
        membership_free(&m);
        return stopped ? 0 : RB_EDB;
    }
    PQclear(r);
    free_membership(q);
    q->live = m.live;
    q->n_live = m.n_live;
    q->owned = m.owned;
    q->n_owned = m.n_owned;
    q->owned_param = m.owned_param;
    q->age_head_due_ms = 0; /* buckets newly owned may hold rows past the age bound */
    if (changed) *changed = 1;
    return 0;
}

const uint32_t *rb_queue_owned_buckets(const rb_queue *q, size_t *n) {
    *n = q->n_owned;
    return q->owned;
}

size_t rb_queue_n_live(const rb_queue *q) { return q->n_live; }

/* ---- claim ---- */

/*
 * claim_sql_of — this session's claim statement for `mode` (with `aged`, affinity's claim with
 * the age scan, claim_aged.sql): the CTE picked(id, aged), then
 * queue/sql/claim_lease.sql (the lease every claim hands out). picked is
 * queue/sql/claim_competing.sql; or, for affinity, claim_affinity.sql over the walk of the
 * owned buckets claim_walk.sql (at its @WALK@ mark); or, for ordered mode, claim_run.sql (runs
 * of a key's oldest rows) over the same walk with the guard of claim_ordered.sql at the walk's
 * @ORDERED_GUARD@ mark (so it yields the heads of keys), and the statuses that block a key's
 * later rows, by the session's policy for dead letters, at every @BLOCKING@ (the states of
 * inbox.state that block, as a literal: see claim_ordered.sql). With `all` (the worker owns every
 * bucket: owns_every_bucket) affinity's claim is the competing one and ordered mode's
 * claim_window.sql. Assembled on first use and kept in q: one text per mode, policy and `all`, so
 * the prepared statement and its plan are what they were. Parameters: $1 worker id, $2 batch, $3
 * lease ms, $4 incarnation; the walk: $5 the 1-based position in the owned buckets (the published
 * workers.owned_buckets, which the walk reads on the server) the walk starts at; with the age scan:
 * $6 the age bound in ms, $7 the rows it reads, $8 and $9 where it starts (NULL: the head;
 * claim_call_init, age_scan_plan). Every claim returns the rows of claim_lease.sql, whose 9th
 * column says whether a row is a suspect (its handler started before and never finished), the 10th
 * the run_at in microseconds of a row claimed for its age, else NULL (claim_row_aged), and the last
 * two where the age scan's read ended (claim_aged_end.sql at the lease's @AGE_SCAN_END@ mark; two
 * NULLs in every other claim: age_scan_next). NULL with RB_ENOMEM set when out of memory.
 */
static const char *claim_sql_of(rb_queue *q, rb_claim_mode mode, int all, int aged) {
    int ordered = mode == RB_CLAIM_ORDERED, skip = ordered && q->cfg.ordered_skip_failed;
    int window = ordered && all;
    if (mode == RB_CLAIM_AFFINITY && all) mode = RB_CLAIM_COMPETING;
    aged = aged && mode == RB_CLAIM_AFFINITY;
    size_t k = window ? CLAIM_TEXT_WINDOW + (size_t)skip
               : skip ? CLAIM_TEXT_ORDERED_SKIP
               : aged ? CLAIM_TEXT_AGED
                      : (size_t)mode;
    if (q->claim_text[k]) return q->claim_text[k];
    char *walk = NULL, *picked = NULL, *cte = NULL;
    if (mode == RB_CLAIM_COMPETING)
        picked = xstrdup(rb_queue_sql("claim_competing"));
    else if (window)
        picked = xstrdup(rb_queue_sql("claim_window"));
    else if ((walk = substitute(rb_queue_sql("claim_walk"), "@ORDERED_GUARD@",
                                ordered ? rb_queue_sql("claim_ordered") : "")))
        picked = substitute(rb_queue_sql(ordered ? "claim_run"
                                         : aged  ? "claim_aged"
                                                 : "claim_affinity"),
                            "@WALK@", walk);
    if (picked) cte = substitute(picked, "@BLOCKING@", skip ? "'open'" : "'open', 'failed'");
    char *lease = substitute(rb_queue_sql("claim_lease"), "@AGE_SCAN_END@",
                             aged ? rb_queue_sql("claim_aged_end") : "NULL::bigint, NULL::bigint");
    size_t n = cte ? strlen(cte) : 0;
    char *sql = cte && lease ? malloc(n + strlen(lease) + 1) : NULL;
    if (sql) {
        memcpy(sql, cte, n);
        strcpy(sql + n, lease);
    } else
        rb_set_error(RB_ENOMEM, "out of memory");
    free(walk);
    free(picked);
    free(cte);
    free(lease);
    return q->claim_text[k] = sql;
}

void rb_queue_batch_free(rb_queue_batch *b) {
    if (!b) return;
    free(b->rows);
    PQclear((PGresult *)b->result_);
    b->rows = NULL;
    b->result_ = NULL;
    b->n = 0;
}

/* The position of bucket b in the owned buckets (ascending), or n_owned when not owned. */
static size_t owned_index(const rb_queue *q, uint32_t b) {
    size_t lo = 0, hi = q->n_owned;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (q->owned[mid] < b)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < q->n_owned && q->owned[lo] == b ? lo : q->n_owned;
}

/* qsort order of claimed rows: ascending id. */
static int row_id_cmp(const void *a, const void *b) {
    int64_t x = ((const rb_queue_row *)a)->id, y = ((const rb_queue_row *)b)->id;
    return (x > y) - (x < y);
}

/*
 * owns_every_bucket — an affinity or ordered worker whose view gives it all B buckets (the
 * only live member it sees): every row is of a bucket it owns (inbox checks
 * 0 <= partition_bucket < B, and B is the session's, checked at open), so the walk over the
 * owned buckets can be a scan of the whole queue in the global (run_at, id) order: for
 * affinity the claim "pending rows of the owned buckets" is then the competing claim,
 * exactly; for ordered mode claim_window.sql, the oldest claimable rows of any key with
 * their key's older rows. The global order takes a batch of neighbouring rows (a few heap and
 * index pages) where the walk over 1,024 buckets takes a bucket's rows, or one key's run,
 * about one page each, and the completion then pays for the scatter (bench/pg/README.md, "The
 * claim queries"). Read on every claim: the next membership refresh that adds a member ends
 * it.
 */
static int owns_every_bucket(const rb_queue *q) {
    return q->cfg.mode != RB_CLAIM_COMPETING && !q->cfg.walk_always &&
           q->n_owned == q->cfg.ring.n_buckets;
}

/* Whether the claim statement of `mode` walks the owned buckets (and takes $5, the walk's
 * start): affinity and ordered mode, unless the worker owns every bucket (`all`). */
static int claim_walks(rb_claim_mode mode, int all) { return mode != RB_CLAIM_COMPETING && !all; }

/* Whether the claim statement of `mode` is claim_competing.sql (and takes $5, whether it reads
 * from the head): competing mode, and affinity when the worker owns every bucket (`all`). */
static int claim_is_competing(rb_claim_mode mode, int all) {
    return mode == RB_CLAIM_COMPETING || (mode == RB_CLAIM_AFFINITY && all);
}

/* The parameters the claim statement of `mode` takes: 5 for the competing claim ($5: from the
 * head) and the walk ($5: its start), 9 for affinity's with the age scan (`aged`), 4 for
 * ordered mode's window (`all`). */
static int claim_n_params(rb_claim_mode mode, int all, int aged) {
    if (claim_is_competing(mode, all)) return 5;
    return !claim_walks(mode, all) ? 4 : aged ? 9 : 5;
}

/* How often a worker's competing claim reads from the head of the pending rows, not from the
 * front (the newest row in flight: claim_competing.sql). The rows given back before the front
 * (released, reclaimed, rolled back, committed late) wait at most about this under a standing
 * backlog; the reads from the front skip the W x batch rows in flight a read from the head
 * visits (bench/pg/README.md, "The competing claim's front"). */
#define COMPETING_HEAD_EVERY_MS 100u

/* Is a read from the head of the pending rows due now? *due_ms is when it is (0: at once);
 * when it is due, the next one is due every_ms later. The periodic read of both claims that
 * start past the head (competing_head_plan, age_scan_plan). */
static int head_read_due(uint64_t *due_ms, uint64_t every_ms) {
    uint64_t now = rb_now_ms();
    if (now < *due_ms) return 0;
    *due_ms = now + every_ms;
    return 1;
}

/* $5 of the competing claim, "true" when this claim reads from the head: at the first claim
 * and every COMPETING_HEAD_EVERY_MS after, else "false" (from the front). */
static const char *competing_head_plan(rb_queue *q) {
    return head_read_due(&q->competing_head_due_ms, COMPETING_HEAD_EVERY_MS) ? "true" : "false";
}

/* The claim's columns after the row's own (claim_lease.sql): whether the row is a suspect
 * (rb_queue_row.suspect); run_at in microseconds of a row claimed for its age, NULL for every
 * other row; where the age scan's read ended when it was full (microseconds, id; the same on
 * every row), NULL otherwise. */
enum {
    CLAIM_COL_SUSPECT = 8,
    CLAIM_COL_AGED_RUN_AT_US,
    CLAIM_COL_AGE_END_US,
    CLAIM_COL_AGE_END_ID
};

/* Was row t of claim result r claimed for its age (claim_aged.sql)? */
static int claim_row_aged(const PGresult *r, int t) {
    return !PQgetisnull(r, t, CLAIM_COL_AGED_RUN_AT_US);
}

/* Where the next walk starts (0-based; n_owned wraps to 0 at the next claim): after the bucket
 * served last, the one of the claimed rows' buckets (column 2 of r) furthest along this walk,
 * which visited the owned buckets from `start` on and then wrapped around. Read from every row,
 * not the last: RETURNING promises no order. A bucket no longer owned is passed over, and so
 * is a row claimed for its age (claim_row_aged), which the walk did not visit. */
static size_t walk_next_start(const rb_queue *q, size_t start, const PGresult *r) {
    size_t far = 0;
    if (q->n_owned == 0) return 0;
    for (int t = 0; t < PQntuples(r); t++) {
        if (claim_row_aged(r, t)) continue;
        size_t i = owned_index(q, (uint32_t)strtoul(PQgetvalue(r, t, 2), NULL, 10));
        size_t along = (i + q->n_owned - start) % q->n_owned; /* steps from the walk's start */
        if (i < q->n_owned && along > far) far = along;
    }
    return (start + far) % q->n_owned + 1;
}

/* One claim's statement and parameters (claim_call_init), sent by rb_queue_claim or in the
 * pipeline of rb_queue_complete_and_claim. */
typedef struct claim_call {
    const char *sql;
    stmt_id stmt;
    int n_params, walks; /* walks: the statement walks the owned buckets (claim_walks) */
    size_t start;        /* the walk's first bucket: 0-based position in the owned buckets */
    const char *params[9];
    char batch[16], lease[16], pos[24], age[16], head[24], from_us[24], from_id[24];
} claim_call;

/* The head rows affinity's age scan reads ($7 of claim_aged.sql) for a worker owning
 * n_owned (> 0) buckets: twice the batch times B / n_owned (about the number of workers), so
 * the aged rows of the owned buckets are among them when every worker keeps up with its own;
 * at most 100,000. */
static uint64_t age_scan_rows(const rb_queue *q, size_t n_owned) {
    uint64_t share = (2u * (uint64_t)q->cfg.ring.n_buckets + n_owned - 1) / n_owned;
    uint64_t rows = (uint64_t)q->cfg.batch * share;
    return rows < 100000u ? rows : 100000u;
}

/* How often an affinity worker's age scan starts from the head of the pending rows although
 * its last claim's aged rows gave it a later start: a tenth of the bound, at most 1 s (rows
 * released back to pending, buckets newly owned and rows passed over as locked lie before
 * that start), so such a row waits at most about the bound plus this. */
static uint64_t age_head_every_ms(const rb_queue *q) {
    uint64_t every = q->cfg.age_bound_ms / 10u;
    return every < 1 ? 1 : every > 1000 ? 1000 : every;
}

/* Whether this affinity claim runs the age scan (claim_aged.sql; 1: $6 .. $9 are set) or is
 * the walk alone (claim_affinity.sql, 0): it runs from the head when one is due (every
 * age_head_every_ms, and at the first claim after the owned buckets changed: buckets taken
 * over may hold old rows), else on from the newest row the last claim took for its age while
 * it took any (age_scan_next), else not at all, so a worker none of whose rows is past the bound
 * sends the walk's smaller plan (the age scan's plan costs 60-100 us a claim at batch 1 even
 * when it finds nothing). Not after every empty claim: an idle worker beside workers with rows
 * past the bound then read their rows from the head at every poll (the soak: 38,000 scans
 * in 300 s, 0.44 rows and 1,590 buffers each). */
static int age_scan_plan(rb_queue *q, claim_call *c) {
    if (!q->cfg.age_bound_ms) return 0;
    int from_head = head_read_due(&q->age_head_due_ms, age_head_every_ms(q));
    if (!from_head && !q->age_from_set) return 0;
    snprintf(c->age, sizeof c->age, "%u", q->cfg.age_bound_ms);
    snprintf(c->head, sizeof c->head, "%llu", (unsigned long long)age_scan_rows(q, q->n_owned));
    snprintf(c->from_us, sizeof c->from_us, "%lld", (long long)q->age_from_us);
    snprintf(c->from_id, sizeof c->from_id, "%lld", (long long)q->age_from_id);
    c->params[7] = from_head ? NULL : c->from_us;
    c->params[8] = from_head ? "0" : c->from_id;
    return 1;
}

/* After an affinity claim (result r, 0 rows or more): the next age scan's start. When the
 * scan's read was full (CLAIM_COL_AGE_END_*: there may be more rows past the bound beyond it)
 * and the rows taken for their age (claim_row_aged) did not fill the batch, where the read
 * ended: every entry in it was taken, another worker's, or passed over as locked. Otherwise,
 * when it took any, the newest row taken (a full batch may leave more of this worker's rows in
 * the read; a read that was not full reached the end of the rows past the bound, and rows
 * that pass it next are beyond). Otherwise no start: the next scan comes from the head when
 * due. So the scan reads on, O($7) a claim, while rows past the bound keep turning up. A
 * start that stayed at the oldest row taken re-read the same entries at every claim (the
 * soak: under one row and 1,560 buffers a scan when it was kept after any aged row); without
 * the read's end, a read that held none of this worker's rows (a lagging peer's at the head)
 * left no start, so with the whole backlog past the bound and a peer 57% of the rows went for
 * their age, the rest in walk order (a helper, 20,000 rows, 2 workers, batch 8). */
static void age_scan_next(rb_queue *q, const PGresult *r) {
    uint32_t n_aged = 0;
    int64_t us = 0, id = 0;
    for (int t = 0; t < PQntuples(r); t++) {
        if (!claim_row_aged(r, t)) continue;
        int64_t u = strtoll(PQgetvalue(r, t, CLAIM_COL_AGED_RUN_AT_US), NULL, 10);
        int64_t i = strtoll(PQgetvalue(r, t, 0), NULL, 10);
        if (n_aged++ == 0 || u > us || (u == us && i > id)) us = u, id = i;
    }
    int read_full = PQntuples(r) > 0 && !PQgetisnull(r, 0, CLAIM_COL_AGE_END_US);
    if (read_full && n_aged < q->cfg.batch) {
        us = strtoll(PQgetvalue(r, 0, CLAIM_COL_AGE_END_US), NULL, 10);
        id = strtoll(PQgetvalue(r, 0, CLAIM_COL_AGE_END_ID), NULL, 10);
    }
    q->age_from_set = n_aged > 0 || read_full;
    q->age_from_us = us, q->age_from_id = id;
}

/* This session's claim: 1 when there is one to send, 0 when the worker owns no bucket (an
 * empty claim), RB_ENOMEM. c must outlive the send (params point into it and into q). */
static int claim_call_init(rb_queue *q, claim_call *c) {
    int all = owns_every_bucket(q);
    c->walks = claim_walks(q->cfg.mode, all);
    if (q->cfg.mode != RB_CLAIM_COMPETING && q->n_owned == 0) return 0;
    snprintf(c->batch, sizeof c->batch, "%u", q->cfg.batch);
    snprintf(c->lease, sizeof c->lease, "%u", q->cfg.lease_ms);
    if (q->claim_pos >= q->n_owned) q->claim_pos = 0; /* the membership changed */
    c->start = q->claim_pos;
    snprintf(c->pos, sizeof c->pos, "%zu", q->claim_pos + 1);
    const char *params[] = {q->worker_id, c->batch, c->lease, q->incarnation_param, c->pos, c->age,
                            c->head,      NULL,     NULL};
    memcpy(c->params, params, sizeof params);
    int aged = c->walks && q->cfg.mode == RB_CLAIM_AFFINITY && age_scan_plan(q, c);
    if (claim_is_competing(q->cfg.mode, all)) c->params[4] = competing_head_plan(q);
    c->n_params = claim_n_params(q->cfg.mode, all, aged);
    /* one prepared statement per session and statement: the mode's claim, for a worker that
     * owns every bucket the whole queue's (owns_every_bucket), affinity's with the age scan */
    c->stmt = all ? STMT_CLAIM_ALL : aged ? STMT_CLAIM_AGED : STMT_CLAIM;
    c->sql = claim_sql_of(q, q->cfg.mode, all, aged);
    return c->sql ? 1 : RB_ENOMEM;
}

/* The claimed rows of result r into out (which takes r); 0 or RB_ENOMEM (r cleared). */
static int claim_read(rb_queue *q, const claim_call *c, PGresult *r, rb_queue_batch *out) {
    size_t n = (size_t)PQntuples(r);
    if (c->walks && q->cfg.mode == RB_CLAIM_AFFINITY) age_scan_next(q, r);
    if (n == 0) {
        PQclear(r);
        return 0;
    }
    if (c->walks) q->claim_pos = walk_next_start(q, c->start, r);
    out->rows = calloc(n, sizeof *out->rows);
    if (!out->rows) {
        PQclear(r);
        return rb_set_error(RB_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        int t = (int)i;
        rb_queue_row *row = &out->rows[i];
        row->id = strtoll(PQgetvalue(r, t, 0), NULL, 10);
        row->lease_generation = strtoll(PQgetvalue(r, t, 1), NULL, 10);
        row->partition_bucket = (uint32_t)strtoul(PQgetvalue(r, t, 2), NULL, 10);
        row->attempts = (uint32_t)strtoul(PQgetvalue(r, t, 3), NULL, 10);
        row->partition_key = PQgetvalue(r, t, 4);
        row->idempotency_key = PQgetvalue(r, t, 5);
        row->payload = PQgetisnull(r, t, 6) ? NULL : PQgetvalue(r, t, 6);
        row->claims = (uint32_t)strtoul(PQgetvalue(r, t, 7), NULL, 10);
        row->aged = claim_row_aged(r, t);
        row->suspect = PQgetvalue(r, t, CLAIM_COL_SUSPECT)[0] == 't';
    }
    /* every mode's batch in id order (RETURNING promises none): ordered mode's runs in order,
     * and a caller's handlers start in the order the rows were enqueued whatever the plan */
    qsort(out->rows, n, sizeof *out->rows, row_id_cmp);
    out->n = n;
    out->result_ = r;
    return 0;
}

int rb_queue_claim(rb_queue *q, rb_queue_batch *out) {
    rb_queue_batch_free(out);
    claim_call c;
    int rc = claim_call_init(q, &c), stopped;
    if (rc != 1) return rc;
    PGresult *r = exec_stoppable(q, c.stmt, c.sql, c.n_params, c.params, PGRES_TUPLES_OK, &stopped);
    if (stopped) return 0; /* nothing claimed */
    return r ? claim_read(q, &c, r, out) : RB_EDB;
}

/* ---- fenced writes ---- */

static int lost(const rb_queue *q, const char *what, const rb_queue_row *row) {
    return rb_set_error(RB_ELOST, "%s of row %lld (lease_generation %lld) by %s: lease lost", what,
                        (long long)row->id, (long long)row->lease_generation, q->worker_id);
}

/* Run a fenced statement for `row` with extra parameters from $4 on (the session's prepared
 * statement stmt, or unnamed: STMT_NONE). */
static int fenced(rb_queue *q, const char *what, stmt_id stmt, const char *sql,
                  const rb_queue_row *row, int n_extra, const char *const *extra, int returns_rows,
                  int *reconnected) {
    char id[24], gen[24];
    snprintf(id, sizeof id, "%lld", (long long)row->id);
    snprintf(gen, sizeof gen, "%lld", (long long)row->lease_generation);
    const char *params[8] = {id, gen, q->worker_id};
    for (int i = 0; i < n_extra; i++)
        params[3 + i] = extra[i];
    PGresult *r = exec_retry_named(q, stmt, sql, 3 + n_extra, params,
                                   returns_rows ? PGRES_TUPLES_OK : PGRES_COMMAND_OK, reconnected);
    if (!r) return RB_EDB;
    long n = returns_rows ? PQntuples(r) : strtol(PQcmdTuples(r), NULL, 10);
    PQclear(r);
    return n == 0 ? lost(q, what, row) : 0;
}

int rb_queue_complete(rb_queue *q, const rb_queue_row *row, const char *effect) {
    const char *extra[] = {effect};
    int reconnected = 0;
    int rc = fenced(q, "complete", STMT_COMPLETE, rb_queue_sql("complete"), row, 1, extra, 1,
                    &reconnected);
    if (rc != RB_ELOST || !reconnected) return rc;
    /* The connection dropped: our completion may have committed before it. */
    char id[26], gen[26];
    snprintf(id, sizeof id, "{%lld}", (long long)row->id);
    snprintf(gen, sizeof gen, "{%lld}", (long long)row->lease_generation);
    const char *params[] = {id, gen, q->worker_id};
    PGresult *r = exec_retry(q, rb_queue_sql("completed_check"), 3, params, PGRES_TUPLES_OK, NULL);
    if (!r) return RB_EDB;
    int committed = PQntuples(r) == 1;
    PQclear(r);
    return committed ? 0 : lost(q, "complete", row);
}

int rb_queue_fail(rb_queue *q, const rb_queue_row *row, const char *error, uint32_t retry_ms) {
    char base[16], max[16], cap[16];
    snprintf(base, sizeof base, "%u", retry_ms ? retry_ms : q->cfg.backoff_base_ms);
    snprintf(max, sizeof max, "%u", q->cfg.max_attempts);
    snprintf(cap, sizeof cap, "%u", q->cfg.backoff_cap_ms);
    const char *extra[] = {error, base, max, cap};
    return fenced(q, "fail", STMT_NONE, rb_queue_sql("fail"), row, 4, extra, 0, NULL);
}

int rb_queue_start(rb_queue *q, const rb_queue_row *row) {
    return fenced(q, "start", STMT_NONE, rb_queue_sql("start"), row, 0, NULL, 0, NULL);
}

int rb_queue_release(rb_queue *q, const rb_queue_row *row) {
    return fenced(q, "release", STMT_NONE, rb_queue_sql("release"), row, 0, NULL, 0, NULL);
}

int rb_queue_extend(rb_queue *q, const rb_queue_row *row, uint32_t lease_ms) {
    char lease[16];
    snprintf(lease, sizeof lease, "%u", lease_ms);
    const char *extra[] = {lease};
    return fenced(q, "extend", STMT_NONE, rb_queue_sql("extend"), row, 1, extra, 0, NULL);
}

/* ---- housekeeping ---- */

int rb_queue_housekeep(rb_queue *q, rb_queue_housekeeping *rep) {
    memset(rep, 0, sizeof *rep);
    char max[16], max_claims[16];
    snprintf(max, sizeof max, "%u", q->cfg.max_attempts);
    snprintf(max_claims, sizeof max_claims, "%u",
             q->cfg.max_row_claims ? q->cfg.max_row_claims : 3 * q->cfg.max_attempts);
    const char *params[] = {q->worker_id, max, max_claims};
    /* One statement = one transaction: the xact lock is held for exactly the
     * round. The lock CTE is referenced several times, so it is evaluated once. */
    int stopped;
    PGresult *r = exec_stoppable(q, STMT_NONE, rb_queue_sql("housekeep"), 3, params,
                                 PGRES_TUPLES_OK, &stopped);
    if (!r) return stopped ? 0 : RB_EDB;
    rep->won_lock = strcmp(PQgetvalue(r, 0, 0), "t") == 0;
    rep->n_marked_dead = strtoul(PQgetvalue(r, 0, 1), NULL, 10);
    rep->n_released = strtoul(PQgetvalue(r, 0, 2), NULL, 10);
    rep->n_failed = strtoul(PQgetvalue(r, 0, 3), NULL, 10);
    if (!PQgetisnull(r, 0, 4)) rep->marked_dead = xstrdup(PQgetvalue(r, 0, 4));
    PQclear(r);
    /* Retention: its own statements (each its own short transaction, bounded by
     * retention_batch rows) under the same lock, repeated while a batch comes back full,
     * for at most half a heartbeat interval: one round then deletes more done rows than
     * the queue completes in an interval, whatever the completion rate, and the next
     * round is never late for it (the keeper thread heartbeats meanwhile). */
    uint64_t until_ms = rb_now_ms() + q->cfg.heartbeat_ms / 2;
    for (;;) {
        r = exec_stoppable(q, STMT_NONE, rb_queue_sql("retention_purge"), 0, NULL, PGRES_TUPLES_OK,
                           &stopped);
        if (!r) { /* on an error the caller frees nothing */
            free(rep->marked_dead);
            rep->marked_dead = NULL;
            return stopped ? 0 : RB_EDB;
        }
        int won = strcmp(PQgetvalue(r, 0, 0), "t") == 0;
        size_t n = strtoul(PQgetvalue(r, 0, 1), NULL, 10);
        size_t cap = strtoul(PQgetvalue(r, 0, 2), NULL, 10);
        PQclear(r);
        rep->n_purged += n;
        rep->n_purge_statements++;
        if (!won || n < cap || rb_now_ms() >= until_ms) break;
    }
    return 0;
}

/* ---- retention (migration 006) ---- */

int rb_queue_retention_validate(const rb_queue_retention *r) {
    if (r->retention_ms != 0 && (r->retention_ms < RB_QUEUE_RETENTION_MIN_MS ||
                                 r->retention_ms > RB_QUEUE_RETENTION_MAX_MS))
        return rb_set_error(RB_EINVAL,
                            "retention %lld ms must be off or %d to %lld ms (1 s to 10 years)",
                            (long long)r->retention_ms, RB_QUEUE_RETENTION_MIN_MS,
                            (long long)RB_QUEUE_RETENTION_MAX_MS);
    if (r->batch_rows < 1 || r->batch_rows > RB_QUEUE_RETENTION_BATCH_MAX)
        return rb_set_error(RB_EINVAL, "retention batch %u must be 1 to %u rows per round",
                            r->batch_rows, RB_QUEUE_RETENTION_BATCH_MAX);
    return 0;
}

int rb_queue_retention_get(rb_queue *q, rb_queue_retention *out) {
    memset(out, 0, sizeof *out);
    if (need_migrated(q)) return RB_EDB;
    PGresult *r = exec_retry(q, rb_queue_sql("retention_read"), 0, NULL, PGRES_TUPLES_OK, NULL);
    if (!r) return RB_EDB;
    if (PQntuples(r) == 1) {
        out->retention_ms = PQgetisnull(r, 0, 0) ? 0 : strtoll(PQgetvalue(r, 0, 0), NULL, 10);
        out->batch_rows = (uint32_t)strtoul(PQgetvalue(r, 0, 1), NULL, 10);
    }
    PQclear(r);
    return 0;
}

int rb_queue_retention_set(rb_queue *q, const rb_queue_retention *ret) {
    int rc = rb_queue_retention_validate(ret);
    if (rc) return rc;
    if (need_migrated(q)) return RB_EDB;
    char ms[24], batch[16];
    snprintf(ms, sizeof ms, "%lld", (long long)ret->retention_ms);
    snprintf(batch, sizeof batch, "%u", ret->batch_rows);
    const char *params[] = {ret->retention_ms ? ms : NULL, batch};
    return exec_cmd(q, rb_queue_sql("retention_set"), 2, params);
}

/* ---- status and explain ---- */

int rb_queue_counts_get(rb_queue *q, rb_queue_counts *c) {
    memset(c, 0, sizeof *c);
    if (need_migrated(q)) return RB_EDB;
    PGresult *r = exec_retry(q, rb_queue_sql("counts"), 0, NULL, PGRES_TUPLES_OK, NULL);
    if (!r) return RB_EDB;
    int64_t *f[] = {&c->n_pending,      &c->n_claimed,       &c->n_done,         &c->n_failed,
                    &c->n_effects,      &c->n_workers_alive, &c->n_workers_live, &c->n_workers_dead,
                    &c->n_workers_left, &c->n_blocked};
    for (int i = 0; i < 10; i++)
        *f[i] = strtoll(PQgetvalue(r, 0, i), NULL, 10);
    PQclear(r);
    return 0;
}

/* The text of rows of one-column result r, one per line, malloc'd; NULL when out of memory. */
static char *result_lines(const PGresult *r) {
    size_t len = 0;
    for (int i = 0; i < PQntuples(r); i++)
        len += strlen(PQgetvalue(r, i, 0)) + 1;
    char *out = malloc(len + 1);
    if (!out) return NULL;
    len = 0;
    for (int i = 0; i < PQntuples(r); i++) {
        size_t ll = strlen(PQgetvalue(r, i, 0));
        memcpy(out + len, PQgetvalue(r, i, 0), ll);
        len += ll;
        out[len++] = '\n';
    }
    out[len] = 0;
    return out;
}

/* The EXPLAIN statement for `claim` with `flags` (RB_EXPLAIN_*) into *sql (malloc'd); 0, or
 * RB_EDB / RB_ENOMEM. Generic: the claim is prepared as rb_explain_claim (the caller
 * deallocates it) and the statement EXECUTEs it with params[0 .. n) as literals, under
 * force_generic_plan (SET LOCAL); otherwise the statement is the claim itself, to be sent with
 * params (a plan for these values). */
static int explain_sql(PGconn *conn, const char *claim, int flags, const char *const *params, int n,
                       char **sql) {
    char head[96];
    snprintf(head, sizeof head, "EXPLAIN (COSTS OFF%s) ",
             flags & RB_EXPLAIN_ANALYZE ? ", ANALYZE, BUFFERS, TIMING OFF, SUMMARY OFF" : "");
    size_t cap = strlen(head) + strlen(claim) + 64;
    for (int i = 0; i < n; i++)
        cap += (params[i] ? 2 * strlen(params[i]) : 4) + 8;
    if (!(*sql = malloc(cap))) return rb_set_error(RB_ENOMEM, "out of memory");
    size_t len = (size_t)snprintf(*sql, cap, "%s", head);
    if (!(flags & RB_EXPLAIN_GENERIC)) return snprintf(*sql + len, cap - len, "%s", claim), 0;
    PGresult *p = PQprepare(conn, "rb_explain_claim", claim, n, NULL);
    int rc = PQresultStatus(p) == PGRES_COMMAND_OK
                 ? 0
                 : rb_set_error(RB_EDB, "%s", PQresultErrorMessage(p));
    PQclear(p);
    if (!rc && exec_simple(conn, session_generic_plans_local)) rc = RB_EDB;
    len += (size_t)snprintf(*sql + len, cap - len, "EXECUTE rb_explain_claim(");
    for (int i = 0; !rc && i < n; i++) {
        if (!params[i]) { /* SQL NULL */
            len += (size_t)snprintf(*sql + len, cap - len, "%sNULL", i ? ", " : "");
            continue;
        }
        char *lit = PQescapeLiteral(conn, params[i], strlen(params[i]));
        if (!lit) rc = rb_set_error(RB_ENOMEM, "out of memory");
        if (lit) len += (size_t)snprintf(*sql + len, cap - len, "%s%s", i ? ", " : "", lit);
        PQfreemem(lit);
    }
    snprintf(*sql + len, cap - len, ")");
    return rc;
}

/* The owned buckets an EXPLAIN publishes for its walk: this session's, or all buckets when it
 * owns none (it is not a live member), into *all (malloc'd; free it). NULL when out of memory. */
static const char *explain_buckets(const rb_queue *q, char **all) {
    *all = NULL;
    if (q->owned_param && q->n_owned > 0) return q->owned_param;
    size_t cap = 16 + (size_t)q->cfg.ring.n_buckets * 11, len = 0;
    if (!(*all = malloc(cap))) return rb_set_error(RB_ENOMEM, "out of memory"), NULL;
    (*all)[len++] = '{';
    for (uint32_t b = 0; b < q->cfg.ring.n_buckets; b++)
        len += (size_t)snprintf(*all + len, cap - len, "%s%u", b ? "," : "", b);
    (*all)[len++] = '}';
    (*all)[len] = 0;
    return *all;
}

/* An unregistered session registers inside the EXPLAIN's transaction (rolled back), so the
 * claim hands rows to a live incarnation: its incarnation into inc. */
static void explain_incarnation(rb_queue *q, rb_claim_mode mode, char inc[24]) {
    snprintf(inc, 24, "%s", q->incarnation_param[0] ? q->incarnation_param : "0");
    if (q->registered) return;
    char ttl[16];
    snprintf(ttl, sizeof ttl, "%u", q->cfg.ttl_ms);
    const char *reg[] = {q->worker_id, ttl, rb_claim_mode_name(mode)};
    PGresult *t = PQexecParams(q->conn, rb_queue_sql("register"), 3, NULL, reg, NULL, NULL, 0);
    if (PQresultStatus(t) == PGRES_TUPLES_OK && PQntuples(t) == 1)
        snprintf(inc, 24, "%s", PQgetvalue(t, 0, 0));
    PQclear(t);
}

/* The walk reads the owned buckets from the worker's published view (claim_walk.sql): publish
 * `owned` inside the EXPLAIN's transaction (rolled back). 0 or RB_EDB. */
static int explain_view(rb_queue *q, const char *inc, const char *owned) {
    const char *params[] = {q->worker_id, "{}", owned, inc};
    PGresult *t =
        PQexecParams(q->conn, rb_queue_sql("publish_view"), 4, NULL, params, NULL, NULL, 0);
    int ok = PQresultStatus(t) == PGRES_COMMAND_OK;
    if (!ok) rb_set_error(RB_EDB, "%s", PQresultErrorMessage(t));
    PQclear(t);
    return ok ? 0 : RB_EDB;
}

int rb_queue_explain_competing(rb_claim_mode mode, int flags) {
    return claim_is_competing(mode, (flags & RB_EXPLAIN_ALONE) != 0);
}

int rb_queue_explain(rb_queue *q, rb_claim_mode mode, int flags, char **text) {
    *text = NULL;
    if (need_migrated(q)) return RB_EDB; /* else the claim fails inside the transaction */
    char batch[16], lease[16], inc[24], age[16], head[24], *all;
    snprintf(batch, sizeof batch, "%u", q->cfg.batch);
    snprintf(lease, sizeof lease, "%u", q->cfg.lease_ms);
    snprintf(age, sizeof age, "%u", q->cfg.age_bound_ms);
    /* the rows the age scan reads for the view published below (every bucket when the
     * session owns none: explain_buckets) */
    snprintf(head, sizeof head, "%llu",
             (unsigned long long)age_scan_rows(q, q->n_owned ? q->n_owned : q->cfg.ring.n_buckets));
    const char *owned = explain_buckets(q, &all);
    int alone = (flags & RB_EXPLAIN_ALONE) && mode != RB_CLAIM_COMPETING;
    int aged = (flags & RB_EXPLAIN_AGED) && mode == RB_CLAIM_AFFINITY && !alone;
    const char *claim = claim_sql_of(q, mode, alone, aged);
    if (!owned || !claim) return free(all), RB_ENOMEM;
    int competing = claim_is_competing(mode, alone);
    int n = claim_n_params(mode, alone, aged), rc = 0;
    if (exec_simple(q->conn, "BEGIN")) rc = RB_EDB;
    /* the plan an ordered worker's session gets, whatever this session's mode */
    if (!rc && mode == RB_CLAIM_ORDERED && exec_simple(q->conn, ordered_planner_off_local))
        rc = RB_EDB;
    if (!rc) explain_incarnation(q, mode, inc);
    if (!rc && mode != RB_CLAIM_COMPETING) rc = explain_view(q, inc, owned);
    /* the walk from the first owned bucket, the age scan from the head ($8 NULL); the
     * competing claim from the front unless RB_EXPLAIN_HEAD */
    const char *pos = !competing ? "1" : (flags & RB_EXPLAIN_HEAD) ? "true" : "false";
    const char *params[] = {q->worker_id, batch, lease, inc, pos, age, head, NULL, "0"};
    char *sql = NULL;
    if (!rc) rc = explain_sql(q->conn, claim, flags, params, n, &sql);
    int generic = flags & RB_EXPLAIN_GENERIC;
    PGresult *r = rc ? NULL
                     : PQexecParams(q->conn, sql, generic ? 0 : n, NULL, generic ? NULL : params,
                                    NULL, NULL, 0);
    if (!rc && PQresultStatus(r) != PGRES_TUPLES_OK)
        rc = rb_set_error(RB_EDB, "%s", PQresultErrorMessage(r));
    else if (!rc && !(*text = result_lines(r)))
        rc = rb_set_error(RB_ENOMEM, "out of memory");
    PQclear(r);
    exec_simple(q->conn, "ROLLBACK");
    /* not through exec_simple: after a failed prepare it would replace the cause with its own */
    if (generic) PQclear(PQexec(q->conn, "DEALLOCATE rb_explain_claim"));
    free(sql);
    free(all);
    return rc;
}

/* ---- added for `ringbench pg bench` (issue 6): batched completion ---- */

/* The three array parameters of complete_batch for rows[0 .. n): ids, lease generations,
 * effects ("{...}", malloc'd into arr[3]). 0 or RB_ENOMEM (nothing left allocated). */
static int complete_arrays(const rb_queue_row *rows, size_t n, const char *const *effects,
                           char *arr[3]) {
    size_t len[3] = {0}, cap[3] = {0};
    for (int a = 0; a < 3; a++) {
        cap[a] = 64 + n * 24;
        if ((arr[a] = malloc(cap[a]))) arr[a][0] = '{', len[a] = 1;
    }
    char id[24], gen[24];
    for (size_t i = 0; i < n && arr[0] && arr[1] && arr[2]; i++) {
        snprintf(id, sizeof id, "%lld", (long long)rows[i].id);
        snprintf(gen, sizeof gen, "%lld", (long long)rows[i].lease_generation);
        arr[0] = array_append(arr[0], &len[0], &cap[0], id, i == 0);
        arr[1] = array_append(arr[1], &len[1], &cap[1], gen, i == 0);
        arr[2] = array_append(arr[2], &len[2], &cap[2], effects ? effects[i] : NULL, i == 0);
    }
    int ok = 1;
    for (int a = 0; a < 3; a++) {
        if (!arr[a])
            ok = 0;
        else
            arr[a][len[a]++] = '}', arr[a][len[a]] = 0;
    }
    if (ok) return 0;
    for (int a = 0; a < 3; a++)
        free(arr[a]), arr[a] = NULL;
    return rb_set_error(RB_ENOMEM, "out of memory");
}

/* The completion of rows[0 .. n) as one statement, the session's prepared statement stmt:
 * for one row complete.sql with scalar parameters, whose generic plan the server adopts
 * after five executions (no planning per row); for more, complete_batch.sql with arrays,
 * whose custom plan stays cheaper than its generic one (the planner knows the arrays'
 * length) and is made on every call, about 0.2 ms spread over the batch. arr holds the
 * array forms of a batch (NULL for one row: no allocation per row); params point into the
 * struct, which is not to be copied. */
typedef struct complete_call {
    stmt_id stmt;
    const char *sql;
    const char *params[4];
    char *arr[3];
    char id[24], gen[24];
} complete_call;

/* Fill c for rows[0 .. n) (n >= 1) of worker q. 0 or RB_ENOMEM (nothing allocated). */
static int complete_call_init(const rb_queue *q, const rb_queue_row *rows, size_t n,
                              const char *const *effects, complete_call *c) {
    memset(c->arr, 0, sizeof c->arr);
    if (n > 1 && complete_arrays(rows, n, effects, c->arr)) return RB_ENOMEM;
    const char *effect0 = effects ? effects[0] : NULL;
    snprintf(c->id, sizeof c->id, "%lld", (long long)rows[0].id);
    snprintf(c->gen, sizeof c->gen, "%lld", (long long)rows[0].lease_generation);
    c->stmt = n == 1 ? STMT_COMPLETE : STMT_COMPLETE_BATCH;
    c->sql = rb_queue_sql(n == 1 ? "complete" : "complete_batch");
    c->params[0] = n == 1 ? c->id : c->arr[0];
    c->params[1] = n == 1 ? c->gen : c->arr[1];
    c->params[2] = q->worker_id;
    c->params[3] = n == 1 ? effect0 : c->arr[2];
    return 0;
}

static void complete_call_free(complete_call *c) {
    for (int a = 0; a < 3; a++)
        free(c->arr[a]), c->arr[a] = NULL;
}

/* Mark done[i] for each row of rows[0 .. n) that complete_batch's result r names (the ids
 * it completed); the count. r is not cleared. */
static size_t complete_read(const PGresult *r, const rb_queue_row *rows, size_t n,
                            unsigned char *done) {
    size_t k = 0;
    for (int t = 0; t < PQntuples(r); t++) {
        long long got = strtoll(PQgetvalue(r, t, 0), NULL, 10);
        for (size_t i = 0; i < n; i++)
            if (rows[i].id == got) {
                if (done && !done[i]) done[i] = 1;
                k++;
                break;
            }
    }
    return k;
}

int rb_queue_complete_batch(rb_queue *q, const rb_queue_row *rows, size_t n,
                            const char *const *effects, unsigned char *done, size_t *n_done) {
    if (n_done) *n_done = 0;
    if (done) memset(done, 0, n);
    if (n == 0) return 0;
    complete_call c;
    if (complete_call_init(q, rows, n, effects, &c)) return RB_ENOMEM;
    int reconnected = 0;
    PGresult *r = exec_retry_named(q, c.stmt, c.sql, 4, c.params, PGRES_TUPLES_OK, &reconnected);
    if (r && reconnected) {
        /* The first attempt may have committed before the drop: count the
         * effect rows of these leases instead. */
        PQclear(r);
        char id1[26], gen1[26]; /* one row: completed_check takes arrays */
        snprintf(id1, sizeof id1, "{%s}", c.id);
        snprintf(gen1, sizeof gen1, "{%s}", c.gen);
        const char *check[3] = {n > 1 ? c.arr[0] : id1, n > 1 ? c.arr[1] : gen1, q->worker_id};
        r = exec_retry(q, rb_queue_sql("completed_check"), 3, check, PGRES_TUPLES_OK, NULL);
    }
    complete_call_free(&c);
    if (!r) return RB_EDB;
    size_t k = complete_read(r, rows, n, done);
    PQclear(r);
    if (n_done) *n_done = k;
    return 0;
}

/* ---- the liveness model (issue 10) ---- */

/* "{a,b,...}" of n int64 values (malloc'd; NULL when out of memory). */
static char *int64_array(const int64_t *v, size_t n) {
    char *s = malloc(3 + n * 21), *p = s;
    if (!s) return NULL;
    *p++ = '{';
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "%s%lld", i ? "," : "", (long long)v[i]);
    *p++ = '}';
    *p = 0;
    return s;
}

int rb_queue_extend_batch(rb_queue *q, const int64_t *ids, const int64_t *gens, size_t n,
                          uint32_t lease_ms, unsigned char *kept) {
    memset(kept, 0, n);
    if (n == 0) return 0;
    char *a = int64_array(ids, n), *g = int64_array(gens, n), lease[16];
    snprintf(lease, sizeof lease, "%u", lease_ms);
    if (!a || !g) {
        free(a);
        free(g);
        return rb_set_error(RB_ENOMEM, "out of memory");
    }
    const char *params[] = {a, g, q->worker_id, lease, q->incarnation_param};
    PGresult *r = exec_retry(q, rb_queue_sql("extend_batch"), 5, params, PGRES_TUPLES_OK, NULL);
    free(a);
    free(g);
    if (!r) return RB_EDB;
    for (int t = 0; t < PQntuples(r); t++) {
        long long id = strtoll(PQgetvalue(r, t, 0), NULL, 10);
        for (size_t i = 0; i < n; i++)
            if (ids[i] == id) kept[i] = 1;
    }
    PQclear(r);
    return 0;
}

void rb_queue_dead_letters_free(rb_queue_dead_letters *d) {
    if (!d) return;
    free(d->rows);
    PQclear((PGresult *)d->result_);
    memset(d, 0, sizeof *d);
}

int rb_queue_dead_letters_get(rb_queue *q, size_t limit, rb_queue_dead_letters *out) {
    memset(out, 0, sizeof *out);
    if (need_migrated(q)) return RB_EDB;
    char lim[24];
    snprintf(lim, sizeof lim, "%zu", limit);
    const char *params[] = {lim};
    PGresult *r = exec_retry(q, rb_queue_sql("dead_letters"), 1, params, PGRES_TUPLES_OK, NULL);
    if (!r) return RB_EDB;
    size_t n = (size_t)PQntuples(r);
    out->rows = calloc(n ? n : 1, sizeof *out->rows);
    if (!out->rows) {
        PQclear(r);
        return rb_set_error(RB_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        int t = (int)i;
        rb_queue_dead_letter *d = &out->rows[i];
        d->id = strtoll(PQgetvalue(r, t, 0), NULL, 10);
        d->partition_key = PQgetvalue(r, t, 1);
        d->idempotency_key = PQgetvalue(r, t, 2);
        d->attempts = (uint32_t)strtoul(PQgetvalue(r, t, 3), NULL, 10);
        d->claims = (uint32_t)strtoul(PQgetvalue(r, t, 4), NULL, 10);
        d->redrive_count = (uint32_t)strtoul(PQgetvalue(r, t, 5), NULL, 10);
        d->last_error = PQgetvalue(r, t, 6);
        d->failed_at = PQgetvalue(r, t, 7);
    }
    out->n = n;
    out->result_ = r;
    return 0;
}

int rb_queue_redrive(rb_queue *q, const int64_t *ids, size_t n, int all, size_t *n_redriven) {
    if (n_redriven) *n_redriven = 0;
    if (need_migrated(q)) return RB_EDB;
    char *a = int64_array(ids, n);
    if (!a) return rb_set_error(RB_ENOMEM, "out of memory");
    const char *params[] = {a, all ? "true" : "false"};
    PGresult *r = exec_retry(q, rb_queue_sql("redrive"), 2, params, PGRES_TUPLES_OK, NULL);
    free(a);
    if (!r) return RB_EDB;
    int rc = 0;
    if (strcmp(PQgetvalue(r, 0, 0), "t") != 0)
        rc = rb_set_error(RB_EINVAL,
                          "row %s is not a dead letter (no failed row with that id): "
                          "nothing re-driven",
                          PQgetvalue(r, 0, 2));
    else if (n_redriven)
        *n_redriven = strtoul(PQgetvalue(r, 0, 1), NULL, 10);
    PQclear(r);
    return rc;
}

/* ---- issue 11, target 4: one commit per row at batch 1 ---- */

/* Statements of the chained transaction, in the order they are sent and read. */
enum {
    CHAIN_BEGIN,
    CHAIN_PREPARE_COMPLETE,
    CHAIN_COMPLETE,
    CHAIN_PREPARE_CLAIM,
    CHAIN_CLAIM,
    CHAIN_COMMIT,
    N_CHAIN
};

/* Send the session's prepared statement stmt (sql, n_params) with params, preceded by its
 * PREPARE when this session has not prepared it (*sent_prepare set then). 1 when libpq took
 * both, else 0. */
static int chain_send_prepared(rb_queue *q, stmt_id stmt, const char *sql, int n_params,
                               const char *const *params, int *sent_prepare) {
    if (q->prepared_on[stmt] != q->conn_serial &&
        !(*sent_prepare = PQsendPrepare(q->conn, stmt_names[stmt], sql, n_params, NULL)))
        return 0;
    return PQsendQueryPrepared(q->conn, stmt_names[stmt], n_params, params, NULL, NULL, 0);
}

/* Send the chained transaction in pipeline mode: BEGIN, the completion, the claim (each
 * prepared first when this session has not prepared it: sent[CHAIN_PREPARE_*]), COMMIT,
 * then a sync; one round trip and one commit. 0, or RB_EDB when libpq refused to send. */
static int chain_send(rb_queue *q, const complete_call *cc, const claim_call *c,
                      int sent[N_CHAIN]) {
    PGconn *k = q->conn;
    memset(sent, 0, N_CHAIN * sizeof *sent);
    int ok = sent[CHAIN_BEGIN] = PQsendQueryParams(k, "BEGIN", 0, NULL, NULL, NULL, NULL, 0);
    ok = ok && (sent[CHAIN_COMPLETE] = chain_send_prepared(q, cc->stmt, cc->sql, 4, cc->params,
                                                           &sent[CHAIN_PREPARE_COMPLETE]));
    ok = ok && (sent[CHAIN_CLAIM] = chain_send_prepared(q, c->stmt, c->sql, c->n_params, c->params,
                                                        &sent[CHAIN_PREPARE_CLAIM]));
    ok = ok && (sent[CHAIN_COMMIT] = PQsendQueryParams(k, "COMMIT", 0, NULL, NULL, NULL, NULL, 0));
    /* the sync goes out even after a refusal, so that chain_drain finds the end of the pipeline */
    if (PQpipelineSync(k) && ok) return 0;
    return rb_set_error(RB_EDB, "%s", PQerrorMessage(k));
}

/* The result of the next statement of the pipeline (caller PQclears) when its status is
 * `want`; else NULL with RB_EDB set (the server's message). Consumes the NULL that ends it. */
static PGresult *chain_result(rb_queue *q, ExecStatusType want) {
    PGresult *r = PQgetResult(q->conn), *end = r ? PQgetResult(q->conn) : NULL;
    PQclear(end);
    if (r && PQresultStatus(r) == want) return r;
    rb_set_error(RB_EDB, "%s", r ? PQresultErrorMessage(r) : PQerrorMessage(q->conn));
    PQclear(r);
    return NULL;
}

/* chain_result for a statement whose result is not needed (BEGIN, PREPARE, COMMIT): 1 when
 * it succeeded, else 0 with RB_EDB set. */
static int chain_ok(rb_queue *q) {
    PGresult *r = chain_result(q, PGRES_COMMAND_OK);
    PQclear(r);
    return r != NULL;
}

/* The PREPARE of statement stmt, when it was sent (sent != 0): 1 when it succeeded (the
 * session now holds the statement) or was not sent, else 0 with RB_EDB set. */
static int chain_prepared(rb_queue *q, stmt_id stmt, int sent) {
    if (!sent) return 1;
    if (!chain_ok(q)) return 0;
    q->prepared_on[stmt] = q->conn_serial;
    return 1;
}

/* Read every result up to the pipeline's sync and leave pipeline mode; a session that cannot
 * leave it (results still owed) is closed, so that the next statement reconnects. */
static void chain_drain(rb_queue *q) {
    for (int guard = 0; guard < 4 * N_CHAIN && PQstatus(q->conn) == CONNECTION_OK; guard++) {
        PGresult *r = PQgetResult(q->conn);
        int sync = r && PQresultStatus(r) == PGRES_PIPELINE_SYNC;
        PQclear(r);
        if (sync) break;
    }
    if (!PQexitPipelineMode(q->conn)) {
        PQfinish(q->conn);
        q->conn = NULL;
    }
}

/* One try of the chained transaction in one round trip (chain_send); 0 when it committed
 * (done, *n_done, next filled), else RB_EDB / RB_ENOMEM with nothing of it committed,
 * unless the reply to COMMIT was lost. */
static int chain_once(rb_queue *q, const rb_queue_row *rows, size_t n, const complete_call *cc,
                      const claim_call *c, unsigned char *done, size_t *n_done,
                      rb_queue_batch *next) {
    int sent[N_CHAIN];
    if (!PQenterPipelineMode(q->conn)) return rb_set_error(RB_EDB, "%s", PQerrorMessage(q->conn));
    int rc = chain_send(q, cc, c, sent);
    PGresult *completed = NULL, *claimed = NULL;
    /* in the order sent: BEGIN, [PREPARE], the completion, [PREPARE], the claim, COMMIT */
    int committed = !rc && chain_ok(q) &&
                    chain_prepared(q, cc->stmt, sent[CHAIN_PREPARE_COMPLETE]) &&
                    (completed = chain_result(q, PGRES_TUPLES_OK)) &&
                    chain_prepared(q, c->stmt, sent[CHAIN_PREPARE_CLAIM]) &&
                    (claimed = chain_result(q, PGRES_TUPLES_OK)) && chain_ok(q);
    chain_drain(q);
    if (committed) {
        *n_done = complete_read(completed, rows, n, done);
        rc = claim_read(q, c, claimed, next); /* next takes `claimed`, or it is cleared */
        claimed = NULL;
    } else if (!rc)
        rc = RB_EDB;
    PQclear(completed), PQclear(claimed);
    return rc;
}

int rb_queue_complete_and_claim(rb_queue *q, const rb_queue_row *rows, size_t n,
                                const char *const *effects, unsigned char *done, size_t *n_done,
                                rb_queue_batch *next, int *chained) {
    rb_queue_batch_free(next);
    if (chained) *chained = 0;
    if (n_done) *n_done = 0;
    if (done) memset(done, 0, n);
    /* chained when there is something to complete, a session, and a claim to send (a worker
     * that owns no bucket has none); else, and after a failure, the two each on its own */
    claim_call c;
    complete_call cc;
    int usable = n && done && n_done && q->conn && PQstatus(q->conn) == CONNECTION_OK;
    if (usable && claim_call_init(q, &c) == 1 &&
        complete_call_init(q, rows, n, effects, &cc) == 0) {
        int rc = chain_once(q, rows, n, &cc, &c, done, n_done, next);
        complete_call_free(&cc);
        if (rc == 0 || rc == RB_ENOMEM) {
            if (chained) *chained = rc == 0;
            return rc;
        }
        /* Nothing committed, unless the reply to COMMIT was lost: then the completion
         * below finds the rows done (completed_check after its reconnect), and the rows
         * the lost claim took stay leased to this worker until their lease ends. */
        rb_queue_batch_free(next);
        if (q->conn && PQstatus(q->conn) == CONNECTION_OK &&
            PQtransactionStatus(q->conn) != PQTRANS_IDLE)
            exec_simple(q->conn, "ROLLBACK");
    }
    int rc = rb_queue_complete_batch(q, rows, n, effects, done, n_done);
    return rc ? rc : rb_queue_claim(q, next);
}
