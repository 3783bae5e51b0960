/*
 * queue/worker.h — the worker loop of the claim protocol (queue.h), the one
 * loop that `ringbench pg worker` runs and `ringbench pg bench` drives.
 *
 * rb_worker_run(q, opts, hooks, stats):
 *   1. register q (a new incarnation) unless already registered, refresh the
 *      membership, one housekeeping round; hooks->on_ready, then the refresh and
 *      housekeeping round again (workers may have registered while it waited);
 *   2. start the keeper: a thread with its own session (rb_queue_open_companion)
 *      that, every min(heartbeat_ms, lease_ms / 3), heartbeats this
 *      incarnation and extends (fenced, rb_queue_extend_batch) the leases of the
 *      rows the loop still holds. Heartbeats therefore never wait for handlers:
 *      a busy worker is not declared dead. A lease the keeper finds lost is
 *      marked so, and a heartbeat that finds the incarnation dead stops the loop;
 *   3. loop: every heartbeat_ms the membership refresh and a housekeeping round
 *      (on q); claim a batch (in id order, but its suspects, rows whose handler
 *      started under an earlier lease and never finished, moved to the end, in
 *      ordered mode with the later rows of their keys: a poison row that kills
 *      its worker then no longer takes the rows behind it down at every claim);
 *      for each row, in that order: skip it when its lease is
 *      lost or may have expired (a conservative local deadline: the claim's send
 *      time + lease, moved forward by each extension's send time), record the
 *      start first when the row was claimed before (rb_queue_start: a handler
 *      that kills its worker is charged an attempt), run the handler, and
 *      when such a row succeeds complete it at once with the batch's successful
 *      rows before it (one statement, so runs stay in id order; the rows before
 *      a poison row do not run out of attempts beside it); then ONE statement
 *      completes the batch's other successful rows and writes their effects
 *      (rb_queue_complete_batch, each row fenced by (id, lease_generation); with
 *      opts->chain, in the same transaction as the next claim);
 *      failed rows go back with backoff (rb_queue_fail). Ordered mode: a claim
 *      may hold a run of a key's rows (in id order); once one of them fails or is
 *      not started, the later rows of its key in the batch are released unrun
 *      (fenced; counted n_held_back), so none runs before it.
 *   4. stop on: hooks->should_stop, opts->duration_ms, opts->max_claims
 *      non-empty claims, opts->until_empty (nothing pending that could run and
 *      nothing claimed), opts->idle_ms without a row, the incarnation declared
 *      dead, an error. Held rows not started are released (fenced); the
 *      membership is left by the caller: rb_queue_leave, which reports a failure
 *      (`pg worker` does), or rb_queue_close, which cannot.
 *
 * Returns 0 (a stop condition), RB_ELOST (this incarnation was declared dead
 * or its id registered again: it must not act again; `pg worker` exits 3),
 * RB_EINVAL (the id is alive in another process), RB_EDB (a server error that
 * is not transient, or a transient one that outlasted cfg.retry_ms; held rows
 * were released), RB_ENOMEM. The detail is in rb_error_detail().
 *
 * Thread safety: one call per rb_queue; hooks are called from the calling
 * thread only (never from the keeper).
 */
#ifndef RINGBENCH_QUEUE_WORKER_H
#define RINGBENCH_QUEUE_WORKER_H

#include <stddef.h>
#include <stdint.h>

#include "queue.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one claimed batch cost (for benchmarks: per-claim latency). */
typedef struct rb_worker_batch_info {
    size_t n_claimed;     /* rows in the claim (0: empty claim) */
    size_t n_done;        /* completed by the batch's completion statement */
    size_t n_lost;        /* handler ran but the completion was fenced (lease lost) */
    size_t n_failed;      /* handler failed: back to pending or dead letter */
    size_t n_skipped;     /* not started: released at a stop, lease lost or possibly expired */
    size_t n_held_back;   /* ordered: released unrun behind an older row of their key that
                             failed or was not started in this batch */
    uint64_t claim_ns;    /* the claim statement, round trip; 0 when not claim_timed */
    int claim_timed;      /* 1: claim_ns times a claim statement of its own (empty or not);
                             0: the batch was claimed inside the previous completion's
                             transaction (opts chain) and has no claim time of its own */
    uint64_t handler_ns;  /* all handlers of the batch */
    uint64_t complete_ns; /* the completion statement, round trip */
} rb_worker_batch_info;

