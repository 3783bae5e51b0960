/*
 * db.c — the driver's own libpq helpers for `ringbench pg bench`
 * (db.h): connecting to a named database on the server a conninfo points
 * at, turning a live connection back into a conninfo string for the workers,
 * and one-value queries.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "pg_connect.h"
#include "stop.h"

PGconn *rbb_db_connect(const char *conninfo, const char *dbname, char *err, size_t err_size) {
    const char *kw[3] = {"dbname", dbname ? "dbname" : NULL, NULL};
    const char *val[3] = {conninfo ? conninfo : "", dbname, NULL};
    char why[64];
    PGconn *c = rb_pg_connect(kw, val, &rbb_stop_signal, why, sizeof why);
    if (!c || PQstatus(c) != CONNECTION_OK) {
        snprintf(err, err_size, "cannot connect%s%s: %s", dbname ? " to database " : "",
                 dbname ? dbname : "", c ? PQerrorMessage(c) : why);
        rbb_db_one_line(err); /* libpq's message may span several */
        PQfinish(c);
        return NULL;
    }
    PQsetNoticeProcessor(c, rbb_db_quiet_notice, NULL);
    return c;
}

void rbb_db_one_line(char *s) {
    char *w = s;
    for (const char *r = s; *r; r++) {
        int space = *r == ' ' || *r == '\n' || *r == '\r' || *r == '\t';
        if (!space)
            *w++ = *r;
        else if (w > s && w[-1] != ' ')
            *w++ = ' ';
    }
    if (w > s && w[-1] == ' ') w--;
    *w = '\0';
}

int rbb_db_lost(PGconn *c, char *err, size_t err_size) {
    if (PQstatus(c) != CONNECTION_BAD) return 0;
    snprintf(err, err_size, "the connection to the server was lost: %s", PQerrorMessage(c));
    rbb_db_one_line(err);
    return 1;
}

void rbb_db_quiet_notice(void *arg, const char *message) {
    (void)arg;
    (void)message;
}

/* Append `v` single-quoted with ' and \ escaped (libpq conninfo syntax). */
static void append_quoted(char *buf, size_t size, size_t *used, const char *v) {
    if (*used + 1 < size) buf[(*used)++] = '\'';
    for (; *v && *used + 3 < size; v++) {
        if (*v == '\'' || *v == '\\') buf[(*used)++] = '\\';
        buf[(*used)++] = *v;
    }
    if (*used + 1 < size) buf[(*used)++] = '\'';
    buf[*used] = '\0';
}

/* Whether libpq would derive the value `o` of a live connection by itself in a process with
 * this one's environment: it is the default (compiled in or from a PG* variable, defaults[])
 * or the password file libpq looks for (PGPASSFILE, else ~/.pgpass). */
static int derived(const PQconninfoOption *o, const PQconninfoOption *defaults) {
    if (strcmp(o->keyword, "fallback_application_name") == 0) return 1;
    if (strcmp(o->keyword, "passfile") == 0) {
        const char *env = getenv("PGPASSFILE"), *home = getenv("HOME");
        char own[1024];
        snprintf(own, sizeof own, "%s/.pgpass", home ? home : "");
        return strcmp(o->val, env ? env : own) == 0;
    }
    for (const PQconninfoOption *d = defaults; d && d->keyword; d++)
        if (strcmp(d->keyword, o->keyword) == 0) return d->val && strcmp(d->val, o->val) == 0;
    return 0;
}

int rbb_db_conninfo_string(PGconn *c, char *buf, size_t size) {
    PQconninfoOption *opts = PQconninfo(c), *defaults = PQconndefaults();
    if (!opts) return PQconninfoFree(defaults), -1;
    size_t used = 0;
    buf[0] = '\0';
    for (PQconninfoOption *o = opts; o->keyword; o++) {
        /* the values libpq derives itself are derived again by the child: left out, they
         * keep the string (quoted in the workers' connect errors) short */
        if (!o->val || !*o->val || derived(o, defaults)) continue;
        int n = snprintf(buf + used, size - used, "%s%s=", used ? " " : "", o->keyword);
        if (n < 0 || (size_t)n >= size - used) {
            PQconninfoFree(opts), PQconninfoFree(defaults);
            return -1;
        }
        used += (size_t)n;
        append_quoted(buf, size, &used, o->val);
        if (used + 4 >= size) {
            PQconninfoFree(opts), PQconninfoFree(defaults);
            return -1;
        }
    }
    PQconninfoFree(opts), PQconninfoFree(defaults);
    return 0;
}

/* Send one cancel request for c's statement in flight (PQcancel: a new connection to the
 * server; its failure leaves the statement to finish). */
static void cancel_in_flight(PGconn *c) {
    char buf[256];
    PGcancel *k = PQgetCancel(c);
    if (k) PQcancel(k, buf, sizeof buf), PQfreeCancel(k);
}

