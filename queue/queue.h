/*
 * queue/queue.h — the ringbench Postgres claim protocol over libpq.
 *
 * One rb_queue is one database session (a libpq connection) plus the identity
 * and configuration of one worker or producer. The protocol (queue/README.md):
 *
 *   enqueue   rows (partition_key, partition_bucket = rb_bucket_of(key),
 *             idempotency_key UNIQUE, payload); a duplicate idempotency key
 *             inserts nothing and is counted as a duplicate.
 *   claim     up to `batch` pending rows whose run_at has come, through a
 *             MATERIALIZED CTE ... ORDER BY run_at, id LIMIT batch FOR UPDATE
 *             SKIP LOCKED, then one UPDATE setting status 'claimed',
 *             claimed_by, lease_expires_at = clock_timestamp() + lease (at
 *             lock time), lease_generation + 1, claims + 1. Modes: competing consumers,
 *             bucket affinity (partition_bucket = ANY(owned buckets)), and
 *             affinity + the ordering guard (no older unfinished row with the
 *             same partition_key).
 *   complete / fail / release / extend
 *             each matches (id, lease_generation, claimed_by, status
 *             'claimed'); 0 rows => RB_ELOST, nothing changed.
 *   heartbeat UPDATE workers SET last_seen_at = now() of this worker and
 *             incarnation (RB_ELOST once a housekeeper has marked it dead or
 *             its id was registered again: the incarnation is over).
 *   membership live workers: status 'alive' AND last_seen_at > now() - TTL;
 *             the ring over them gives this worker's owned buckets.
 *   housekeep under pg_try_advisory_xact_lock: mark dead workers, release
 *             expired leases (run_at moves to now() so a reclaimed row queues
 *             behind the others; rows out of attempts become 'failed'); with a
 *             retention, delete done rows older than it (a bounded batch).
 *
 * All lease and liveness arithmetic happens in SQL with the database clock
 * (now()); the client clock is used only for local pacing (how often to
 * heartbeat) and never decides a lease.
 *
 * Errors: 0 or a negative RB_E* code (ringbench/error.h) with a message from
 * rb_error_detail(): RB_EINVAL (bad configuration), RB_EDB (server error or a
 * connection that could not be re-established within retry_ms), RB_ELOST
 * (lease or membership lost: the write changed nothing), RB_ENOMEM.
 *
 * Transient errors: every call re-runs its statement, with exponential backoff
 * (10 ms doubling to 1 s, equal jitter) until retry_ms has passed since the
 * first failure, after: connection loss (class 08, or the connection is bad),
 * admin/crash shutdown and cannot-connect-now (57P01-57P03), read-only
 * transaction (25006, as after a failover), serialization failure and
 * deadlock (40001, 40P01), lock and statement timeouts (55P03, 57014), too many
 * connections (53300). The first two kinds reconnect. Each statement is a
 * single-statement transaction, so a retry never half-applies. Any other error
 * is returned at once (RB_EDB).
 *
 * Thread safety: an rb_queue is used by one thread at a time (like a PGconn);
 * distinct rb_queue objects are independent.
 */
#ifndef RINGBENCH_QUEUE_H
#define RINGBENCH_QUEUE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "ringbench/ring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Claim modes (the seed's three coordination models). */
typedef enum rb_claim_mode {
    RB_CLAIM_COMPETING = 0, /* any pending row: competing consumers with SKIP LOCKED */
    RB_CLAIM_AFFINITY = 1,  /* only rows in buckets this worker owns on the live ring */
    RB_CLAIM_ORDERED = 2,   /* affinity + no older unfinished row with the same partition_key */
} rb_claim_mode;

/* "competing", "affinity", "ordered"; NULL for an unknown value. */
const char *rb_claim_mode_name(rb_claim_mode m);
/* Parse a mode name into *out: 0, or RB_EUNKNOWN with a detail. */
int rb_claim_mode_parse(const char *name, rb_claim_mode *out);