/* Callbacks; every member may be NULL. `ctx` is passed back. */
typedef struct rb_worker_hooks {
    void *ctx;
    /* After registration and the first membership refresh, before the first
     * claim (a benchmark reports ready and waits for its start signal).
     * Non-zero stops the run (return value 0). */
    int (*on_ready)(void *ctx, rb_queue *q);
    /* The handler of one row. 0 = success (the row is completed with effect
     * *effect, default the worker id; the string must live until the batch is
     * completed); non-zero = failure with a message written to err
     * (err_size bytes). NULL: the simulated handler (opts work_us, fail_pct). */
    int (*handle)(void *ctx, const rb_queue_row *row, const char **effect, char *err,
                  size_t err_size);
    /* After each claim (empty or not) and the completion of its rows. */
    void (*on_batch)(void *ctx, const rb_worker_batch_info *info);
    /* One event line (membership change, workers marked dead, lost leases...),
     * without newline. NULL: "ringbench pg worker [ID]: LINE" on stderr. */
    void (*on_event)(void *ctx, rb_queue *q, const char *line);
    /* Polled before each claim and between rows: non-zero = stop now. */
    int (*should_stop)(void *ctx);
} rb_worker_hooks;

typedef struct rb_worker_options {
    int until_empty;      /* stop when nothing claimable is pending and nothing is claimed */
    uint32_t duration_ms; /* stop after this long (0 = no limit) */
    uint64_t max_claims;  /* stop after this many non-empty claims (0 = no limit) */
    uint32_t idle_ms;     /* stop after this long without claiming a row (0 = never) */
    uint32_t work_us;     /* simulated handler: sleep per row */
    uint32_t poll_us;     /* sleep after an empty claim (default 20000) */
    int complete_each;    /* 1: one completion statement per row (ablation), else batched */
    /* 1: a batch's completion and the next claim share one transaction
     * (rb_queue_complete_and_claim): one commit per batch instead of two, so one per row at
     * batch 1 (issue 11, target 4). The completion is fenced by lease_generation as ever;
     * a chained claim is not timed (claim_timed 0: its time is in the previous batch's
     * complete_ns). Not with complete_each. */
    int chain;
    /* Simulated handler faults (tests): fail the first fail_attempts handler
     * runs (attempts) of fail_pct % of rows, chosen by a hash of the
     * idempotency key. */
    uint32_t fail_pct, fail_attempts;
    /* Fault injection (tests): after a claim, stall this long holding the rows
     * with the keeper paused (no heartbeat, no extension: a frozen process). */
    uint32_t stall_after_claim_ms;
    /* After the stall, try complete, release, extend and heartbeat on the
     * stale rows, print each outcome to stdout, stop (return 0). */
    int stale_probe;
    int exit_after_claim; /* abandon the session holding the first claim (a crash) */
    /* The simulated handler kills its own process (SIGKILL) when it starts on a
     * row with this partition key: a poison row (NULL = none). */
    const char *crash_on_key;
} rb_worker_options;

/* rb_worker_options_init — the defaults above (all zero but poll_us). */
void rb_worker_options_init(rb_worker_options *o);

/* Counters of one run. */
typedef struct rb_worker_stats {
    uint64_t n_claims, n_empty_claims, n_rows_claimed, max_claim_rows;
    uint64_t n_rows_aged;    /* of the rows claimed, those claimed for their age (row.aged) */
    uint64_t n_handler_runs; /* handlers started */
    uint64_t n_completed, n_failed, n_lost, n_skipped;
    uint64_t n_held_back;   /* ordered: rows of a run released unrun (batch info n_held_back) */
    uint64_t n_complete_tx; /* completion statements */
    uint64_t n_chained;     /* of those, committed with the next claim (opts.chain) */
    uint64_t n_marked_dead, n_released, n_membership_changes;
    uint64_t n_purged; /* done rows past the queue's retention this worker's rounds deleted */
    uint64_t n_dead_lettered; /* rows this worker's rounds failed for good: out of attempts or
                                 claims when their lease expired (rb_queue_housekeeping.n_failed) */
    uint64_t n_heartbeats, n_extensions; /* keeper statements */
    uint64_t elapsed_ms;
} rb_worker_stats;

/* rb_worker_run — the loop described above; *stats (zeroed first) counts it. */
int rb_worker_run(rb_queue *q, const rb_worker_options *opts, const rb_worker_hooks *hooks,
                  rb_worker_stats *stats);

#ifdef __cplusplus
}
#endif
#endif
