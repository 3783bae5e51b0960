/*
 * stop.h — how `ringbench pg bench` stops on SIGINT or SIGTERM: the handler sets a flag, every
 * part of the run checks it (the driver's statements, children.h's waits), and the run writes
 * what finished with where it stopped. Not a public interface.
 */
#ifndef RINGBENCH_PGB_STOP_H
#define RINGBENCH_PGB_STOP_H

#include <signal.h>
#include <stddef.h>

/* The signal (SIGINT, SIGTERM) that asked `pg bench` to stop; 0: none. Set by the handler
 * rbb_stop_on_signals installs (a second signal within RBB_STOP_SAME_MS of the first is the
 * same stop; a later one ends the process as by default); the
 * driver then cancels the statement in flight (rbb_db_exec and the other db.h queries, the
 * fill's COPY), stops its workers (rbb_collect), writes what finished with where it stopped,
 * and exits 128 + the signal. */
extern volatile sig_atomic_t rbb_stop_signal;
/* Milliseconds after the first stop signal within which another is the same stop. */
#define RBB_STOP_SAME_MS 1000
/* Install the handler for SIGINT and SIGTERM (without SA_RESTART: polls and sleeps see EINTR). */
void rbb_stop_on_signals(void);
/* "interrupted by SIGINT" (the stop signal's name) into buf (size bytes), which it returns. */
const char *rbb_stop_reason(char *buf, size_t size);

#endif
