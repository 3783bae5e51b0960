/*
 * pg_cli.h — what the `ringbench pg` subcommands share: the session options
 * (--db, --schema, --retry-ms), opening a session with CLI error reporting,
 * and the subcommands themselves. Adding a subcommand: write
 * `int rb_pg_cmd_<name>(int argc, char **argv)` (argv[0] = "<name>"), declare it
 * here and add one line to the table in cmd_pg.c. Not thread-safe (CLI).
 */
#ifndef RINGBENCH_PG_CLI_H
#define RINGBENCH_PG_CLI_H

#include "cli.h"
#include "queue.h"

/*
 * rb_pg_session_option — consume argv[*i] (and its value) when it is one of
 *   --db CONNINFO   libpq conninfo/URI (default $RINGBENCH_PG_CONNINFO, else PG* variables)
 *   --schema NAME   queue schema (default $RINGBENCH_PG_SCHEMA, else "ringbench")
 *   --retry-ms MS   how long to keep reconnecting (default 10000)
 * into cfg. Returns 1 when consumed, 0 when not a session option, -1 after a
 * usage error was printed. rb_pg_session_defaults fills the env defaults.
 */
void rb_pg_session_defaults(rb_queue_config *cfg);
int rb_pg_session_option(const char *cmd, rb_queue_config *cfg, int argc, char **argv, int *i);
/* rb_pg_session_help — the session options' help lines into buf (size bytes), with the
 * --retry-ms default of `cfg` (the command's: pg chaos waits longer); returns buf. */
const char *rb_pg_session_help(const rb_queue_config *cfg, char *buf, size_t size);

/*
 * rb_pg_parse_options — parse argv[1 .. argc) of pg subcommand `cmd` with the
 * shared rules of rb_cli_parse_args (options anywhere, each at most once, "--"
 * ends them, --help prints `help`, the session options and, when `ring` is
 * given, `ring_help` and the ring options). Takes the session options into
 * cfg, the ring options into *ring (NULL: not accepted; --members is always
 * refused), anything else through `extra` (may be NULL) with ctx. Positional
 * arguments are moved to argv[1 .. 1 + *n_pos); with n_pos NULL any is a usage
 * error. *ring_used (may be NULL) is set when a ring option was given.
 * Returns RB_CLI_CONTINUE to run the command, else the exit code (help
 * printed: RB_EXIT_OK; usage error printed: RB_EXIT_USAGE).
 */
typedef int (*rb_pg_extra_option_fn)(const char *cmd, void *ctx, int argc, char **argv, int *i);
int rb_pg_parse_options(const char *cmd, const char *help, const char *ring_help, int argc,
                        char **argv, rb_queue_config *cfg, rb_cli_ring *ring,
                        rb_pg_extra_option_fn extra, void *ctx, int *n_pos, int *ring_used);

/*
 * rb_pg_open — rb_queue_open with CLI reporting: 0 and *q, or prints one line
 * and returns RB_EXIT_USAGE (bad configuration) / RB_EXIT_FAILURE (server
 * unreachable, with a hint about scripts/pg when no server was configured) / 128 + the
 * signal when the stop flag cfg->interrupt (rb_pg_stop_signals, or the caller's own handler
 * storing the signal's number) ended the wait for the server. Without a stop flag
 * (cfg->interrupt NULL), SIGINT and SIGTERM are caught for the wait only (then as before), so a
 * command stopped while waiting says so in one line and exits 128 + the signal.
 */
int rb_pg_open(const char *cmd, const rb_queue_config *cfg, rb_queue **q);

/*
 * rb_pg_stop_signals — SIGTERM and SIGINT set rb_pg_stop_requested (to the signal's number);
 * sets cfg->interrupt to it, so a wait for an unreachable server ends at once (rb_pg_open then
 * returns 128 + the signal, as a process the signal ended). Call before rb_pg_open.
 * rb_pg_stop_target(q) (NULL: none) names the session whose claim, housekeeping or enqueue
 * statement a stop signal then cancels (rb_queue_cancel); clear it before rb_queue_close.
 * Single-threaded callers, or threads that block the signals (rb_worker_run's heartbeat thread).
 */
extern volatile sig_atomic_t rb_pg_stop_requested;
void rb_pg_stop_signals(rb_queue_config *cfg);
void rb_pg_stop_target(rb_queue *q);

/* The `ringbench pg` subcommands. */
int rb_pg_cmd_migrate(int argc, char **argv);
int rb_pg_cmd_enqueue(int argc, char **argv);
int rb_pg_cmd_worker(int argc, char **argv); /* cmd_pg_worker.c */
int rb_pg_cmd_status(int argc, char **argv);
int rb_pg_cmd_retry(int argc, char **argv);
int rb_pg_cmd_chaos(int argc, char **argv); /* cmd_pg_chaos.c */
int rb_pg_cmd_explain(int argc, char **argv);
int rb_pg_cmd_bench(int argc, char **argv); /* bench/pg/bench.c (bench/pg/README.md) */

#endif
