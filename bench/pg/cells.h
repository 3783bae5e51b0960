/*
 * cells.h — one run of `ringbench pg bench` (bench/pg/README.md): its
 * parameters, the measured cells (mode x W x batch x distribution), the scale
 * and crash events, and what a cell shares with the events and the report
 * (backlog sizing, the pgbench reference a cell is divided by, latency
 * percentiles). Not a public interface; single-threaded (the driver).
 */
#ifndef RINGBENCH_PGB_CELLS_H
#define RINGBENCH_PGB_CELLS_H

#include <stddef.h>
#include <stdint.h>

#include <libpq-fe.h>

#include "children.h"
#include "keys.h"
#include "pgbench.h"
#include "queue_load.h"
#include "stats.h"

#define RBB_MAX_LIST 8
#define RBB_MAX_KILLS 16
#define RBB_MAX_REPEATS 9
/* A group whose pgbench reference moves more than this between the runs right
 * before and right after it (|after - before| / mean) is flagged and measured
 * again once (issue 11, target 7). */
#define RBB_DRIFT_MAX 0.15

#define RBB_MAX_NOT_READ 24 /* rbb_params.not_read */

typedef struct rbb_params {
    const char *profile;    /* "smoke", "quick" or "full": the one given, else full */
    int profile_overridden; /* 1: options given beside it changed some of its settings */
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
    uint64_t n_rows; /* R per cell; 0: sized from cell_s and batch */
    uint32_t n_keys; /* K */
    double zipf_s;
    uint64_t seed;
    double cell_s;             /* measured seconds per cell (per repetition) */
    uint32_t repeats;          /* repetitions of every cell, interleaved across the modes */
    double pgbench_s;          /* seconds per pgbench run before / after the matrix */
    double pgbench_group_s;    /* seconds per pgbench run adjacent to each group of modes */
    int sync_commit;           /* 1: on (server default), 0: off for every session */
    rbb_heap_order heap_order; /* the matrix and chain cells' backlog on disk (--heap-order) */
    uint32_t age_bound_ms;     /* every affinity worker's age bound (rb_queue_config.age_bound_ms;
                                  default the library's; 0: none) */
    int complete_each;         /* 1: one commit per row (rb_queue_complete); 0: per batch */
    int chain;                 /* 1: completion and next claim in one commit (worker --chain) */
    /* The chain group (issue 11, target 4): every mode at batch 1 with chain completion at
     * each of these W, every distribution, measured like a matrix group; none when 0. */
    uint32_t chain_workers[RBB_MAX_LIST];
    size_t n_chain_workers;
    int scale; /* run the scale events */
    double scale_pre_s, scale_post_s;
    uint32_t scale_batch;
    int crash; /* run the crash injection */
    uint32_t crash_kills, crash_workers, crash_batch, crash_handler_us;
    uint64_t crash_rows;
    uint32_t crash_lease_ms, crash_ttl_ms, crash_heartbeat_ms;
    uint64_t backlogs[RBB_MAX_LIST]; /* the backlog sweep (--backlog); none when n_backlogs = 0 */
    size_t n_backlogs;
    uint32_t backlog_workers, backlog_batch, backlog_hot_every;
    double backlog_s;           /* measured seconds per (backlog, mode) */
    double soak_s;              /* the soak run (--soak); 0: none */
    uint64_t soak_retention_ms; /* retention of done rows during the soak (--soak-retention-ms) */
    /* keys of the parameters (pgbench.json) no part of this run reads (a soak alone reads no
     * `workers`): static strings, set after parsing */
    const char *not_read[RBB_MAX_NOT_READ];
    size_t n_not_read;
} rbb_params;

