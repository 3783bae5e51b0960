/*
 * bench.h — internals of `ringbench pg bench` (queue/BENCH.md): end-to-end
 * claim throughput of the queue library on a live Postgres, scale events and
 * crash injection, measured against pgbench in the same run.
 *
 * Not a public interface: shared by queue/bench*.c only. Single-threaded;
 * the driver forks worker processes, each with its own connection.
 */
#ifndef RINGBENCH_QUEUE_BENCH_H
#define RINGBENCH_QUEUE_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <libpq-fe.h>

#include "keygen.h"
#include "ringbench/ring.h"

/* Width of one bin of a throughput timeline (scale events, crashes). */
#define RBB_BIN_MS 100

/* --- partition keys (bench_keys.c) --- */

typedef enum { RBB_DIST_UNIFORM, RBB_DIST_ZIPF } rbb_dist;

/* A reproducible stream of key ranks in [0, K): uniform, or Zipf with
 * exponent s (P(rank r) proportional to (r+1)^-s) by inverse CDF. */
typedef struct rbb_keys {
    rbb_dist dist;
    uint32_t n_keys;
    double zipf_s;
    uint64_t state; /* splitmix64 state, starts at the seed */
    rb_zipf zipf;   /* zipf: the sampler (datasets/keygen.h; owned) */
} rbb_keys;

/* 0, or -1 when K == 0 or out of memory. */
int rbb_keys_init(rbb_keys *k, rbb_dist dist, uint32_t n_keys, double zipf_s, uint64_t seed);
void rbb_keys_free(rbb_keys *k);
/* The next rank in [0, K). */
uint32_t rbb_keys_next_rank(rbb_keys *k);
/* The key string of a rank ("order:<rank>") into buf; its length. */
size_t rbb_key_format(char *buf, size_t size, uint32_t rank);
/* Probability of the most frequent key (1/K when uniform). */
double rbb_keys_top_share(const rbb_keys *k);

/* --- statistics (bench_stats.c) --- */

/* CLOCK_MONOTONIC in ns (system-wide: comparable across the forked workers). */
uint64_t rbb_now_ns(void);
/* Sleep us microseconds (resumed after signals). */
void rbb_sleep_us(uint64_t us);
void rbb_sort_u32(uint32_t *v, size_t n);
/* Nearest-rank percentile p (0..100] of sorted[0..n); 0 when n == 0. */
double rbb_percentile_sorted(const uint32_t *sorted, size_t n, double p);

/* Throughput around an event (a join or a kill) on a per-RBB_BIN_MS timeline. */
typedef struct rbb_recovery {
    double baseline_rows_per_s; /* mean of the n_baseline bins before the event */
    double min_rows_per_s;      /* lowest bin at or after the event */
    double min_at_ms;           /* when, relative to the event */
    double dip_fraction;        /* 1 - min / baseline */
    double recovery_ms;         /* start of the first window (n_window bins) whose mean is
                                   >= 90% of the baseline, relative to the event; -1: never */
} rbb_recovery;

rbb_recovery rbb_timeline_recovery(const double *rows_per_s, size_t n_bins, size_t event_bin,
                                   size_t n_baseline_bins, size_t n_window_bins);

/* --- pgbench (bench_pgbench.c) --- */

/* Where the reference runs: connection parameters read back from a live
 * libpq connection (so any conninfo works), and the database to use. */
typedef struct rbb_pg_target {
    const char *host, *port, *user, *password; /* NULL or "" when not set */
    const char *dbname;
    const char *pgoptions; /* PGOPTIONS for the child, e.g. "-c synchronous_commit=off" */
} rbb_pg_target;

typedef struct rbb_pgbench_result {
    uint32_t clients;
    double secs;
    double tps; /* "tps = ... (without initial connection time)" */
    double latency_avg_ms;
    uint64_t n_transactions;
} rbb_pgbench_result;

/* The pgbench binary: explicit path, $RINGBENCH_PGBENCH, the newest
 * /usr/lib/postgresql/N/bin/pgbench, else "pgbench" from PATH. */
const char *rbb_pgbench_find(const char *explicit_path);
/* pgbench -i -s 1 into t->dbname (which must exist). 0, or -1 with err. */
int rbb_pgbench_init(const rbb_pg_target *t, const char *pgbench, char *err, size_t err_size);
/* pgbench -n -b simple-update -c N -j N -T secs. 0, or -1 with err. */
int rbb_pgbench_run(const rbb_pg_target *t, const char *pgbench, uint32_t clients, double secs,
                    rbb_pgbench_result *res, char *err, size_t err_size);

/* --- the driver's libpq helpers (bench_db.c) --- */

/* Connect to `dbname` (NULL: the conninfo's own) on the server `conninfo`
 * (any libpq conninfo or URI; "" = PG* defaults). NULL with err on failure. */
