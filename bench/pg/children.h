/*
 * children.h — worker processes of `ringbench pg bench` (bench/pg/README.md):
 * fork a worker, the go pipe, the report pipe each worker writes its figures
 * and latency samples into, and the driver's collection of them (sampling
 * wait events meanwhile). Not a public interface; the driver is
 * single-threaded.
 */
#ifndef RINGBENCH_PGB_CHILDREN_H
#define RINGBENCH_PGB_CHILDREN_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <libpq-fe.h>

#include "stop.h"

#define RBB_REPORT_MAGIC 0x52424252u /* "RBBR" */
enum { RBB_REPORT_READY = 1, RBB_REPORT_FINAL = 2 };
#define RBB_WORKER_ID_BYTES 96

/* What a worker tells the driver (READY: magic, kind, worker_id only). */
typedef struct rbb_report_head {
    uint32_t magic, kind;
    char worker_id[RBB_WORKER_ID_BYTES];
    uint64_t t_go_ns, t_end_ns; /* CLOCK_MONOTONIC: released, stopped */
    uint64_t n_claims;          /* claim transactions */
    uint64_t n_empty_claims;    /* claims that returned no row */
    uint64_t n_short_claims;    /* claims that returned 1 .. batch-1 rows */
    uint64_t n_rows_aged;       /* rows claimed for their age (rb_worker_stats.n_rows_aged) */
    uint64_t n_rows;            /* rows completed (effect written, fenced) */
    uint64_t n_complete_tx;     /* completion transactions committed (not those chained:
                                   they share the next claim's) */
    uint64_t n_fenced;          /* completions refused: lease lost (stale) */
    uint64_t n_errors;          /* failed calls (retried) */
    uint64_t cpu_ns;            /* CPU time of the worker process (every thread: the loop
                                   and its heartbeat), user + system, from the go to the end
                                   (CLOCK_PROCESS_CPUTIME_ID) */
    uint64_t n_samples;         /* rbb_sample records that follow */
} rbb_report_head;

/* One claim + complete cycle that returned rows. */
typedef struct rbb_sample {
    uint64_t claim_ns;    /* claim transaction, request to result (when claim_timed) */
    uint64_t complete_ns; /* completion transaction(s) of the batch incl. effects */
    uint32_t claim_timed; /* 0: claimed inside the previous completion's transaction
                             (rb_worker_batch_info.claim_timed): no claim time */
    uint32_t pad;
} rbb_sample;

/* The driver's view of one worker process. */
typedef struct rbb_child {
    pid_t pid;
    int fd; /* report pipe, read end; -1 when closed */
    char *buf;
    size_t len, cap;
    int ready, has_final;
    int exit_status; /* once reaped: the exit status, or -1 when a signal ended it */
    int exit_signal; /* once reaped: the signal that ended it, else 0 */
    int overran;     /* 1: still running at its deadline, killed (rbb_collect) */
    char worker_id[RBB_WORKER_ID_BYTES];
    rbb_report_head final;
    const rbb_sample *samples; /* into buf, final.n_samples of them */
} rbb_child;

/* Fork a worker running body(arg, go_fd, report_fd) (which must not return);
 * the child closes go_wfd and gets SIGTERM when the driver dies (PR_SET_PDEATHSIG, Linux):
 * no worker outlives a driver killed without its stop. Returns the pid, or -1. */
pid_t rbb_spawn(rbb_child *ch, int go_rfd, int go_wfd,
                void (*body)(void *arg, int go_fd, int report_fd), void *arg);
/* How long a worker may take from its fork to its READY (connecting, preparing), in ms. */
#define RBB_READY_TIMEOUT_MS 20000

/* Spawn one worker that starts at once (no go pipe) and wait up to RBB_READY_TIMEOUT_MS for
 * its READY.
 * 0, or -1 with err (a worker that did not become ready is killed). */
int rbb_spawn_ready(rbb_child *ch, void (*body)(void *arg, int go_fd, int report_fd), void *arg,
                    char *err, size_t err_size);
/* Send a report head and samples (child side). 0 or -1. */
int rbb_report_send(int fd, const rbb_report_head *h, const rbb_sample *samples);
/* Wait up to timeout_ms for the worker's READY head. 0, or -1 with why (a phrase after
 * "worker N": "was not ready after 20 s (a stall?) and was killed" — the worker is SIGKILLed —,
 * "ended before it was ready (see its message above)" on EOF or garbage, or the stop signal's
 * reason when one arrived meanwhile). */
int rbb_wait_ready(rbb_child *ch, int timeout_ms, char *why, size_t why_size);

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
 * `sampler` (may be NULL) every sample_interval_ms; then reap and parse.
 * deadline_ns (rb_now_ns clock; 0: none): a child whose pipe is still open then is
 * killed (SIGKILL, which also ends a stopped process) and marked `overran` — a stall (a
 * lock wait, SIGSTOP, a hung server) fails the measurement instead of stretching it or
 * hanging the run. A stop signal (rbb_stop_signal) is passed on to the children as SIGTERM
 * (they stop at their next batch and report) and brings the deadline to at most
 * RBB_STOP_GRACE_S away. */
void rbb_collect(rbb_child *ch, size_t n, PGconn *sampler, rbb_waits *waits, int sample_interval_ms,
                 uint64_t deadline_ns);
/* How long after the end of a measurement of `secs` seconds its workers may still run
 * before rbb_collect kills them: 1 s + a quarter of it (a worker stops at the end of the
 * batch in flight and leaves the membership; on this 2-core machine that takes ms). */
double rbb_overrun_slack_s(double secs);
/* Seconds a child has, from a stop signal or a SIGTERM of the driver's, to report. */
#define RBB_STOP_GRACE_S 5.0

/* Drain, reap and parse one child (called by rbb_collect). */
void rbb_child_finish(rbb_child *ch);
/* How a reaped child ended, for a message: "exited with status N", "was killed by signal
 * N (SIGNAME)" or "was still running at its deadline (a stall?) and was killed", plus
 * " without a report" when it sent no FINAL report; into buf (at most size bytes), which
 * it returns. */
const char *rbb_child_end(const rbb_child *ch, char *buf, size_t size);
void rbb_child_free(rbb_child *ch);

#endif