/* One matrix cell: mode x W x batch x distribution. */
typedef struct rbb_cell {
    rbb_mode mode;
    uint32_t n_workers, batch;
    rbb_dist dist;
    int chain; /* completion: 1 chained with the next claim (worker --chain); 0 per p */
    uint64_t n_rows_enqueued;
    uint64_t n_rows_held; /* rows leased on purpose outside the workers (the backlog sweep's hot
                             head): set by the caller of rbb_cell_measure, not counted lost */
    double elapsed_s;
    uint64_t n_rows, n_claims, n_empty_claims, n_short_claims, n_complete_tx, n_fenced, n_errors;
    uint64_t n_rows_aged; /* rows claimed for their age (affinity's age scan) */
    double rows_per_s, claims_per_s, tx_per_s; /* tx: claim + completion commits */
    /* claim latency over the timed claims (NaN: none timed, every claim chained) */
    double claim_p50_us, claim_p99_us, complete_p50_us, complete_p99_us;
    /* What the server did while the cell ran, per row completed: WAL bytes (the insert LSN's
     * advance, server-wide, so autovacuum's share is in it) and shared-buffer accesses in the
     * queue database (pg_stat_database blks_hit + blks_read: a claim whose rows lie on more
     * heap pages makes more). NaN when the server cannot say. */
    double wal_bytes_per_row, buffers_per_row;
    /* The commit path while the cell ran (pg_stat_wal, PostgreSQL 14+, server-wide; NaN
     * before 14 or when the server cannot say): the cell's commits (claims + completions) per
     * WAL flush (wal_sync: how many commits shared each fsync) and full-page images per 1,000
     * rows (the first change of a page after a checkpoint logs the whole page); the mean time
     * of one WAL flush in ms (wal_sync_time ÷ wal_sync; NaN unless the server runs with
     * track_wal_io_timing = on, which scripts/pg sets). */
    double commits_per_wal_flush, wal_fpi_per_krow, wal_flush_ms;
    /* CPU time per row completed, in µs, user + system: the worker processes' own (the
     * client side: the library's loop, libpq) and the whole machine's while the cell ran
     * (/proc/stat from the go to the last worker's end: the server's backends, the
     * workers, the driver and anything else running). On a 2-core machine running W
     * workers and their W backends the cell is CPU-bound when machine time per row x
     * rows/s nears 2 s per second. NaN where /proc/stat cannot be read. */
    double client_cpu_us_per_row, machine_cpu_us_per_row;
    /* How the backlog's buckets lie on disk when the cell starts: pg_stats.correlation of
     * inbox.partition_bucket against the physical order (ANALYZE after the fill and any
     * --heap-order rewrite): about 0 as loaded (keys drawn at random), 1 in bucket order.
     * NaN when the server has no statistics for it. */
    double bucket_correlation;
    rbb_queue_counts after;
    uint64_t n_lost;           /* rows neither completed nor pending once every worker exited */
    uint64_t n_dup_executions; /* completions the workers saw succeed beyond rows done */
    int backlog_exhausted;     /* the backlog ran dry for some worker: rows/s is a floor */
    double pgbench_tps;        /* the reference at W clients: mean of the adjacent runs */
    double pgbench_adjacent_before_tps, pgbench_adjacent_after_tps; /* around this group */
    double pgbench_run_tps; /* mean of the runs before and after the whole matrix */
    rbb_waits waits;
    int failed;  /* a worker failed: figures incomplete */
    int not_run; /* failed because a stop came before it started (no figure at all) */
    /* Repetitions (the figures above are those of the median repetition by rows/s;
     * n_lost, n_dup_executions and after.n_duplicates are summed over all of them). */
    uint32_t n_repeats;
    double rep_rows_per_s[RBB_MAX_REPEATS]; /* in the order measured */
    double rep_claim_p50_us[RBB_MAX_REPEATS];
    double rows_per_s_min, rows_per_s_max;
    /* The adjacent pgbench reference: |after - before| / mean; > RBB_DRIFT_MAX flags
     * the group, which is then measured once more (these figures are the second
     * measurement's; first_drift is the first's). */
    double pgbench_drift, first_drift;
    int drift_flagged, remeasured;
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
    rbb_window_dip dip_1s;  /* 1 s after vs 1 s before, beside the pre-join 1 s variation */
    int failed;
} rbb_scale;

typedef struct rbb_kill {
    double at_s; /* since the go */
    char worker_id[RBB_WORKER_ID_BYTES];
    uint64_t n_rows_held;     /* rows leased to it when killed (mid-batch if > 0) */
    uint64_t n_rows_orphaned; /* of those, still leased after its backend ended (a commit
                                 in flight when the client died still lands) */
    double detect_ms;         /* kill -> marked dead by a housekeeper (TTL); -1: not seen */
    double reclaim_ms;        /* kill -> none of its rows still leased to it; -1: not seen */
    double redone_ms;         /* kill -> every row it held completed by others; -1 */
} rbb_kill;

