/*
 * pgbench.c — the reference of `ringbench pg bench`: the server's own
 * `pgbench` built-in "simple-update" script (one UPDATE of
 * pgbench_accounts, one SELECT, one INSERT into pgbench_history per
 * transaction) with -c W -j W clients, run in the same process tree against
 * the same server, in a separate database (pgbench.h).
 */
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "children.h"
#include "db.h"
#include "pgbench.h"
#include "stats.h"

/* pgbench -i -s 1 takes a second here; a lock held on its tables must not hang the run. */
#define RBB_PGBENCH_INIT_LIMIT_S 300.0

int rbb_pgbench_runnable(const char *path) {
    struct stat st;
    if (strchr(path, '/'))
        return stat(path, &st) == 0 && S_ISREG(st.st_mode) && !access(path, X_OK);
    const char *dirs = getenv("PATH");
    char full[4096];
    for (const char *d = dirs ? dirs : ""; *d;) {
        size_t n = strcspn(d, ":");
        if (n && (size_t)snprintf(full, sizeof full, "%.*s/%s", (int)n, d, path) < sizeof full &&
            stat(full, &st) == 0 && S_ISREG(st.st_mode) && !access(full, X_OK))
            return 1;
        d += n + (d[n] == ':');
    }
    return 0;
}

const char *rbb_pgbench_find(const char *explicit_path) {
    static char found[512];
    if (explicit_path && *explicit_path) return explicit_path;
    const char *env = getenv("RINGBENCH_PGBENCH");
    if (env && *env) return env;
    /* Debian: the versioned binary; take the newest installed version. */
    glob_t g;
    if (glob("/usr/lib/postgresql/*/bin/pgbench", 0, NULL, &g) == 0 && g.gl_pathc > 0) {
        size_t best = 0;
        for (size_t i = 1; i < g.gl_pathc; i++) {
            /* versions are integers: longer string = larger number */
            size_t lb = strlen(g.gl_pathv[best]), li = strlen(g.gl_pathv[i]);
            if (li > lb || (li == lb && strcmp(g.gl_pathv[i], g.gl_pathv[best]) > 0)) best = i;
        }
        snprintf(found, sizeof found, "%s", g.gl_pathv[best]);
        globfree(&g);
        return found;
    }
    if (g.gl_pathc == 0) globfree(&g);
    return "pgbench"; /* from PATH */
}

/* What the child of run_capture runs. */
typedef struct exec_args {
    const rbb_pg_target *t;
    char *const *argv;
} exec_args;

/* rbb_spawn body: stdout and stderr into the report pipe, then exec. */
static void exec_body(void *arg, int go_fd, int out_fd) {
    const exec_args *a = arg;
    (void)go_fd;
    dup2(out_fd, 1);
    dup2(out_fd, 2);
    close(out_fd);
    if (a->t->password) setenv("PGPASSWORD", a->t->password, 1);
    if (a->t->pgoptions) setenv("PGOPTIONS", a->t->pgoptions, 1);
    execvp(a->argv[0], a->argv);
    fprintf(stderr, "cannot run %s: %s\n", a->argv[0], strerror(errno));
    _exit(127);
}

/* Run argv (argv[0] looked up in PATH when it has no '/'), with PGPASSWORD
 * and PGOPTIONS from `t`, for at most limit_s seconds (then killed: a lock wait must not hang
 * the run; a stop signal ends it sooner, rbb_collect); capture stdout+stderr into out (on
 * one line, NUL-terminated, truncated to out_size). 0 when it exited 0; else -1 with how it
 * ended in `how` ("exited with status 1", "was killed by signal 9 (Killed)", "was still
 * running at its deadline ...", "could not be started"). */
