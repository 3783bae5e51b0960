/*
 * soak.h — the soak run of `ringbench pg bench --soak SECONDS` (bench/pg/README.md; issue
 * 11, target 6): does the queue hold its rate for minutes, and what does it leave behind?
 * Not a public interface; single-threaded (the driver forks the workers).
 */
#ifndef RINGBENCH_PGB_SOAK_H
#define RINGBENCH_PGB_SOAK_H

#include "cells.h"

#define RBB_SOAK_WORKERS 4 /* affinity workers */
#define RBB_SOAK_BATCH 8   /* rows per claim */

/* 4 affinity workers at batch 8 (p->ring_algo) claim and complete for p->soak_s seconds
 * while the driver, as the producer, tops the rows not yet done (pending and in flight,
 * from the effects sequence) up to a backlog every 0.5 s (COPY), under a retention of
 * p->soak_retention_ms (the queue's, set for the soak and off again after it: the workers'
 * housekeepers delete done rows older than it); every interval (60 s, or soak_s / 5 for runs under
 * 5 minutes) it records rows/s completed, inbox rows, pending rows, dead tuples, inbox bytes and
 * autovacuums of inbox. Fills run->soak. 0, or -1 with err (run->soak.failed set). */
int rbb_run_soak(rbb_run *run, const char *conninfo, PGconn *c, char *err, size_t err_size);

#endif
