/*
 * pgbench.h — the reference of `ringbench pg bench` (bench/pg/README.md):
 * the server's own pgbench (simple-update) on the same server, in a separate
 * database. Not a public interface; not thread-safe (forks pgbench).
 */
#ifndef RINGBENCH_PGB_PGBENCH_H
#define RINGBENCH_PGB_PGBENCH_H

#include <stddef.h>
#include <stdint.h>

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
/* Is path an executable regular file (looked up in PATH when it has no '/')? 1 or 0. Lets a
 * run refuse a pgbench it cannot start before it measures anything. */
int rbb_pgbench_runnable(const char *path);
/* pgbench -i -s 1 into t->dbname (which must exist). 0, or -1 with err. */
int rbb_pgbench_init(const rbb_pg_target *t, const char *pgbench, char *err, size_t err_size);
/* pgbench -n -b simple-update -c N -j N -T secs. 0, or -1 with err. */
int rbb_pgbench_run(const rbb_pg_target *t, const char *pgbench, uint32_t clients, double secs,
                    rbb_pgbench_result *res, char *err, size_t err_size);

/* How far a reference moved between two runs: |after - before| / their mean; 0 when either
 * is 0 (not run). The drift flag of `pg bench` compares it with RBB_DRIFT_MAX (cells.h). */
double rbb_pgbench_drift(double before_tps, double after_tps);

#endif
