/*
 * db.h — the driver's own libpq helpers for `ringbench pg bench`
 * (bench/pg/README.md): connecting to a named database on the server a
 * conninfo points at, one-value queries. Not a public interface; a PGconn is
 * used by one thread at a time.
 */
#ifndef RINGBENCH_PGB_DB_H
#define RINGBENCH_PGB_DB_H

#include <stddef.h>

#include <libpq-fe.h>

/* Connect to `dbname` (NULL: the conninfo's own) on the server `conninfo`
 * (any libpq conninfo or URI; "" = PG* defaults). NULL with err on failure. */
PGconn *rbb_db_connect(const char *conninfo, const char *dbname, char *err, size_t err_size);
/* s on one line, in place: every run of spaces, tabs and newlines made one space, none at
 * the ends (libpq's and child programs' messages quoted in a one-line error). */
void rbb_db_one_line(char *s);
/* 1 when c was lost (PQstatus CONNECTION_BAD), with "the connection to the server was lost:
 * <libpq's message of the loss>" in err; 0 otherwise. A statement sent on a lost connection
 * would replace that message with "no connection to the server". */
int rbb_db_lost(PGconn *c, char *err, size_t err_size);
/* PQexec(c, sql) that a stop signal (stop.h) cancels: sent, then waited for 100 ms at a time;
 * once rbb_stop_signal is set, one cancel request goes to the server and the statement ends
 * with its error ("canceling statement due to user request"). NULL when a stop signal came
 * before it was sent or it could not be sent (PQerrorMessage says why). As PQexec: the first
 * error result of a multi-statement string, else the last result, or the COPY result at once
 * (PGRES_COPY_IN ...: the copy is the caller's); the caller PQclears it. */
PGresult *rbb_db_exec_stoppable(PGconn *c, const char *sql);
/* A notice processor that drops notices (CREATE ... IF NOT EXISTS chatter). */
void rbb_db_quiet_notice(void *arg, const char *message);
/* The connection's parameters as a keyword='value' conninfo for a child process (same
 * environment), without the values libpq derives by itself there (defaults, PG* variables,
 * the usual password file). 0, or -1 when it does not fit in size. */
int rbb_db_conninfo_string(PGconn *c, char *buf, size_t size);
/* Run a statement (printf format); 0, or -1 with err. On a lost connection (PQstatus
 * CONNECTION_BAD) nothing is sent and err keeps libpq's message of the loss. */
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
/* The server settings `names` (comma-separated, as pg_settings names them) as one line
 * "name=value ..." (current_setting: with units) into out, and with `inbox_reloptions` the
 * inbox table's reloptions after them (" inbox.reloptions=..." or "none"); "?" when the
 * server cannot say. */
void rbb_db_settings(PGconn *c, const char *names, int inbox_reloptions, char *out, size_t size);
/* rbb_db_claim — may pg bench use the database c is connected to as its scratch database
 * for `opt` (--queue-db, --pgbench-db)? Yes (0) when it carries `mark` (COMMENT ON DATABASE);
 * or when it has no comment and no table, view or foreign table in a user schema but those
 * named LIKE own_like (NULL: none; "pgbench\\_%": pgbench's own, which pgbench -i recreates
 * anyway), and it is then marked (the role must own the database). No (-1, err naming the
 * database, what is in it and what to do; nothing touched) for a database with a comment of
 * its own (another application's, or the bench's other database) or with other tables (a
 * real queue, an application). */
int rbb_db_claim(PGconn *c, const char *mark, const char *own_like, const char *opt, char *err,
                 size_t err_size);
/* CREATE DATABASE dbname unless it exists. 0, or -1 with err. */
int rbb_db_ensure_database(PGconn *admin, const char *dbname, char *err, size_t err_size);

/* The work done so far by the server and the machine, read at one instant (rbb_work_now);
 * the difference of two readings is the work between them. Each figure is NaN when it cannot
 * be read (an older server, a missing view, not Linux). */
typedef struct rbb_work {
    double wal_bytes;   /* the WAL insert position in bytes (pg_current_wal_insert_lsn) */
    double buffers;     /* shared-buffer accesses in c's database (pg_stat_database
                         * blks_hit + blks_read; a backend's counts reach it when it goes
                         * idle, at most about once a second, and when it exits) */
    double wal_syncs;   /* WAL flushes (pg_stat_wal.wal_sync, PostgreSQL 14-17) */
    double wal_fpi;     /* full-page images written to WAL (pg_stat_wal.wal_fpi, 14+) */
    double wal_sync_ms; /* time spent flushing WAL (pg_stat_wal.wal_sync_time, 14-17; 0
                         * unless track_wal_io_timing is on, which scripts/pg sets) */
    double checkpoints; /* checkpoints started, timed and requested (pg_stat_bgwriter before
                         * 17, pg_stat_checkpointer from 17) */
    double busy_us;     /* CPU time of the whole machine, user + nice + system + irq +
                         * softirq (not idle, iowait or steal), from /proc/stat */
    double steal_us;    /* CPU time the hypervisor gave to other guests (/proc/stat steal) */
    double total_us;    /* all CPU time, idle and steal included (the line's 8 fields) */
} rbb_work;

/* Read the counters of rbb_work now, on c (any database of the server; buffers are c's
 * database's). Never fails: a figure that cannot be read is NaN. */
void rbb_work_now(PGconn *c, rbb_work *w);

#endif