/* Configuration of one session. rb_queue_config_init() then override. */
/* Size of a worker id buffer: ids are at most RB_QUEUE_WORKER_ID_MAX - 1 bytes. */
#define RB_QUEUE_WORKER_ID_MAX 256
/* Rows per claim at most (rb_queue_config.batch; the CLI's --batch range). */
#define RB_QUEUE_MAX_BATCH 1000000u
/* Largest hash seed of a queue: queue_config and the bucket trigger hand the seed to the
 * extension's ringbench_bucket(..., seed bigint), so a queue's seed is 0 .. 2^63 - 1 although
 * the library's seeds are uint64 (rb_queue_migrate refuses a larger one). */
#define RB_QUEUE_MAX_SEED ((uint64_t)INT64_MAX)

/* The largest age bound of affinity claims (rb_queue_config.age_bound_ms): one day. */
#define RB_QUEUE_AGE_BOUND_MAX_MS 86400000u

typedef struct rb_queue_config {
    const char *conninfo;  /* libpq conninfo or URI; NULL or "" = libpq defaults (PG* env) */
    const char *schema;    /* schema holding the queue tables; default "ringbench" */
    const char *worker_id; /* NULL: generated "hostname:pid:random" (unique per incarnation);
                              else 1 .. RB_QUEUE_WORKER_ID_MAX - 1 bytes */
    rb_claim_mode mode;    /* default RB_CLAIM_COMPETING */
    uint32_t batch;        /* rows per claim, 1 .. RB_QUEUE_MAX_BATCH (default 16) */
    uint32_t lease_ms;     /* claim lease, > 0 (default 30000) */
    uint32_t heartbeat_ms; /* heartbeat interval, > 0 and <= ttl_ms / 3 (default 1000) */
    uint32_t ttl_ms;       /* liveness TTL, > 0 (default 3000) */
    uint32_t max_attempts; /* handler starts before a row fails for good (default 5) */
    uint32_t retry_ms;     /* how long to retry a transient server error (10000) */
    /* Claims of one row before it fails for good although its handler never
     * started (its workers died holding it); 0 = 3 * max_attempts. */
    uint32_t max_row_claims;
    /* Backoff of a failed row: min(cap, base * 2^(attempts - 1)) ms with equal
     * jitter (x 0.5 .. 1). Defaults 500 and 60000; base >= 1, cap >= base. */
    uint32_t backoff_base_ms, backoff_cap_ms;
    /* Ordered mode: 0 (default) = a key whose oldest unfinished row failed for
     * good is blocked until that row is re-driven; 1 = skip it (later rows of
     * the key run). */
    int ordered_skip_failed;
    /* Affinity and ordered modes: 0 (default) = a worker that owns every bucket (the only
     * live member it sees) claims from the whole queue in (run_at, id) order, as competing
     * consumers do (affinity: the competing claim; ordered: queue/sql/claim_window.sql),
     * and walks its owned buckets otherwise; 1 = always walk the owned buckets (what a
     * worker with peers runs: to inspect or measure the walk alone). */
    int walk_always;
    /* Affinity mode, the walk: an owned pending row whose run_at is more than age_bound_ms
     * ago is claimed before the walk's rows, oldest first (queue/sql/claim_affinity.sql):
     * the walk serves the owned buckets in turn, so under a standing backlog a bucket that
     * receives more than its turn's share would fall ever further behind. 0 = no bound
     * (buckets in turn only); 0 .. RB_QUEUE_AGE_BOUND_MAX_MS; default 30000. */
    uint32_t age_bound_ms;
    /* Ring used for affinity modes. n_buckets, bucket_hash and seed are always
     * taken from the queue's queue_config row when it exists (rb_queue_open);
     * n_vnodes and ring_hash too unless ring_override is set; algo unless
     * ring_override is set and algo is non-NULL. */
    const rb_algo *algo; /* default: queue_config.algo, else "binary" */
    rb_config ring;
    int ring_override;
    /* Planner switches for tests: comma-separated names among hashjoin,
     * mergejoin, nestloop, seqscan, indexscan, bitmapscan, sort; each gets
     * SET enable_<name> = off in the session. NULL = none. */
    const char *planner_off;
    /* Stop flag, e.g. set by a SIGTERM handler; NULL = none. Once *interrupt
     * is nonzero, retries stop: a reconnect or a transient failure that
     * would be retried (up to retry_ms) fails at once with RB_EDB ("...;
     * gave up: interrupted"), within one backoff sleep (<= 1 s), and a connect
     * in progress is abandoned within 50 ms (pg_connect.h: a server that
     * accepts and never answers; one begun after the stop, to leave, is
     * bounded to 5 s instead), and a statement whose server has not answered
     * within max(retry_ms, 3 s) of the stop is given up (rb_queue_cancel). A statement that
     * succeeds first time is not affected (a worker can still finish and release its batch). Read
     * only, from any thread. */
    const volatile sig_atomic_t *interrupt;
} rb_queue_config;

