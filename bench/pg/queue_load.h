/*
 * queue_load.h — the queue library (queue.h) as `ringbench pg bench` drives
 * it (bench/pg/README.md): the claim modes, the worker process body, the
 * driver's session (migrate, the ring configuration, reset, COPY fill,
 * counts, EXPLAIN) and the queries the scale and crash events watch the queue
 * with. Not a public interface; the driver's session is one per process, used
 * by one thread.
 */
#ifndef RINGBENCH_PGB_QUEUE_LOAD_H
#define RINGBENCH_PGB_QUEUE_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include <libpq-fe.h>

#include "keys.h"
#include "ringbench/ring.h"

typedef enum { RBB_MODE_COMPETING, RBB_MODE_AFFINITY, RBB_MODE_ORDERED, RBB_N_MODES } rbb_mode;
const char *rbb_mode_name(rbb_mode m);
/* 0 and *out, or -1 for an unknown name. */
int rbb_mode_parse(const char *s, rbb_mode *out);

/* What one worker process does. */
typedef struct rbb_worker_spec {
    const char *conninfo; /* the bench database */
    rbb_mode mode;
    uint32_t batch;        /* rows per claim, >= 1 */
    const char *ring_algo; /* bucket ownership in affinity modes ("binary", "modn") */
    const char *worker_id; /* NULL: the library's (host:pid:random); else this id, so the
                              ring, and the buckets a join moves, are the same every run */
    double run_s;          /* stop claiming this long after the go; 0: at SIGTERM */
    uint64_t max_rows;     /* also stop once this many rows are done; 0: no cap */
    uint32_t handler_us;   /* busy time per row besides the effect write */
    uint32_t lease_ms, ttl_ms, heartbeat_ms; /* 0: the library's (rb_queue_config_init) */
    uint32_t max_samples;  /* latency samples kept (more cycles are counted only) */
    int complete_each;     /* 1: one rb_queue_complete (one commit) per row; 0: one
                              rb_queue_complete_batch (one commit) per batch */
    int chain;             /* 1: the completion and the next claim in one commit (opts.chain) */
    uint32_t age_bound_ms; /* affinity mode: rb_queue_config.age_bound_ms (0: none) */
} rbb_worker_spec;

/* The worker process body for rbb_spawn (arg: rbb_worker_spec *). Connects,
 * registers, reports READY, waits for the go, claims and completes until
 * run_s elapsed or SIGTERM (finishing the batch in hand), deregisters,
 * reports FINAL and exits 0 (1 on a fatal error). */
void rbb_worker_body(void *arg, int go_fd, int report_fd);

/* The mark pg bench leaves on a database it uses (COMMENT ON DATABASE): every run empties
 * the queue in it. */
#define RBB_DB_MARK "ringbench pg bench: a scratch database, every run empties its queue"
/* The mark of the database the pgbench reference runs in (--pgbench-db): pgbench -i drops and
 * recreates its pgbench_* tables there. */
#define RBB_PGBENCH_DB_MARK "ringbench pg bench: a scratch database for pgbench -i"
/* Open the driver's queue session on `conninfo` (the bench database),
 * migrate the schema (idempotent), point `c` at it (search_path). */
int rbb_queue_prepare(const char *conninfo, PGconn *c, char *err, size_t err_size);
/* Open the driver's connection c again when it was lost (a terminated backend, a server
 * restart): PQreset, again for up to 10 s while the server refuses (a restart in progress),
 * then point it at the queue's schema as rbb_queue_prepare did. 0 when c
 * was not lost or is open again (the loss said on stderr with libpq's message); -1 with err
 * (why it was lost and why it stays lost) otherwise. */
int rbb_queue_reconnect(PGconn *c, char *err, size_t err_size);
/* Close the driver's queue session. */
void rbb_queue_finish(void);
/* Empty inbox, effects and workers; VACUUM ANALYZE so every cell starts with
 * no dead tuples and fresh statistics. */
int rbb_queue_reset(PGconn *c, char *err, size_t err_size);
/* VACUUM ANALYZE the queue tables after a fill (a fresh start: no dead
 * tuples, planner statistics current). */
int rbb_queue_settle(PGconn *c, char *err, size_t err_size);
#define RBB_HOT_KEY "order:hot"
/* Enqueue n_rows rows with keys from `keys`, idempotency keys "<tag>:<i>",
 * by COPY on `c` (setup, not measured: ~10x faster than rb_queue_enqueue's
 * INSERTs); the bucket is rb_bucket_of under the queue's ring configuration,
 * exactly what rb_queue_enqueue stores. n_hot of the n_rows rows (spread evenly: row i
 * when floor((i + 1) n_hot / n_rows) > floor(i n_hot / n_rows), so exactly n_hot, the last
 * row hot when n_hot > 0) get the key RBB_HOT_KEY instead; the rest draw from `keys`.
 * All or nothing: a stop signal (stop.h) aborts the COPY (no row of it stays) with the
 * stop reason in err. 0, or -1 with err. */
