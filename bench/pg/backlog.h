/*
 * backlog.h — the backlog sweep of `ringbench pg bench --backlog` (bench/pg/README.md;
 * issue 11, target 3): the claim latency of every mode against the number of pending
 * rows, with one hot key holding a share of the backlog whose head row is in flight.
 * Not a public interface; single-threaded (the driver forks the workers).
 */
#ifndef RINGBENCH_PGB_BACKLOG_H
#define RINGBENCH_PGB_BACKLOG_H

#include "cells.h"

/* The largest share of the backlog one measurement may complete: each of its W workers stops
 * at pending x this / W rows done (or at p->backlog_s), so a point's claims all meet between
 * (1 - this) x and 1 x its backlog, at 10 k as at 1 M. */
#define RBB_BACKLOG_MAX_SHARE 0.2

/* For every backlog size p->backlogs[i]: empty the queue, enqueue that many rows (keys
 * uniform over p->n_keys, one row in p->backlog_hot_every the hot key RBB_HOT_KEY),
 * put the hot key's head row in flight (claimed by a holder with a 1 h lease), then
 * p->repeats times, per mode in p->modes (interleaved), measure p->backlog_workers workers
 * at p->backlog_batch for p->backlog_s or until they have done RBB_BACKLOG_MAX_SHARE of the
 * backlog, whichever comes first, and top the backlog up to what the first measurement
 * started from, in all and of the hot key (rows done deleted, the missing rows enqueued,
 * VACUUM ANALYZE). Appends n_backlogs x n_modes points
 * to run->backlog, each from its repetitions (rbb_backlog_point: median claim p50 and p99,
 * min..max p50, failed repetitions left out). A lost driver session is reopened
 * (rbb_queue_reconnect) and the step run again. Returns the number of points that failed (any
 * repetition) or found duplicates or lost rows; -1 with err when the sweep could not go on:
 * then the points of the repetitions measured before are appended all the same and
 * run->backlog_stop says where it stopped. */
int rbb_run_backlog(rbb_run *run, const char *conninfo, PGconn *c, char *err, size_t err_size);

#endif