/* rb_queue_config_init — the defaults above; never fails. */
void rb_queue_config_init(rb_queue_config *cfg);

/*
 * rb_queue_config_validate — 0, or RB_EINVAL with a detail naming the bad
 * field: batch 1 .. RB_QUEUE_MAX_BATCH, lease_ms > 0, ttl_ms > 0, heartbeat_ms > 0 and
 * heartbeat_ms <= ttl_ms / 3, max_attempts >= 1, schema a plain identifier
 * ([a-z_][a-z0-9_]*, <= 63 bytes), worker_id (when set) 1 to
 * RB_QUEUE_WORKER_ID_MAX - 1 bytes, planner_off names known, conninfo (when
 * set) parses as a libpq conninfo or URI (PQconninfoParse; nothing is
 * connected). Pure.
 */
int rb_queue_config_validate(const rb_queue_config *cfg);

typedef struct rb_queue rb_queue;

/*
 * rb_queue_open — validate `cfg`, connect (retrying for cfg->retry_ms), set
 * search_path to cfg->schema and the planner switches, read queue_config when
 * the schema is migrated. Copies every string of cfg. On success *out owns a
 * session to free with rb_queue_close; on failure *out is NULL and the code is
 * RB_EINVAL or RB_EDB (detail: libpq's message).
 */
int rb_queue_open(const rb_queue_config *cfg, rb_queue **out);

/* rb_queue_close — leave (when registered and not told otherwise by
 * rb_queue_abandon), disconnect, free. NULL is a no-op. */
void rb_queue_close(rb_queue *q);

/* rb_queue_abandon — disconnect without leaving the membership and without
 * touching held leases: simulates a crash (tests). The session stays usable
 * only for rb_queue_close. */
void rb_queue_abandon(rb_queue *q);

/* rb_queue_worker_id — this session's worker id (NUL-terminated, owned by q). */
const char *rb_queue_worker_id(const rb_queue *q);

/* rb_queue_config_of — the configuration in effect (strings owned by q). */
const rb_queue_config *rb_queue_config_of(const rb_queue *q);

/* rb_queue_registered — 1 after rb_queue_register until leave/abandon. */
int rb_queue_registered(const rb_queue *q);

/* rb_queue_incarnation — the incarnation of the last rb_queue_register (0
 * before): each registration of an id is a new incarnation. */
int64_t rb_queue_incarnation(const rb_queue *q);

/*
 * rb_queue_open_companion — a second session (its own connection) acting for
 * the same worker id and incarnation as `q`, for a thread that heartbeats and
 * extends leases while `q`'s thread runs handlers (queue/worker.h). Closing it
 * does not leave the membership. Errors as rb_queue_open. The two sessions are
 * independent objects, each used by one thread at a time, sharing one thing:
 * the reconnect window (cfg.retry_ms runs from the first failed connect of
 * either since the last good one), so a worker whose server is lost gives up
 * once, not once per session. Close the companion before `q`.
 */
int rb_queue_open_companion(rb_queue *q, rb_queue **out);

/* rb_queue_n_reconnects — reconnects after lost connections so far. */
uint64_t rb_queue_n_reconnects(const rb_queue *q);

/* rb_queue_ring_config — the ring parameters in effect (after open/migrate). */
const rb_config *rb_queue_ring_config(const rb_queue *q);