int rbb_queue_fill(PGconn *c, uint64_t n_rows, uint64_t n_hot, rbb_keys *keys, const char *tag,
                   char *err, size_t err_size);

/* EXPLAIN (ANALYZE; rolled back) of the generic plan of the claim statement of every mode
 * (the plan every worker session runs) at this batch size, over the queue as it is, as one of 4
 * registered workers (about 1/4 of the buckets owned): malloc'ed text, or NULL with err. */
char *rbb_queue_explain_modes(uint32_t batch, char *err, size_t err_size);

/* The state of the queue after a run. */
typedef struct rbb_queue_counts {
    uint64_t n_rows, n_pending, n_claimed, n_completed, n_failed;
    uint64_t n_effects;             /* effect rows written by the bench handler */
    uint64_t n_duplicates;          /* effect rows beyond the first per inbox row */
    uint64_t n_completed_no_effect; /* completed rows with no effect row */
    uint64_t n_dead_tup;            /* pg_stat_user_tables.n_dead_tup, inbox + effects */
} rbb_queue_counts;
int rbb_queue_count(PGconn *c, rbb_queue_counts *out, char *err, size_t err_size);

/* Record the queue's retention of done rows (rb_queue_retention_set, through the
 * driver's own session): retention_ms 0 = off. 0, or -1 with err. */
int rbb_queue_set_retention(uint64_t retention_ms, uint32_t batch_rows, char *err, size_t err_size);

/* The physical order of a matrix cell's backlog (`pg bench --heap-order`): as loaded (COPY,
 * id order, the default), or rewritten (CLUSTER, indexes rebuilt) in id order or in bucket
 * order (partition_bucket, id): a bucket's rows then lie on adjacent heap pages and adjacent
 * primary-key leaf pages, as competing's consecutive rows do in the other two. */
typedef enum { RBB_HEAP_LOADED, RBB_HEAP_ID, RBB_HEAP_BUCKET } rbb_heap_order;
const char *rbb_heap_order_name(rbb_heap_order o);
/* 0 and *out for "loaded", "id" or "bucket"; -1 for any other name. */
int rbb_heap_order_parse(const char *s, rbb_heap_order *out);
/* pg_stats.correlation of the bench schema's inbox.partition_bucket with the physical row
 * order (as of the last ANALYZE): ~0 as loaded, 1 in bucket order; NaN when the server has
 * no statistics for it. */
double rbb_queue_bucket_correlation(PGconn *c);
/* Rewrite the inbox in order o (nothing for RBB_HEAP_LOADED) and settle it again. 0 or -1. */
int rbb_queue_rewrite(PGconn *c, rbb_heap_order o, char *err, size_t err_size);

/* reset + fill n_rows (keys: dist over n_keys, seed) + settle. 0 or -1. */
int rbb_queue_fresh(PGconn *c, uint64_t n_rows, rbb_dist dist, uint32_t n_keys, double zipf_s,
                    uint64_t seed, const char *tag, char *err, size_t err_size);

/* Ownership as the workers compute it: build the ring `algo` over members
 * with the queue library's ring configuration. 0 or an RB_E* code. */
int rbb_queue_ring(const char *algo, const rb_member *members, size_t n, rb_ring **out);
/* B, the bucket count of the queue (partition_bucket in 0..B-1). */
uint32_t rbb_queue_n_buckets(void);
/* The queue's ring parameters as migrated (hashes, vnodes, buckets); valid after
 * rbb_queue_prepare. */
const rb_config *rbb_queue_ring_config(void);
/* The database clock (clock_timestamp()) as seconds since the epoch. */
int rbb_queue_db_epoch(PGconn *c, double *out, char *err, size_t err_size);
/* Rows claimed (leased) and pending on the given buckets. */
int rbb_queue_count_on_buckets(PGconn *c, const uint32_t *buckets, size_t n, uint64_t *claimed,
                               uint64_t *pending, char *err, size_t err_size);
/* Completions per RBB_BIN_MS bin of completed_at in [t0, t1) (epoch seconds),
 * as rows/s; *bins malloc'ed. */
int rbb_queue_timeline(PGconn *c, double t0, double t1, double **bins, size_t *n_bins, char *err,
                       size_t err_size);
/* 1 when worker `id` is marked dead, 0 when not, -1 on error. */
int rbb_queue_worker_is_dead(PGconn *c, const char *id, char *err, size_t err_size);
/* Rows currently leased to worker `id` (claimed by it); -1 on error. */
long rbb_queue_rows_leased_to(PGconn *c, const char *id, char *err, size_t err_size);
/* Ids of the rows leased to worker `id` now (*ids malloc'ed). 0 or -1. */
int rbb_queue_rows_held(PGconn *c, const char *id, int64_t **ids, size_t *n, char *err,
                        size_t err_size);
/* How many of the rows ids[0..n) are not completed yet; -1 on error. */
long rbb_queue_n_unfinished(PGconn *c, const int64_t *ids, size_t n, char *err, size_t err_size);
/* SQL counting the rows not completed yet (one value). */
const char *rbb_queue_sql_unfinished(void);

#endif