typedef struct rbb_crash {
    int chain; /* the workers chain each completion with their next claim (worker --chain) */
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

/* One point of the backlog sweep: the claim cost of one mode over a backlog of
 * `backlog` pending rows, one hot key holding 1/hot_every of them with its head row in
 * flight (backlog.c). */
typedef struct rbb_backlog_point {
    uint64_t size;          /* the backlog size asked for (--backlog) */
    uint64_t backlog;       /* pending rows when the workers were released (first repetition) */
    uint64_t n_hot_pending; /* of those, rows of the hot key */
    /* mode, W, batch, rows/s, lost, duplicates: rbb_cell_aggregate of the repetitions
     * (rep_claim_p50_us holds every repetition's claim p50, in the order measured) */
    rbb_cell cell;
    /* the claim p50 and p99 (µs): the median over the repetitions (nearest rank); the
     * smallest and largest repetition p50; NaN when no repetition timed a claim */
    double claim_p50_us, claim_p99_us, claim_p50_min_us, claim_p50_max_us;
    double consumed_share;     /* rows done in the median repetition / backlog */
    uint32_t n_failed_repeats; /* repetitions that failed (left out of every figure above;
                                * cell.failed set when any did) */
} rbb_backlog_point;

/* Where the backlog sweep stopped when it could not go on (error[0] != '\0'): the backlog size
 * being measured, the step that failed ("filling" the queue, "measuring" or "topping up"
 * after a measurement), its repetition (1-based; 0 while filling) and mode, and why. The
 * points measured before it are kept. */
typedef struct rbb_backlog_stop {
    uint64_t backlog;
    const char *step;
    uint32_t repetition;
    rbb_mode mode;
    char error[1024];
} rbb_backlog_stop;

/* One interval of the soak run (soak.c). */
/* The queue tables the soak samples autovacuum of: inbox, inbox_done, inbox_leases, effects. */
#define RBB_SOAK_N_TABLES 4
extern const char *const rbb_soak_tables[RBB_SOAK_N_TABLES];

typedef struct rbb_soak_interval {
    double t_end_s;        /* since the workers started */
    double rows_per_s;     /* rows completed in the interval per second */
    uint64_t n_inbox_rows; /* rows in inbox at its end (every status) */
    uint64_t n_pending;    /* of those, pending */
    uint64_t n_done;       /* of those, done (kept until the retention deletes them) */
    uint64_t n_completed;  /* rows completed since the soak started (effects) */
    uint64_t
        n_dead_tup; /* pg_stat_user_tables.n_dead_tup: inbox, inbox_done, inbox_leases, effects */
    uint64_t inbox_bytes;                         /* pg_total_relation_size of inbox + inbox_done */
    uint64_t inbox_heap_bytes, inbox_index_bytes; /* of those, the table's main fork
                                                   * (pg_relation_size) and its indexes
                                                   * (pg_indexes_size) */
    uint64_t n_autovacuum;      /* autovacuums of inbox, the server's running total */
    uint64_t oldest_pending_ms; /* how long the oldest due pending row has waited (now() -
                                 * run_at; 0 when none): a bucket left behind shows here */
    /* The work the interval cost per row completed (rbb_work, NaN where unknown): a queue
     * whose cost grows with time needs more of it per row; a machine that slows down does
     * not. Shared-buffer accesses in the queue database (the producer's COPY, the workers'
     * statements, the housekeepers' and the driver's samples), WAL bytes and full-page images
     * per 1,000 rows (server-wide, autovacuum's included), and the whole machine's CPU time
     * in µs (server, workers, producer). */
    double buffers_per_row, wal_bytes_per_row, wal_fpi_per_krow, machine_cpu_us_per_row;
    /* The machine and the commit path in the interval: CPU cores busy (busy CPU time ÷
     * elapsed; this machine has 2), the share of CPU time the hypervisor gave to other
     * guests (steal ÷ all CPU time: a shared host's noise), the mean time of one WAL
     * flush in ms (NaN unless track_wal_io_timing is on) and the checkpoints started. */
    double cores_busy, steal_share, wal_flush_ms, n_checkpoints;
    /* The share of the interval's samples (one every 0.5 s) in which autovacuum was
     * processing each queue table (a VACUUM or ANALYZE in progress; rbb_soak_tables order);
     * NaN when no sample was read (a role without pg_read_all_stats sees no other role's) */
    double autovacuum_share[RBB_SOAK_N_TABLES];
} rbb_soak_interval;

#define RBB_MAX_SOAK_INTERVALS 64

/* The soak run: W 4 affinity workers at batch 8 for soak_s while a producer keeps the
 * backlog topped up (issue 11, target 6). */
typedef struct rbb_soak {
    double secs, interval_s;
    uint32_t n_workers, batch;
    uint64_t backlog; /* the producer tops the rows not yet done up to this */
    size_t n_intervals;
    rbb_soak_interval iv[RBB_MAX_SOAK_INTERVALS];
    double last_vs_first; /* rows/s of the last interval / the first */
    /* The same ratio of the work per row (buffers, machine CPU µs): about 1 when the queue
     * costs as much per row at the end as at the start */
    double buffers_last_vs_first, cpu_last_vs_first;
    /* pgbench simple-update at n_workers clients right before and right after the soak (the
     * server and machine without the queue; --pgbench-secs each): after ÷ before below 1
     * is a server or machine that slowed down over the soak whatever the queue did. Drift as
     * the matrix's (rbb_pgbench_drift), flagged past RBB_DRIFT_MAX. tps 0: not run (pgbench
     * failed, or a stop). */
    rbb_pgbench_result pgbench_before, pgbench_after;
    /* before, after: why the server could not be settled (VACUUM, CHECKPOINT: the latter needs
     * superuser or pg_checkpoint) before that reference ran, "" when it was */
    char unsettled[2][200];
    double pgbench_drift;
    int drift_flagged;
    uint64_t n_rows, n_lost, n_duplicates;
    /* the workers' claims over the soak, those that found no row (a worker whose owned
     * buckets ran dry while rows waited in others'), and rows claimed for their age */
    uint64_t n_claims, n_empty_claims, n_rows_aged;
    char autovacuum[512]; /* the server's autovacuum settings and inbox's reloptions */
    /* the retention in effect (queue_config; set by the soak, off again after it) */
    uint64_t retention_ms;
    uint32_t retention_batch;
    /* Is the inbox bounded: done rows at the end of the last interval against the most the
     * retention may keep: the rows completed since the last interval end at least retention
     * + one heartbeat interval (the most a row waits for a round) before it, plus one
     * retention batch; 0 when the retention is off. */
    double done_bound_rows;
    int inbox_bounded;
    uint32_t heartbeat_ms; /* of the soak's workers: a housekeeping round per interval */
    int failed;
} rbb_soak;

typedef struct rbb_run {
    rbb_params p;
    char *machine_json;       /* scripts/machine-record output (owned), or NULL */
    char *explain;            /* EXPLAIN ANALYZE of the claims at the largest batch (owned) */
    uint64_t explain_backlog; /* pending rows when it was taken */
    char date[32];
    /* the server settings every figure depends on ("name=value ...", current_setting) */
    char server_settings[1024];
    rbb_pgbench_result pgbench[RBB_MAX_LIST];       /* per p.workers[i], before the matrix */
    rbb_pgbench_result pgbench_after[RBB_MAX_LIST]; /* the same after it */
    int pgbench_ok, pgbench_rounds;
    int pgbench_skipped; /* 1: not run, the run measures no cell (--batch none --chain-workers
                          * none); so no EXPLAIN either */
    char pgbench_error[512];
    rbb_cell *cells;
    size_t n_cells;
    rbb_scale scale[2]; /* consistent ring (p.ring_algo), then modn */
    size_t n_scale;
    rbb_crash crash;
    int has_crash;
    rbb_crash crash_chain; /* the crash run again with chain workers (when the chain group ran) */
    int has_crash_chain;
    rbb_backlog_point *backlog; /* up to n_backlogs x n_modes points (owned) */
    size_t n_backlog;
    rbb_backlog_stop backlog_stop; /* error "" when the sweep ran to its end */
    rbb_soak soak;
    int has_soak;
    /* the part of the run in flight ("the matrix: competing W=2 batch=8 uniform, repetition
     * 1/3", "the scale event (ring)", ...): where a stop signal stopped it */
    char part[160];
    int stop_signal; /* the signal that stopped the run (SIGINT, SIGTERM), else 0 */
} rbb_run;

/* Rows to enqueue so that W workers for `secs` at this batch size do not
 * run dry: 2.5 x secs x the best total rate measured so far at this batch
 * (rbb_note_rate), else a default estimate; at least 1,000. --rows overrides. */
uint64_t rbb_rows_for(const rbb_params *p, uint32_t batch, uint32_t n_workers, double secs);
void rbb_note_rate(uint32_t batch, uint32_t n_workers, double rows_per_s);

/* The pgbench reference at W clients: the mean of the runs before and after
 * the matrix (0 when pgbench failed). */
double rbb_pgbench_tps_for(const rbb_run *run, uint32_t n_workers);
/* Claim and completion p50 / p99 of a cell from its workers' samples (the
 * children ch[0..n) that sent a FINAL report). Out of memory: left 0. */
void rbb_cell_latencies(rbb_cell *c, const rbb_child *ch, size_t n);
/* Measure one cell over the backlog as it is in the queue (cell->n_rows_enqueued rows):
 * fork cell->n_workers workers (cell->mode, cell->batch), release them at once, let them
 * claim and complete for secs (each worker stops earlier once it has done max_rows rows;
 * 0: no cap), collect their reports, count the queue afterwards (lost, duplicates). 0, or
 * -1 with err (cell->failed set). */
int rbb_cell_measure(const rbb_params *p, const char *conninfo, PGconn *c, rbb_cell *cell,
                     double secs, uint64_t max_rows, char *err, size_t err_size);
/* One cell from its repetitions reps[0..n) (n <= RBB_MAX_REPEATS, in the order measured):
 * the figures of the median repetition by rows/s (of those that did not fail; nearest
 * rank: the lower middle one when their number is even), rows/s and claim p50 of every repetition
 * (NaN for a failed one), the min and max rows/s; lost rows and duplicates summed over all
 * repetitions; failed when any repetition failed; every figure NaN when all failed. */
void rbb_cell_aggregate(rbb_cell *out, const rbb_cell *reps, size_t n);

#endif