/*
 * rb_queue_migrate — create the schema, tables and indexes (queue/schema.sql)
 * if missing and record the ring parameters of `ring` (B, hashes, seed) and
 * `algo` in queue_config on the first run. Idempotent; a later run with a
 * different B, bucket hash or seed (the stored buckets would be wrong), or a
 * different default ring (ring hash, algo, vnodes: workers would silently keep
 * the recorded one) fails with RB_EINVAL and changes nothing; so does a seed
 * above RB_QUEUE_MAX_SEED (the bucket trigger could not pass it on). Runs in one
 * transaction under an advisory lock.
 */
int rb_queue_migrate(rb_queue *q, const rb_algo *algo, const rb_config *ring);

/*
 * rb_queue_ring_check — what rb_queue_migrate requires of `ring` beyond the
 * library's own checks: seed <= RB_QUEUE_MAX_SEED. 0, or RB_EINVAL with a
 * detail. Pure (no session): the CLI calls it before connecting.
 */
int rb_queue_ring_check(const rb_config *ring);

/* One row to enqueue. Strings are NUL-terminated text (no NUL bytes). */
typedef struct rb_queue_item {
    const char *partition_key;   /* the key; bucket = rb_bucket_of(ring, key) */
    const char *idempotency_key; /* unique across the queue */
    const char *payload;         /* may be NULL */
} rb_queue_item;

/*
 * rb_queue_enqueue — insert items[0 .. n) in one statement (INSERT ... SELECT
 * FROM unnest(arrays) ON CONFLICT (idempotency_key) DO NOTHING), so all rows
 * or none: on any error no row of the call is in the queue. *n_inserted (may
 * be NULL) gets the rows created; n minus that is the number of duplicate
 * idempotency keys (a key of a row in the inbox, or of a row completed before
 * and deleted by retention: its effect row refuses it) (after a reconnect the statement may have
 * committed before the drop: its re-run then counts those rows as duplicates). Needs a migrated
 * schema. Memory: about twice the bytes of the items.
 */
int rb_queue_enqueue(rb_queue *q, const rb_queue_item *items, size_t n, size_t *n_inserted);

/* One claimed row. Strings are owned by the rb_queue_batch they came in. */
typedef struct rb_queue_row {
    int64_t id;
    int64_t lease_generation; /* fencing token of this claim */
    uint32_t partition_bucket;
    uint32_t attempts; /* handler starts before this claim (recorded ones) */
    const char *partition_key;
    const char *idempotency_key;
    const char *payload; /* NULL when the column is NULL */
    uint32_t claims;     /* leases handed out for this row, including this one */
    int aged; /* 1: claimed for its age, past the age bound (rb_queue_config.age_bound_ms) */
    /* 1: a suspect: its handler was started under an earlier lease (rb_queue_start) and has
     * neither completed nor failed since: the worker died, stalled or lost the lease inside
     * it, so it may be a poison row. rb_worker_run runs the batch's suspects after its other
     * rows (in ordered mode with the later rows of their keys). 0 for rows whose starts were
     * never recorded (a first claim's start is recorded only with its completion). */
    int suspect;
} rb_queue_row;

/* The result of one claim: rows[0 .. n), n <= batch. */
typedef struct rb_queue_batch {
    rb_queue_row *rows;
    size_t n;
    void *result_; /* private: the PGresult the strings point into */
} rb_queue_batch;

/* rb_queue_batch_free — free a batch's storage (not its leases); the struct
 * may be reused. Zeroed or freed batches are fine. */
void rb_queue_batch_free(rb_queue_batch *b);

/*
 * rb_queue_register — insert this worker into `workers` as alive (status,
 * last_seen_at = now()). Called by rb_queue_open's users before claiming;
 * affinity modes also need rb_queue_refresh_membership. An id already alive
 * in `workers` (another process uses it) is refused with RB_EINVAL and nothing
 * changes; a dead or left id is taken over.
 */
int rb_queue_register(rb_queue *q);

/*
 * rb_queue_heartbeat — last_seen_at = now() for this worker. RB_ELOST when
 * the row is no longer 'alive' (a housekeeper marked it dead): the worker must
 * stop claiming and rejoin under a new id (rb_queue_rejoin).
 */
int rb_queue_heartbeat(rb_queue *q);

