/*
 * events.h — the fault half of `ringbench pg bench` (bench/pg/README.md): a
 * scale event (a 4th worker joins 3 at steady state) and the crash injection
 * (SIGKILLs and a SIGSTOP stall). Not a public interface; single-threaded
 * (the driver forks the workers).
 */
#ifndef RINGBENCH_PGB_EVENTS_H
#define RINGBENCH_PGB_EVENTS_H

#include "cells.h"

/* 0, or -1 with err (out->failed set). */
int rbb_run_scale(const rbb_params *p, const char *conninfo, PGconn *c, const char *algo,
                  rbb_scale *out, char *err, size_t err_size);
/* The crash injection with workers that chain each completion with their next claim when
 * `chain` (worker --chain), else complete per batch. 0, or -1 with err (out->failed set). */
int rbb_run_crash(const rbb_params *p, const char *conninfo, PGconn *c, int chain, rbb_crash *out,
                  char *err, size_t err_size);

#endif