static int run_capture(const rbb_pg_target *t, char *const argv[], double limit_s, char *out,
                       size_t out_size, char *how, size_t how_size) {
    exec_args a = {t, argv};
    rbb_child ch;
    out[0] = '\0';
    if (rbb_spawn(&ch, -1, -1, exec_body, &a) < 0)
        return snprintf(how, how_size, "could not be started: %s", strerror(errno)), -1;
    rbb_collect(&ch, 1, NULL, NULL, 100, rb_now_ns() + (uint64_t)(limit_s * 1e9)); /* reaps */
    size_t n = ch.len < out_size ? ch.len : out_size - 1;
    if (n) memcpy(out, ch.buf, n);
    out[n] = '\0';
    rbb_db_one_line(out);
    ch.has_final = 1; /* a program sends no report: say nothing of one */
    int ok = ch.exit_signal == 0 && ch.exit_status == 0;
    if (!ok) rbb_child_end(&ch, how, how_size);
    rbb_child_free(&ch);
    return ok ? 0 : -1;
}

/* Fill argv with the connection options of t: -h H -p P -U U. */
static int conn_args(const rbb_pg_target *t, char **argv, int n) {
    if (t->host && *t->host) argv[n++] = "-h", argv[n++] = (char *)t->host;
    if (t->port && *t->port) argv[n++] = "-p", argv[n++] = (char *)t->port;
    if (t->user && *t->user) argv[n++] = "-U", argv[n++] = (char *)t->user;
    return n;
}

int rbb_pgbench_init(const rbb_pg_target *t, const char *pgbench, char *err, size_t err_size) {
    char out[8192];
    char *argv[16];
    int n = 0;
    argv[n++] = (char *)pgbench;
    argv[n++] = "-i";
    argv[n++] = "-q";
    argv[n++] = "-s";
    argv[n++] = "1";
    n = conn_args(t, argv, n);
    argv[n++] = (char *)t->dbname;
    argv[n] = NULL;
    char how[96];
    if (run_capture(t, argv, RBB_PGBENCH_INIT_LIMIT_S, out, sizeof out, how, sizeof how)) {
        snprintf(err, err_size, "%s -i %s: %.300s", pgbench, how, out);
        return -1;
    }
    return 0;
}

int rbb_pgbench_run(const rbb_pg_target *t, const char *pgbench, uint32_t clients, double secs,
                    rbb_pgbench_result *res, char *err, size_t err_size) {
    char out[16384];
    char c[16], s[16];
    snprintf(c, sizeof c, "%u", clients);
    snprintf(s, sizeof s, "%u", (unsigned)(secs < 1 ? 1 : secs + 0.5));
    char *argv[24];
    int n = 0;
    argv[n++] = (char *)pgbench;
    argv[n++] = "-n"; /* no vacuum before the run: the tables are fresh */
    argv[n++] = "-b";
    argv[n++] = "simple-update";
    argv[n++] = "-c";
    argv[n++] = c;
    argv[n++] = "-j";
    argv[n++] = c;
    argv[n++] = "-T";
    argv[n++] = s;
    n = conn_args(t, argv, n);
    argv[n++] = (char *)t->dbname;
    argv[n] = NULL;
    memset(res, 0, sizeof *res);
    res->clients = clients;
    res->secs = atof(s);
    char how[96] = "printed no tps";
    /* -T counts from the connections made: a margin for them, and the overrun slack */
    double limit_s = res->secs + rbb_overrun_slack_s(res->secs) + 10;
    int rc = run_capture(t, argv, limit_s, out, sizeof out, how, sizeof how);
    const char *tps = strstr(out, "tps = ");
    const char *lat = strstr(out, "latency average = ");
    const char *txn = strstr(out, "number of transactions actually processed: ");
    if (rc != 0 || !tps || sscanf(tps, "tps = %lf", &res->tps) != 1) {
        snprintf(err, err_size, "%s -b simple-update -c %u %s: %.300s", pgbench, clients, how, out);
        return -1;
    }
    if (lat) sscanf(lat, "latency average = %lf", &res->latency_avg_ms);
    if (txn)
        sscanf(txn, "number of transactions actually processed: %llu",
               (unsigned long long *)&res->n_transactions);
    return 0;
}

double rbb_pgbench_drift(double before_tps, double after_tps) {
    if (!(before_tps > 0) || !(after_tps > 0)) return 0;
    double d = after_tps > before_tps ? after_tps - before_tps : before_tps - after_tps;
    return d / ((before_tps + after_tps) / 2);
}