/* rb_queue_rejoin — take a fresh worker id and register it (after RB_ELOST
 * from rb_queue_heartbeat). */
int rb_queue_rejoin(rb_queue *q);

/*
 * rb_queue_refresh_membership — read the live membership (status 'alive' and
 * last_seen_at > now() - ttl, database clock), and when it differs from the
 * last one rebuild the ring (rb_ring_build over the live ids, weight 1),
 * recompute this worker's owned buckets (rb_ring_owner_bucket == me) and
 * publish them in workers.owned_buckets / view_members. *changed (may be NULL)
 * is set to 1 when the membership changed. A worker absent from the live
 * membership owns no bucket. The new view is built aside and replaces the
 * current one only when complete: on failure (RB_ENOMEM, RB_EDB, or the ring's
 * error for a member id it rejects) the last good view stays and the next call
 * tries again (it does not take "unchanged" for success).
 */
int rb_queue_refresh_membership(rb_queue *q, int *changed);

/* rb_queue_owned_buckets — the owned buckets from the last refresh
 * (ascending; *n gets the count; pointer valid until the next refresh). */
const uint32_t *rb_queue_owned_buckets(const rb_queue *q, size_t *n);

/* rb_queue_n_live — number of live members seen at the last refresh. */
size_t rb_queue_n_live(const rb_queue *q);

/*
 * rb_queue_claim — claim up to cfg.batch rows in cfg.mode into *out (freed
 * first; 0 rows is success). Affinity modes with no owned bucket claim
 * nothing without a round trip. An affinity worker whose view gives it every
 * bucket (it sees no other live member) sends the competing claim, which
 * picks exactly the same rows (any pending row is of an owned bucket) in
 * global (run_at, id) order; the next refresh that adds a member puts it
 * back on the walk over its owned buckets. Ordered mode may return a run of several
 * rows of one key (its oldest unfinished rows, consecutive, none of them
 * with an older row of the key pending, claimed elsewhere or, under the block
 * policy, failed), rows of several keys side by side. In every mode the rows
 * come in ascending id (whatever order the statement's plan returned them
 * in), so a run's rows are in order. The caller must run a key's
 * rows in that order and must not run a row whose older sibling in the
 * batch failed or was not run (rb_worker_run releases them; see
 * queue/README.md, "Ordered mode: runs").
 */
int rb_queue_claim(rb_queue *q, rb_queue_batch *out);

/*
 * rb_queue_cancel — ask the server to cancel the statement q is running when it is one a stop
 * may abandon: a claim (rb_queue_claim; not a chained claim, which shares its transaction with
 * completions), a housekeeping statement (rb_queue_housekeep), a membership refresh's
 * (rb_queue_refresh_membership) or an enqueue (rb_queue_enqueue), so a stop does not wait for
 * one that is slow (behind a lock, or a bad plan). Returns 1 when the request is taken, 0 when
 * no such statement is running (nothing to do). The wait for the statement's answer sends the
 * cancel within 100 ms, from a thread of its own (libpq's PQcancel waits for the server, which
 * a frozen one never gives); with *cfg.interrupt set it does so unasked, so setting the flag is
 * enough. The cancelled statement rolls back whole (a claim leases nothing, an enqueue inserts
 * nothing); if *cfg.interrupt is set by then, rb_queue_claim returns 0 with no rows,
 * rb_queue_housekeep 0 with an empty report, rb_queue_refresh_membership 0 with the view
 * unchanged, rb_queue_enqueue RB_EDB ("interrupted"); otherwise the statement is retried, as for
 * any cancel. After a stop, any statement whose server has not answered within max(retry_ms,
 * 3 s) is given up: the session is closed and the call fails with RB_EDB ("no answer from the
 * server ... after the stop"). Async-signal-safe (it sets a flag): call it from the handler of
 * the stop signal, on the thread that uses q (block the signal in other threads:
 * rb_worker_run's heartbeat thread does).
 */
int rb_queue_cancel(rb_queue *q);

/*
 * rb_queue_complete — mark `row` done and insert its effect row (effects:
 * idempotency_key, inbox_id, lease_generation, worker_id, effect) in the same
 * statement. RB_ELOST when the lease is no longer this worker's. After a
 * reconnect, a completion that committed before the connection dropped is
 * recognised by its effect row and reported as 0.
 */