PGresult *rbb_db_exec_stoppable(PGconn *c, const char *sql) {
    if (rbb_stop_signal || !PQsendQuery(c, sql)) return NULL;
    int cancelled = 0;
    while (PQisBusy(c)) {
        if (rbb_stop_signal && !cancelled) cancel_in_flight(c), cancelled = 1;
        struct pollfd pf = {.fd = PQsocket(c), .events = POLLIN};
        if (poll(&pf, 1, 100) < 0 && errno != EINTR) break;
        if (!PQconsumeInput(c)) break; /* lost: PQgetResult says so */
    }
    PGresult *kept = NULL, *r; /* as PQexec: the first error, else the last result */
    while ((r = PQgetResult(c))) {
        ExecStatusType st = PQresultStatus(r);
        if (st == PGRES_COPY_IN || st == PGRES_COPY_OUT || st == PGRES_COPY_BOTH)
            return PQclear(kept), r; /* the caller goes on with the copy */
        if (kept && PQresultStatus(kept) == PGRES_FATAL_ERROR) {
            PQclear(r);
            continue;
        }
        PQclear(kept), kept = r;
    }
    return kept;
}

/* Run the formatted statement; the result when its status is `want`, else NULL with
 * "statement: message" in err (without running it on a lost connection; the stop reason
 * when a stop signal came before it ended: it was cancelled). */
static PGresult *vquery(PGconn *c, ExecStatusType want, char *err, size_t err_size, const char *fmt,
                        va_list ap) {
    if (rbb_db_lost(c, err, err_size)) return NULL;
    char sql[8192];
    vsnprintf(sql, sizeof sql, fmt, ap);
    PGresult *r = rbb_db_exec_stoppable(c, sql);
    ExecStatusType st = PQresultStatus(r);
    if (r && (st == want || (want == PGRES_COMMAND_OK && st == PGRES_TUPLES_OK))) return r;
    if (rbb_stop_signal)
        rbb_stop_reason(err, err_size);
    else
        snprintf(err, err_size, "%.200s: %s", sql, PQerrorMessage(c)), rbb_db_one_line(err);
    PQclear(r);
    return NULL;
}

int rbb_db_exec(PGconn *c, char *err, size_t err_size, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    PGresult *r = vquery(c, PGRES_COMMAND_OK, err, err_size, fmt, ap);
    va_end(ap);
    PQclear(r);
    return r ? 0 : -1;
}

int rbb_db_double(PGconn *c, double *out, char *err, size_t err_size, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    PGresult *r = vquery(c, PGRES_TUPLES_OK, err, err_size, fmt, ap);
    va_end(ap);
    if (!r) return -1;
    if (PQntuples(r) < 1 || PQnfields(r) < 1) {
        snprintf(err, err_size, "no row");
        PQclear(r);
        return -1;
    }
    *out = PQgetisnull(r, 0, 0) ? 0 : atof(PQgetvalue(r, 0, 0));
    PQclear(r);
    return 0;
}

int rbb_db_ensure_database(PGconn *admin, const char *dbname, char *err, size_t err_size) {
    const char *params[1] = {dbname};
    PGresult *r = PQexecParams(admin, "SELECT 1 FROM pg_database WHERE datname = $1", 1, NULL,
                               params, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        snprintf(err, err_size, "cannot list databases: %s", PQerrorMessage(admin));
        PQclear(r);
        return -1;
    }
    int exists = PQntuples(r) > 0;
    PQclear(r);
    if (exists) return 0;
    char *ident = PQescapeIdentifier(admin, dbname, strlen(dbname));
    if (!ident) {
        snprintf(err, err_size, "bad database name '%s'", dbname);
        return -1;
    }
    int rc = rbb_db_exec(admin, err, err_size, "CREATE DATABASE %s", ident);
    PQfreemem(ident);
    return rc;
}

/* Mark the database c is connected to with `mark` (COMMENT ON DATABASE). 0, or -1 with err. */
static int put_mark(PGconn *c, const char *mark, char *err, size_t err_size) {
    const char *db = PQdb(c);
    char *ident = PQescapeIdentifier(c, db, strlen(db));
    char *lit = PQescapeLiteral(c, mark, strlen(mark));
    int rc = ident && lit
                 ? rbb_db_exec(c, err, err_size, "COMMENT ON DATABASE %s IS %s", ident, lit)
                 : (snprintf(err, err_size, "out of memory"), -1);
    PQfreemem(ident);
    PQfreemem(lit);
    return rc;
}