PGconn *rbb_db_connect(const char *conninfo, const char *dbname, char *err, size_t err_size);
/* A notice processor that drops notices (CREATE ... IF NOT EXISTS chatter). */
void rbb_db_quiet_notice(void *arg, const char *message);
/* The connection's parameters as a keyword='value' conninfo. 0 or -1. */
int rbb_db_conninfo_string(PGconn *c, char *buf, size_t size);
/* Run a statement (printf format); 0, or -1 with err. */
int rbb_db_exec(PGconn *c, char *err, size_t err_size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* First column of the first row as a double (NULL reads as 0); 0 or -1. */
int rbb_db_double(PGconn *c, double *out, char *err, size_t err_size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* CREATE DATABASE dbname unless it exists. 0, or -1 with err. */
int rbb_db_ensure_database(PGconn *admin, const char *dbname, char *err, size_t err_size);

/* --- worker processes and their reports (bench_run.c) --- */

#define RBB_REPORT_MAGIC 0x52424252u /* "RBBR" */
enum { RBB_REPORT_READY = 1, RBB_REPORT_FINAL = 2 };
#define RBB_WORKER_ID_BYTES 96

/* What a worker tells the driver (READY: magic, kind, worker_id only). */
typedef struct rbb_report_head {
    uint32_t magic, kind;
    char worker_id[RBB_WORKER_ID_BYTES];
    uint64_t t_go_ns, t_end_ns;  /* CLOCK_MONOTONIC: released, stopped */
    uint64_t n_claims;           /* claim transactions */
    uint64_t n_empty_claims;     /* claims that returned no row */
    uint64_t n_short_claims;     /* claims that returned 1 .. batch-1 rows */
    uint64_t n_rows;             /* rows completed (effect written, fenced) */
    uint64_t n_complete_tx;      /* completion transactions committed */
    uint64_t n_fenced;           /* completions refused: lease lost (stale) */
    uint64_t n_errors;           /* failed calls (retried) */
    uint64_t n_samples;          /* rbb_sample records that follow */
} rbb_report_head;

/* One claim + complete cycle that returned rows. */
typedef struct rbb_sample {
    uint32_t claim_ns;    /* claim transaction, request to result */
    uint32_t complete_ns; /* completion transaction(s) of the batch incl. effects */
} rbb_sample;

/* The driver's view of one worker process. */
typedef struct rbb_child {
    pid_t pid;
    int fd; /* report pipe, read end; -1 when closed */
    char *buf;
    size_t len, cap;
    int ready, has_final, exit_status;
    char worker_id[RBB_WORKER_ID_BYTES];
    rbb_report_head final;
    const rbb_sample *samples; /* into buf, final.n_samples of them */
} rbb_child;

/* Fork a worker running body(arg, go_fd, report_fd) (which must not return);
 * the child closes go_wfd. Returns the pid, or -1. */
pid_t rbb_spawn(rbb_child *ch, int go_rfd, int go_wfd,
                void (*body)(void *arg, int go_fd, int report_fd), void *arg);
/* Send a report head and samples (child side). 0 or -1. */
int rbb_report_send(int fd, const rbb_report_head *h, const rbb_sample *samples);
/* Wait for the READY head; 0, or -1 on timeout / EOF / garbage. */
int rbb_wait_ready(rbb_child *ch, int timeout_ms);

/* pg_stat_activity samples taken while workers run: label -> backend count. */
#define RBB_MAX_WAIT_LABELS 32
typedef struct rbb_waits {
    size_t n;
    char label[RBB_MAX_WAIT_LABELS][64];
    uint64_t count[RBB_MAX_WAIT_LABELS];
    uint64_t n_samples;         /* sampling rounds */
    uint64_t n_backend_samples; /* backends seen over all rounds */
} rbb_waits;
void rbb_waits_add(rbb_waits *w, const char *label, uint64_t n);

/* Read every child's reports until all pipes close, sampling wait events on
 * `sampler` (may be NULL) every sample_interval_ms; then reap and parse. */
void rbb_collect(rbb_child *ch, size_t n, PGconn *sampler, rbb_waits *waits,
                 int sample_interval_ms);
/* Drain, reap and parse one child (called by rbb_collect). */
void rbb_child_finish(rbb_child *ch);
void rbb_child_free(rbb_child *ch);

/* --- the queue library as the bench drives it (bench_queue.c) --- */

typedef enum { RBB_MODE_COMPETING, RBB_MODE_AFFINITY, RBB_MODE_ORDERED, RBB_N_MODES } rbb_mode;
const char *rbb_mode_name(rbb_mode m);
/* 0 and *out, or -1 for an unknown name. */
int rbb_mode_parse(const char *s, rbb_mode *out);

/* What one worker process does. */
typedef struct rbb_worker_spec {
    const char *conninfo;  /* the bench database */
    rbb_mode mode;
    uint32_t batch;        /* rows per claim, >= 1 */
    const char *ring_algo; /* bucket ownership in affinity modes ("binary", "modn") */
    double run_s;          /* stop claiming this long after the go; 0: at SIGTERM */
    uint32_t handler_us;   /* busy time per row besides the effect write */
    uint32_t lease_ms, ttl_ms, heartbeat_ms;
    uint32_t max_samples;  /* latency samples kept (more cycles are counted only) */
    int complete_each;     /* 1: one rb_queue_complete (one commit) per row; 0: one
                              rb_queue_complete_batch (one commit) per batch */
} rbb_worker_spec;

/* The worker process body for rbb_spawn (arg: rbb_worker_spec *). Connects,
 * registers, reports READY, waits for the go, claims and completes until
 * run_s elapsed or SIGTERM (finishing the batch in hand), deregisters,
 * reports FINAL and exits 0 (1 on a fatal error). */
void rbb_worker_body(void *arg, int go_fd, int report_fd);

/* Open the driver's queue session on `conninfo` (the bench database),
 * migrate the schema (idempotent), point `c` at it (search_path). */
int rbb_queue_prepare(const char *conninfo, PGconn *c, char *err, size_t err_size);
/* Close the driver's queue session. */
void rbb_queue_finish(void);
/* Empty inbox, effects and workers; VACUUM ANALYZE so every cell starts with
 * no dead tuples and fresh statistics. */
int rbb_queue_reset(PGconn *c, char *err, size_t err_size);
/* VACUUM ANALYZE the queue tables after a fill (a fresh start: no dead
 * tuples, planner statistics current). */
int rbb_queue_settle(PGconn *c, char *err, size_t err_size);
/* Enqueue n_rows rows with keys from `keys`, idempotency keys "<tag>:<i>",
 * by COPY on `c` (setup, not measured: ~10x faster than rb_queue_enqueue's
 * INSERTs); the bucket is rb_bucket_of under the queue's ring configuration,
 * exactly what rb_queue_enqueue stores. */
int rbb_queue_fill(PGconn *c, uint64_t n_rows, rbb_keys *keys, const char *tag, char *err,
                   size_t err_size);

/* EXPLAIN (ANALYZE; rolled back) of the claim statement of every mode at
 * this batch size, over the queue as it is, as one of 4 registered workers
 * (about 1/4 of the buckets owned): malloc'ed text, or NULL with err. */
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

/* --- a whole run: parameters and results (bench.c, bench_events.c,
 *     bench_report.c) --- */

#define RBB_MAX_LIST 8
#define RBB_MAX_KILLS 16

typedef struct rbb_params {
    const char *profile; /* "smoke", "quick", "full" or "custom" */
    const char *conninfo;
    const char *queue_db, *pgbench_db; /* databases the bench creates and uses */
    const char *pgbench_path;
    const char *out_dir;
    const char *ring_algo; /* ownership in the affinity modes of the matrix */
    uint32_t workers[RBB_MAX_LIST];
    size_t n_workers;
    rbb_mode modes[RBB_N_MODES];
    size_t n_modes;
    uint32_t batches[RBB_MAX_LIST];
    size_t n_batches;
    rbb_dist dists[2];
    size_t n_dists;
    uint64_t n_rows;      /* R per cell; 0: sized from cell_s and batch */
    uint32_t n_keys;      /* K */
    double zipf_s;
    uint64_t seed;
    double cell_s;        /* measured seconds per cell */
    double pgbench_s;     /* seconds per pgbench run before / after the matrix */
    double pgbench_group_s; /* seconds per pgbench run adjacent to each group of modes */
    int sync_commit;      /* 1: on (server default), 0: off for every session */
    int complete_each;    /* 1: one commit per row (rb_queue_complete); 0: per batch */
    int scale;            /* run the scale events */
    double scale_pre_s, scale_post_s;
    uint32_t scale_batch;
    int crash;            /* run the crash injection */
    uint32_t crash_kills, crash_workers, crash_batch, crash_handler_us;
    uint64_t crash_rows;
    uint32_t crash_lease_ms, crash_ttl_ms, crash_heartbeat_ms;
} rbb_params;

/* One matrix cell: mode x W x batch x distribution. */
typedef struct rbb_cell {
    rbb_mode mode;
    uint32_t n_workers, batch;
    rbb_dist dist;
    uint64_t n_rows_enqueued;
    double elapsed_s;
    uint64_t n_rows, n_claims, n_empty_claims, n_short_claims, n_complete_tx, n_fenced, n_errors;
    double rows_per_s, claims_per_s, tx_per_s; /* tx: claim + completion commits */
    double claim_p50_us, claim_p99_us, complete_p50_us, complete_p99_us;
    rbb_queue_counts after;
    uint64_t n_lost;       /* rows neither completed nor pending once every worker exited */
    uint64_t n_dup_executions; /* completions the workers saw succeed beyond rows done */
    int backlog_exhausted; /* the backlog ran dry for some worker: rows/s is a floor */
    double pgbench_tps;    /* the reference at W clients: mean of the adjacent runs */
    double pgbench_adjacent_before_tps, pgbench_adjacent_after_tps; /* around this group */
    double pgbench_run_tps; /* mean of the runs before and after the whole matrix */
    rbb_waits waits;
    int failed;            /* a worker failed: figures incomplete */
} rbb_cell;

/* A 4th worker joins 3 at steady state. */
typedef struct rbb_scale {
    const char *algo;
    uint32_t n_before, batch;
    uint32_t n_buckets, n_moved_buckets; /* ideal: n_buckets / (n_before + 1) */
    uint32_t n_moved_to_new;             /* moved buckets whose new owner is the joiner */
    uint64_t n_claimed_on_moved;         /* rows in flight (claimed) on moved buckets at join */
    uint64_t n_pending_on_moved;         /* backlog on moved buckets at join */
    rbb_queue_counts after;
    uint64_t n_lost;
    double *rows_per_s; /* timeline, RBB_BIN_MS bins from the go (owned) */
    size_t n_bins, join_bin;
    rbb_recovery rec;
    double post_rows_per_s; /* mean of the first second after the join */
    int failed;
} rbb_scale;

typedef struct rbb_kill {
    double at_s;             /* since the go */
    char worker_id[RBB_WORKER_ID_BYTES];
    uint64_t n_rows_held;    /* rows leased to it when killed (mid-batch if > 0) */
    uint64_t n_rows_orphaned; /* of those, still leased after its backend ended (a commit
                                 in flight when the client died still lands) */
    double detect_ms;        /* kill -> marked dead by a housekeeper (TTL); -1: not seen */
    double reclaim_ms;       /* kill -> none of its rows still leased to it; -1: not seen */
    double redone_ms;        /* kill -> every row it held completed by others; -1 */
} rbb_kill;

typedef struct rbb_crash {
    uint32_t n_workers, batch, handler_us, lease_ms, ttl_ms, heartbeat_ms;
    uint64_t n_rows_enqueued;
    size_t n_kills;
    rbb_kill kills[RBB_MAX_KILLS];
    double stall_ms;       /* a worker paused (SIGSTOP) this long, then resumed */
    uint64_t n_stall_held; /* rows it held when paused */
    uint64_t n_fenced;     /* stale completions refused (from the workers' reports) */
    double drain_s;
    rbb_queue_counts after;
    uint64_t n_lost;
    int failed;
} rbb_crash;

typedef struct rbb_run {
    rbb_params p;
    char *machine_json; /* scripts/machine-record output (owned), or NULL */
    char *explain;      /* EXPLAIN ANALYZE of the claims at the largest batch (owned) */
    uint64_t explain_backlog; /* pending rows when it was taken */
    char date[32];
    rbb_pgbench_result pgbench[RBB_MAX_LIST];       /* per p.workers[i], before the matrix */
    rbb_pgbench_result pgbench_after[RBB_MAX_LIST]; /* the same after it */
    int pgbench_ok, pgbench_rounds;
    char pgbench_error[512];
    rbb_cell *cells;
    size_t n_cells;
    rbb_scale scale[2]; /* consistent ring (p.ring_algo), then modn */
    size_t n_scale;
    rbb_crash crash;
    int has_crash;
} rbb_run;


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

/* Rows to enqueue so that W workers for `secs` at this batch size do not
 * run dry: 2.5 x secs x the best total rate measured so far at this batch
 * (rbb_note_rate), else a default estimate; at least 1,000. --rows overrides. */
uint64_t rbb_rows_for(const rbb_params *p, uint32_t batch, uint32_t n_workers, double secs);
void rbb_note_rate(uint32_t batch, uint32_t n_workers, double rows_per_s);

/* bench_events.c */
int rbb_run_scale(const rbb_params *p, const char *conninfo, PGconn *c, const char *algo,
                  rbb_scale *out, char *err, size_t err_size);
int rbb_run_crash(const rbb_params *p, const char *conninfo, PGconn *c, rbb_crash *out,
                  char *err, size_t err_size);

/* bench_report.c: JSON (every figure and parameter) and Markdown tables. */
void rbb_report_json(FILE *f, const rbb_run *run);
void rbb_report_md(FILE *f, const rbb_run *run);
/* The scale timelines as CSV: algo,t_ms_from_join,rows_per_s. */
void rbb_report_timeline_csv(FILE *f, const rbb_run *run);
double rbb_pgbench_tps_for(const rbb_run *run, uint32_t n_workers);

#endif