int rb_queue_complete(rb_queue *q, const rb_queue_row *row, const char *effect);

/* rb_queue_fail — the handler failed: attempts counts the start; `row` goes
 * back to pending after the backoff min(cap, base * 2^(attempts - 1)) ms with
 * equal jitter (base = retry_ms, or cfg.backoff_base_ms when retry_ms is 0;
 * cap = cfg.backoff_cap_ms), or 'failed' (a dead letter) when out of
 * attempts. RB_ELOST as above. */
int rb_queue_fail(rb_queue *q, const rb_queue_row *row, const char *error, uint32_t retry_ms);

/* rb_queue_release — give `row` back as pending now, without an error (e.g.
 * at shutdown). RB_ELOST as above. */
int rb_queue_release(rb_queue *q, const rb_queue_row *row);

/* rb_queue_extend — lease_expires_at = now() + lease_ms for `row` (lease
 * heartbeat). RB_ELOST as above. */
int rb_queue_extend(rb_queue *q, const rb_queue_row *row, uint32_t lease_ms);

/* What one housekeeping round did. */
typedef struct rb_queue_housekeeping {
    int won_lock;              /* 1 when this session held the advisory lock */
    size_t n_marked_dead;      /* workers this round marked dead */
    size_t n_released;         /* expired leases released to pending */
    size_t n_failed;           /* expired leases out of attempts, now 'failed' */
    char *marked_dead;         /* comma-separated ids marked dead (malloc'd, or NULL) */
    size_t n_purged;           /* done rows past the retention deleted (rb_queue_retention) */
    size_t n_purge_statements; /* retention DELETE statements run (each <= retention_batch) */
} rb_queue_housekeeping;

/*
 * rb_queue_housekeep — one round under pg_try_advisory_xact_lock (key: this
 * schema), in one statement: workers alive with last_seen_at < now() - their
 * ttl_ms become 'dead' (dead_marked_by = this worker); claimed rows with
 * lease_expires_at < now() go back to pending with run_at = now(), or to
 * 'failed' when attempts >= max_attempts or claims >= max_row_claims. Losing the lock is not an
 * error (won_lock = 0). Then, when the queue has a retention, a second statement
 * under the same lock deletes up to its batch of done rows past it
 * (queue/sql/retention_purge.sql), run again while the batch came back full and the
 * lock was won, until half of heartbeat_ms has passed (n_purged rows in
 * n_purge_statements statements; each statement its own transaction, so no lock is
 * held longer than one batch's DELETE): the done rows past the retention stay bounded
 * at any completion rate below what the round deletes in that time. Free
 * report->marked_dead with free().
 */
int rb_queue_housekeep(rb_queue *q, rb_queue_housekeeping *report);

/* rb_queue_leave — status 'left' (graceful exit; the others drop it from the
 * ring at their next refresh). */
int rb_queue_leave(rb_queue *q);

/* Row counts by status, and the workers (rb_queue_status). */
typedef struct rb_queue_counts {
    int64_t n_pending, n_claimed, n_done, n_failed, n_effects;
    int64_t n_workers_alive, n_workers_live, n_workers_dead, n_workers_left;
    int64_t n_blocked; /* pending rows behind a dead letter of their key */
} rb_queue_counts;

/* rb_queue_counts_get — the counts above (live = alive and within TTL). */
int rb_queue_counts_get(rb_queue *q, rb_queue_counts *out);

/* rb_queue_explain flags, or'ed. */
enum {
    RB_EXPLAIN_ANALYZE = 1, /* run the claim (EXPLAIN ANALYZE, BUFFERS), then roll it back */
    RB_EXPLAIN_GENERIC = 2, /* the generic plan (force_generic_plan): the one a session runs
                               once its prepared claim stops being planned per call */
    RB_EXPLAIN_ALONE = 4,   /* the claim of a worker that owns every bucket (the only live
                               member): affinity sends the competing claim, ordered mode
                               claim_window.sql; without it, the walk over the owned buckets */
    RB_EXPLAIN_AGED = 8,    /* affinity: the claim with the age scan from the head
                               (claim_aged.sql), sent when the worker's age scan runs */
    RB_EXPLAIN_HEAD = 16    /* the competing claim (competing mode; affinity with
                               RB_EXPLAIN_ALONE) read from the head of the pending rows, as a
                               worker sends it every 100 ms; without it, from the front (the
                               newest row in flight: claim_competing.sql) */
};