int rbb_db_claim(PGconn *c, const char *mark, const char *own_like, const char *opt, char *err,
                 size_t err_size) {
    /* marked?; its comment; a relation of a user schema that is not the bench's (an inbox
     * first: a queue), or NULL */
    const char *params[] = {mark, own_like ? own_like : ""};
    PGresult *r =
        PQexecParams(c,
                     "SELECT coalesce(shobj_description(d.oid, 'pg_database') = $1, false), "
                     "shobj_description(d.oid, 'pg_database'), "
                     "(SELECT format('%I.%I', n.nspname, k.relname) FROM pg_class k "
                     "   JOIN pg_namespace n ON n.oid = k.relnamespace "
                     "  WHERE k.relkind IN ('r', 'p', 'v', 'm', 'f') "
                     "    AND n.nspname NOT IN ('pg_catalog', 'information_schema') "
                     "    AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%' "
                     "    AND k.relname NOT LIKE $2 "
                     "  ORDER BY k.relname <> 'inbox', 1 LIMIT 1) "
                     "FROM pg_database d WHERE datname = current_database()",
                     2, NULL, params, NULL, NULL, 0);
    int ok = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1;
    int marked = ok && PQgetvalue(r, 0, 0)[0] == 't';
    char comment[96] = "", table[256] = "";
    if (ok && !PQgetisnull(r, 0, 1)) snprintf(comment, sizeof comment, "%s", PQgetvalue(r, 0, 1));
    if (ok && !PQgetisnull(r, 0, 2)) snprintf(table, sizeof table, "%s", PQgetvalue(r, 0, 2));
    if (!ok) snprintf(err, err_size, "cannot read the database's mark: %s", PQerrorMessage(c));
    PQclear(r);
    if (!ok) return rbb_db_one_line(err), -1;
    if (marked) return 0;
    const char *db = PQdb(c);
    if (*comment) /* another user's database, or the bench's other one: the mark would replace it */
        return rbb_db_one_line(comment),
               snprintf(err, err_size,
                        "database %s (%s) has a comment ('%s') that this use of it did not "
                        "write: it is not a scratch database for it; name a database of its own "
                        "(it is created)",
                        db, opt, comment),
               -1;
    if (*table)
        return snprintf(err, err_size,
                        "database %s (%s) holds %s, which pg bench did not make: a run would "
                        "empty or overwrite what it uses there; name a database of its own (it "
                        "is created), or, if an older pg bench made this one, mark it: COMMENT "
                        "ON DATABASE %s IS '%s'",
                        db, opt, table, db, mark),
               -1;
    return put_mark(c, mark, err, err_size);
}

void rbb_db_settings(PGconn *c, const char *names, int inbox_reloptions, char *out, size_t size) {
    const char *params[] = {names, inbox_reloptions ? "t" : "f"};
    PGresult *r = PQexecParams(
        c,
        "SELECT string_agg(name || '=' || current_setting(name), ' ' ORDER BY name) || CASE WHEN "
        "$2::bool THEN ' inbox.reloptions=' || coalesce((SELECT array_to_string(reloptions, ',') "
        "FROM pg_class WHERE oid = 'inbox'::regclass), 'none') ELSE '' END FROM pg_settings "
        "WHERE name = ANY (string_to_array($1, ','))",
        2, NULL, params, NULL, NULL, 0);
    snprintf(out, size, "%s",
             PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) && !PQgetisnull(r, 0, 0)
                 ? PQgetvalue(r, 0, 0)
                 : "?");
    PQclear(r);
}

/* One figure of rbb_work: the first column of `sql` on c, NaN when c is NULL or it fails. */
static double work_figure(PGconn *c, const char *sql) {
    double v = NAN;
    char err[256];
    if (c && rbb_db_double(c, &v, err, sizeof err, "%s", sql)) v = NAN;
    return v;
}

/* The machine's busy, steal and total CPU time in µs from the first line of /proc/stat (user
 * nice system idle iowait irq softirq steal); NaN where it cannot be read (not Linux). */
static void machine_cpu(double *busy_us, double *steal_us, double *total_us) {
    FILE *f = fopen("/proc/stat", "r");
    unsigned long long v[8] = {0};
    int n = f ? fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
                       &v[4], &v[5], &v[6], &v[7])
              : 0;
    if (f) fclose(f);
    long hz = sysconf(_SC_CLK_TCK);
    *busy_us =
        n >= 7 && hz > 0 ? (double)(v[0] + v[1] + v[2] + v[5] + v[6]) * 1e6 / (double)hz : NAN;
    *steal_us = n == 8 && hz > 0 ? (double)v[7] * 1e6 / (double)hz : NAN;
    unsigned long long all = 0;
    for (int i = 0; i < 8; i++)
        all += v[i];
    *total_us = n == 8 && hz > 0 ? (double)all * 1e6 / (double)hz : NAN;
}

void rbb_work_now(PGconn *c, rbb_work *w) {
    int v = c ? PQserverVersion(c) : 0;
    w->wal_bytes = work_figure(c, "SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')");
    w->buffers = work_figure(c, "SELECT blks_hit + blks_read FROM pg_stat_database "
                                "WHERE datname = current_database()");
    w->wal_syncs = v < 180000 ? work_figure(c, "SELECT wal_sync FROM pg_stat_wal") : NAN;
    w->wal_fpi = work_figure(c, "SELECT wal_fpi FROM pg_stat_wal");
    w->wal_sync_ms = v < 180000 ? work_figure(c, "SELECT wal_sync_time FROM pg_stat_wal") : NAN;
    w->checkpoints =
        v >= 170000
            ? work_figure(c, "SELECT num_timed + num_requested FROM pg_stat_checkpointer")
            : work_figure(c, "SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter");
    machine_cpu(&w->busy_us, &w->steal_us, &w->total_us); /* last: a cell's go follows */
}