/*
 * rb_queue_explain — EXPLAIN of the claim statement of `mode` with this session's batch, lease
 * and owned buckets (all buckets when none), as `flags` (RB_EXPLAIN_*; 0: the plan for these
 * parameter values, not run). Runs in a transaction that is rolled back (an unregistered
 * session registers inside it). *text gets a malloc'd string, one plan line per line, to
 * free(). RB_EDB (nothing changed) or RB_ENOMEM. Not thread-safe (the session's connection).
 */
int rb_queue_explain(rb_queue *q, rb_claim_mode mode, int flags, char **text);

/* Does rb_queue_explain(q, mode, flags, ...) show the competing claim (claim_competing.sql):
 * competing mode, or affinity with RB_EXPLAIN_ALONE (a worker that owns every bucket sends
 * it)? 1 or 0. Pure; thread-safe. */
int rb_queue_explain_competing(rb_claim_mode mode, int flags);

/* ---- added for `ringbench pg bench` (issue 6) ---- */

/*
 * rb_queue_complete_batch — complete rows[0 .. n) and insert their effect
 * rows (effects[i], or NULL effects when `effects` is NULL) in ONE statement,
 * so one transaction and one commit for the whole batch. Each row is fenced
 * exactly as rb_queue_complete fences it; a row whose lease is no longer this
 * worker's changes nothing and is reported lost. done[i] (may be NULL) gets 1
 * for a completed row, 0 for a lost lease; *n_done (may be NULL) the count.
 * Returns 0 also when some leases were lost (see *n_done), RB_EDB, RB_ENOMEM.
 * After a reconnect, rows whose effect row of this (id, lease_generation,
 * worker) exists count as done (their completion committed before the drop).
 */
int rb_queue_complete_batch(rb_queue *q, const rb_queue_row *rows, size_t n,
                            const char *const *effects, unsigned char *done, size_t *n_done);

/*
 * rb_queue_complete_and_claim — rb_queue_complete_batch(rows, n, effects, done, n_done),
 * then rb_queue_claim(next), in ONE transaction: one commit per claim-complete cycle, so
 * at batch 1 one commit per row instead of two (issue 11, target 4). BEGIN, the two
 * statements and COMMIT go out together in libpq's pipeline mode: one round trip. The completion is
 * fenced by (id, lease_generation) exactly as rb_queue_complete_batch's; the claim is the
 * session's claim statement; the claim sees the completion (ordered mode may take the
 * next row of a key just completed). *chained (may be NULL) gets 1 when both ran in the
 * one transaction. When the transaction fails (a server error, a lost connection) nothing
 * of it committed, and the two run again each in its own transaction with the usual
 * retries (*chained 0); when only the reply to COMMIT was lost, the completion counts the
 * rows done by their effect rows, and the rows that claim took stay leased to this worker
 * until their lease ends (then another worker, or this one, claims them again: no row is
 * lost, no effect is written twice). Returns 0, RB_EDB, RB_ENOMEM; *next as rb_queue_claim.
 * Thread safety: as every call on q (one thread at a time).
 */
int rb_queue_complete_and_claim(rb_queue *q, const rb_queue_row *rows, size_t n,
                                const char *const *effects, unsigned char *done, size_t *n_done,
                                rb_queue_batch *next, int *chained);

/* ---- added for the liveness model (issue 10) ---- */

/*
 * rb_queue_start — record durably, before running its handler, that this
 * worker starts the handler of `row` (attempts + 1), so a handler that kills
 * its worker is charged an attempt. Used for rows claimed before
 * (row->claims > 1): a first claim's start is charged with its completion or
 * failure instead (no extra round trip). RB_ELOST when the lease is no longer
 * this worker's: the handler must not run.
 */
int rb_queue_start(rb_queue *q, const rb_queue_row *row);

/*
 * rb_queue_extend_batch — the lease heartbeat: lease_expires_at =
 * clock_timestamp() + lease_ms for rows (ids[i], gens[i]), i < n, each fenced
 * by its (id, lease_generation), only while this incarnation is alive.
 * kept[i] gets 1 for a row still held, 0 for a lost one. 0, RB_EDB, RB_ENOMEM.
 */
int rb_queue_extend_batch(rb_queue *q, const int64_t *ids, const int64_t *gens, size_t n,
                          uint32_t lease_ms, unsigned char *kept);

/* One dead letter (a row that failed for good). Strings owned by the list. */
typedef struct rb_queue_dead_letter {
    int64_t id;
    const char *partition_key, *idempotency_key, *last_error, *failed_at; /* ISO 8601 */
    uint32_t attempts, claims, redrive_count;
} rb_queue_dead_letter;

typedef struct rb_queue_dead_letters {
    rb_queue_dead_letter *rows;
    size_t n;
    void *result_;
} rb_queue_dead_letters;

/* rb_queue_dead_letters_get — up to `limit` failed rows, oldest first, into
 * *out (free with rb_queue_dead_letters_free). 0, RB_EDB, RB_ENOMEM. */
int rb_queue_dead_letters_get(rb_queue *q, size_t limit, rb_queue_dead_letters *out);
void rb_queue_dead_letters_free(rb_queue_dead_letters *d);

/*
 * rb_queue_redrive — put dead letters back to pending now with attempts and
 * claims reset, recording each in the redrives table: ids[0 .. n) or, with
 * `all`, every failed row. All or nothing: when an id is not a dead letter
 * (unknown or no longer failed), nothing changes and RB_EINVAL names it.
 * *n_redriven (may be NULL) gets the count. 0, RB_EINVAL, RB_EDB, RB_ENOMEM.
 */
int rb_queue_redrive(rb_queue *q, const int64_t *ids, size_t n, int all, size_t *n_redriven);

/* ---- retention of done rows (issue 11, target 6; migration 006) ---- */

#define RB_QUEUE_RETENTION_MIN_MS 1000                        /* 1 s */
#define RB_QUEUE_RETENTION_MAX_MS (3650LL * 24 * 3600 * 1000) /* 10 years */
#define RB_QUEUE_RETENTION_BATCH_MAX 100000u                  /* rows per round */
#define RB_QUEUE_RETENTION_BATCH_DEFAULT 2000u

/* The queue's retention (queue_config.retention_ms, retention_batch). */
typedef struct rb_queue_retention {
    int64_t retention_ms; /* 0 = off (done rows kept); else MIN..MAX ms since completed_at */
    uint32_t batch_rows;  /* most done rows one housekeeping round deletes, 1..BATCH_MAX */
} rb_queue_retention;

/* rb_queue_retention_validate — 0, or RB_EINVAL with a detail naming the bad
 * field (retention_ms 0 or MIN..MAX, batch_rows 1..BATCH_MAX). Pure. */
int rb_queue_retention_validate(const rb_queue_retention *r);

/*
 * rb_queue_retention_get — the retention recorded in queue_config into *out.
 * Needs a schema at the binary's version (else RB_EDB with the migrate hint).
 * 0, RB_EDB.
 */
int rb_queue_retention_get(rb_queue *q, rb_queue_retention *out);

/*
 * rb_queue_retention_set — record `r` in queue_config (validated first:
 * RB_EINVAL, nothing changed). Every housekeeper applies it from its next round:
 * done rows whose completed_at is older than now() - retention_ms (database
 * clock) are deleted, at most batch_rows per round, oldest first; pending,
 * claimed and failed rows never; effects are kept, and a re-enqueue of a
 * deleted row's idempotency key creates no row (its effect row refuses it;
 * queue/README.md, "Retention", states the guarantee and its window).
 * 0, RB_EINVAL, RB_EDB.
 */
int rb_queue_retention_set(rb_queue *q, const rb_queue_retention *r);

#ifdef __cplusplus
}
#endif
#endif
