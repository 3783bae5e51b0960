/*
 * cmd_pg_chaos.c — `ringbench pg chaos`: W `ringbench pg worker` processes drain
 * a backlog while a seeded driver injects faults (SIGKILL, SIGSTOP/SIGCONT past
 * the TTL, pg_terminate_backend of the worker sessions, server restarts through
 * --restart-cmd, statement timeouts behind a table lock), then reports what
 * the queue promised: rows done, failed by policy, lost (must be 0), duplicate
 * effects (0), recorded handler starts and claims per row, false deaths of live
 * unpaused workers (0), recovery time per fault. Issue 10; queue/README.md.
 */
#include <errno.h>
#include <libpq-fe.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "conninfo_redact.h"
#include "json_out.h"
#include "keygen.h"
#include "pg_cli.h"
#include "pg_connect.h"

enum { F_KILL, F_PAUSE, F_TERMINATE, F_RESTART, F_TIMEOUT, F_KINDS };
static const char *const fault_names[F_KINDS] = {"kill", "pause", "terminate", "restart",
                                                 "statement_timeout"};

typedef struct profile {
    const char *name;
    uint32_t workers, rows, work_ms, interval_ms, deadline_s;
    uint32_t n[F_KINDS]; /* faults of each kind */
} profile;

static const profile quick = {"quick", 4, 4000, 10, 350, 170, {20, 2, 4, 1, 2}};
static const profile full = {"full", 6, 30000, 10, 350, 900, {100, 8, 16, 3, 8}};

/* Worker settings: every fault kind below must be survivable with them. */
#define LEASE_MS 2000
#define TTL_MS 3000
#define HEARTBEAT_MS 500
#define PAUSE_MS 4000 /* > TTL: a paused worker may be declared dead (not a false death) */
#define LOCK_MS 1000  /* the table lock that makes statements time out */
#define STATEMENT_TIMEOUT_MS 400
#define GRACE_MS 5000 /* SIGTERM to SIGKILL when the driver stops its workers */
#define DEFAULT_RETRY_MS 60000

/* The signal (SIGINT, SIGTERM) that asked the driver to stop; 0: none. */
static volatile sig_atomic_t chaos_signal;

static void on_chaos_signal(int sig) { chaos_signal = sig; }

typedef struct chaos_opts {
    rb_queue_config *cfg;
    int quick, full;
    const char *out, *restart_cmd;
    int json;
    uint64_t seed;
    int seed_set;
} chaos_opts;

static const char chaos_help[] =
    "usage: ringbench pg chaos [--quick|--full] [--seed S] [--out DIR] [--format md|json]\n"
    "                          [--restart-cmd CMD] [session options]\n"
    "\n"
    "Drain a backlog with W `ringbench pg worker` processes while a seeded driver injects\n"
    "faults: SIGKILL of workers (>= 20 quick, >= 100 full; each replaced), SIGSTOP/SIGCONT\n"
    "pauses longer than the TTL, pg_terminate_backend of every worker session, server\n"
    "restarts (1 quick, 3 full) by running --restart-cmd (without it they are skipped and\n"
    "the report says so), and statement timeouts (workers run with statement_timeout while\n"
    "the driver holds a table lock). Reports rows done, failed by policy, lost, duplicate\n"
    "effects, handler starts and claims per row, false deaths of live unpaused workers and\n"
    "the recovery time after each fault. The schema (--schema) must be new or empty.\n"
    "Exit 0 when lost, duplicate effects and false deaths are all 0, else 1.\n"
    "  --quick            W 4, 4,000 rows (default)\n"
    "  --full             W 6, 30,000 rows, >= 100 kills\n"
    "  --seed S           fault schedule and victims (default 1)\n"
    "  --out DIR          write chaos.md or chaos.json and the worker logs there (a new\n"
    "                     or empty folder)\n"
    "  --format F         md (default) or json\n"
    "  --restart-cmd CMD  shell command that restarts the server (scripts/pg restart)\n"
    "The session option --retry-ms is how long the driver and the workers wait for the\n"
    "server (longer here than in the other commands); past it the run stops its workers,\n"
    "exit 1.\n"
    "SIGINT or SIGTERM stops the run: paused workers are resumed, every worker is\n"
    "stopped (SIGTERM, SIGKILL after 5 s) and reaped; exit 130 or 143.\n";

static int chaos_option(const char *cmd, void *ctx, int argc, char **argv, int *i) {
    chaos_opts *o = ctx;
    const char *opt = argv[*i];
    if (strcmp(opt, "--quick") == 0 || strcmp(opt, "--full") == 0) {
        *(opt[2] == 'q' ? &o->quick : &o->full) = 1;
        return 1;
    }
    if (strcmp(opt, "--seed") && strcmp(opt, "--out") && strcmp(opt, "--format") &&
        strcmp(opt, "--restart-cmd"))
        return 0;
    if (*i + 1 >= argc) {
        rb_cli_usage_error(cmd, "%s needs a value", opt);
        return -1;
    }
    const char *v = argv[++*i];
    if (strcmp(opt, "--seed") == 0) {
        if (rb_cli_u64_arg(cmd, "--seed", v, 0, UINT64_MAX, &o->seed)) return -1;
    } else if (strcmp(opt, "--out") == 0) {
        o->out = v;
    } else if (strcmp(opt, "--restart-cmd") == 0) {
        if (!v[strspn(v, " \t\n")]) /* sh -c '' restarts nothing, and "succeeds" */
            return rb_cli_usage_error(cmd, "--restart-cmd is empty (give the command that "
                                           "restarts the server, e.g. scripts/pg restart)"),
                   -1;
        o->restart_cmd = v;
    } else if (strcmp(v, "md") == 0 || strcmp(v, "json") == 0) {
        o->json = v[0] == 'j';
    } else {
        rb_cli_usage_error(cmd, "--format must be md or json, got '%s'", v);
        return -1;
    }
    return 1;
}

/* Sleep ms, cut short by a stop signal. */
static void nap_ms(uint32_t ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) && errno == EINTR && !chaos_signal) {
    }
}

/* ---- the driver's own session (not an rb_queue: it must not look like a worker) ---- */

typedef struct driver {
    PGconn *conn;
    const char *conninfo, *schema;
    uint32_t retry_ms;   /* how long the server may be unreachable before giving up */
    uint64_t down_since; /* rb_now_ms() of the first failed connect since the last success; 0 */
    char error[512];     /* the last connect error (redacted, one line) */
} driver;

/* Connect, retrying until the server has been unreachable for d->retry_ms
 * (counted from the first failure since the last success) or a stop signal;
 * 0 or -1 (d->conn NULL). */
static int driver_connect(driver *d) {
    if (d->conn) PQfinish(d->conn);
    d->conn = NULL;
    if (!d->down_since) d->down_since = rb_now_ms();
    uint64_t deadline = d->down_since + d->retry_ms;
    do {
        const char *kw[] = {"dbname", NULL}, *val[] = {d->conninfo, NULL};
        char why[64];
        d->conn = rb_pg_connect(kw, val, &chaos_signal, why, sizeof why);
        if (!d->conn) {
            snprintf(d->error, sizeof d->error, "%s", why);
            continue; /* stopped: the loop ends; timed out: try again until the deadline */
        }
        if (PQstatus(d->conn) == CONNECTION_OK) {
            char sql[256];
            snprintf(sql, sizeof sql,
                     "SET search_path TO \"%s\"; SET application_name TO 'ringbench-chaos'",
                     d->schema);
            PGresult *r = PQexec(d->conn, sql);
            int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
            PQclear(r);
            if (ok) return d->down_since = 0, 0;
        }
        rb_conninfo_redact_message(d->conninfo, PQerrorMessage(d->conn), d->error, sizeof d->error);
        d->error[strcspn(d->error, "\n")] = 0;
        PQfinish(d->conn);
        d->conn = NULL;
        nap_ms(100);
    } while (!chaos_signal && rb_now_ms() < deadline);
    return -1;
}

/* One integer from SQL, reconnecting as needed; -1 on failure. */
static long long sql_int(driver *d, const char *sql) {
    for (int tries = 0; tries < 3; tries++) {
        if (!d->conn || PQstatus(d->conn) != CONNECTION_OK) {
            if (driver_connect(d)) return -1;
        }
        PGresult *r = PQexec(d->conn, sql);
        if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1) {
            long long v = PQgetisnull(r, 0, 0) ? 0 : strtoll(PQgetvalue(r, 0, 0), NULL, 10);
            PQclear(r);
            return v;
        }
        PQclear(r);
        if (PQstatus(d->conn) == CONNECTION_OK) return -1;
    }
    return -1;
}

static int sql_exec(driver *d, const char *sql) {
    if (!d->conn || PQstatus(d->conn) != CONNECTION_OK) {
        if (driver_connect(d)) return -1;
    }
    PGresult *r = PQexec(d->conn, sql);
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
    PQclear(r);
    return ok ? 0 : -1;
}

/* ---- workers ---- */

typedef struct slot {
    pid_t pid; /* 0: empty */
    char id[64];
    int paused;
    uint64_t resume_at;
} slot;

typedef struct chaos {
    const chaos_opts *o;
    const profile *p;
    driver d;
    slot *slots;
    char **doomed; /* ids killed or paused: their deaths are expected */
    size_t n_doomed, cap_doomed;
    uint32_t n_spawned, n_exit_dead, n_exit_error;
    char logdir[512];
    char retry[16]; /* the workers' --retry-ms */
} chaos;

static int doom(chaos *c, const char *id) {
    if (c->n_doomed == c->cap_doomed) {
        size_t nc = c->cap_doomed ? 2 * c->cap_doomed : 64;
        char **p = realloc(c->doomed, nc * sizeof *p);
        if (!p) return -1;
        c->doomed = p;
        c->cap_doomed = nc;
    }
    size_t n = strlen(id) + 1;
    if (!(c->doomed[c->n_doomed] = malloc(n))) return -1;
    memcpy(c->doomed[c->n_doomed++], id, n);
    return 0;
}

static int spawn(chaos *c, slot *s) {
    snprintf(s->id, sizeof s->id, "chaos-%u", ++c->n_spawned);
    char work[16], log[600];
    snprintf(work, sizeof work, "%u", c->p->work_ms);
    snprintf(log, sizeof log, "%s/%s.log", c->logdir, s->id);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        FILE *f = freopen(c->logdir[0] ? log : "/dev/null", "w", stdout);
        if (f) dup2(fileno(stdout), 2);
        signal(SIGPIPE, SIG_DFL);
        char opts[64];
        snprintf(opts, sizeof opts, "-c statement_timeout=%d", STATEMENT_TIMEOUT_MS);
        setenv("PGOPTIONS", opts, 1);
        char lease[16], ttl[16], hb[16];
        snprintf(lease, sizeof lease, "%d", LEASE_MS);
        snprintf(ttl, sizeof ttl, "%d", TTL_MS);
        snprintf(hb, sizeof hb, "%d", HEARTBEAT_MS);
        char *argv[] = {"ringbench", "pg", "worker", "--db", (char *)c->d.conninfo, "--schema",
                        (char *)c->d.schema, "--id", s->id, "--batch", "8", "--work-ms", work,
                        "--lease-ms", lease, "--ttl-ms", ttl, "--heartbeat-ms", hb,
                        "--max-attempts", "3", "--fail-pct", "1", "--fail-attempts", "99",
                        "--backoff-base-ms", "50", "--backoff-cap-ms", "200", "--retry-ms",
                        c->retry, "--until-empty",
                        /* every second worker chains its completion and next claim (one
                         * pipelined transaction): its fault paths are under test too */
                        c->n_spawned % 2 == 0 ? "--chain" : NULL, NULL};
        execv("/proc/self/exe", argv);
        _exit(127);
    }
    s->pid = pid;
    s->paused = 0;
    return 0;
}

/* ---- faults and their recovery ---- */

typedef struct fault {
    int kind;
    uint64_t at_ms;     /* since the start */
    char victim[64];    /* kill / pause: the worker */
    long long done_at;  /* rows done when injected */
    long long recovery; /* ms until progress resumed and the victim's rows were free; -1 */
    int skipped;
} fault;

/* Progress resumed (more rows done) and no row is still claimed by the victim. */
static int recovered(chaos *c, const fault *f, long long done_now) {
    if (done_now <= f->done_at) return 0;
    if (!f->victim[0]) return 1;
    char sql[200];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM inbox WHERE status = 'claimed' AND claimed_by = '%s'",
             f->victim);
    return sql_int(&c->d, sql) == 0;
}

/* Wait for child pid, giving up waiting after timeout_ms (-1: never) or, when
 * heed_signal, at a stop signal; its exit status, or -1 when it still runs. */
static int wait_child(pid_t pid, int64_t timeout_ms, int heed_signal) {
    uint64_t deadline = rb_now_ms() + (uint64_t)(timeout_ms < 0 ? 0 : timeout_ms);
    for (;;) {
        int st;
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid) return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        if (r < 0 && errno != EINTR) return 127; /* not our child any more */
        if ((heed_signal && chaos_signal) || (timeout_ms >= 0 && rb_now_ms() >= deadline))
            return -1;
        struct timespec ts = {0, 20 * 1000000L};
        nanosleep(&ts, NULL);
    }
}

/* Run --restart-cmd with /bin/sh in its own process group and wait for it; a
 * stop signal ends it (SIGTERM, SIGKILL after GRACE_MS). Its exit status, or -1. */
static int run_restart(const char *cmd) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        setpgid(0, 0);
        signal(SIGPIPE, SIG_DFL);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    int code = wait_child(pid, -1, 1);
    if (code >= 0) return code;
    kill(-pid, SIGTERM);
    if (wait_child(pid, GRACE_MS, 0) < 0) {
        kill(-pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
    return -1;
}

static slot *pick_running(chaos *c, uint64_t *rng) {
    uint32_t n = c->p->workers, start = (uint32_t)(rb_splitmix64(rng) % n);
    for (uint32_t k = 0; k < n; k++) {
        slot *s = &c->slots[(start + k) % n];
        if (s->pid && !s->paused) return s;
    }
    return NULL;
}

static void inject(chaos *c, fault *f, uint64_t *rng, uint64_t t) {
    slot *s = NULL;
    switch (f->kind) {
    case F_KILL:
        if (!(s = pick_running(c, rng))) break;
        kill(s->pid, SIGKILL);
        snprintf(f->victim, sizeof f->victim, "%s", s->id);
        doom(c, s->id);
        waitpid(s->pid, NULL, 0);
        s->pid = 0;
        spawn(c, s);
        break;
    case F_PAUSE:
        if (!(s = pick_running(c, rng))) break;
        kill(s->pid, SIGSTOP);
        s->paused = 1;
        s->resume_at = t + PAUSE_MS;
        snprintf(f->victim, sizeof f->victim, "%s", s->id);
        doom(c, s->id);
        break;
    case F_TERMINATE:
        sql_exec(&c->d, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                        "application_name = 'ringbench' AND datname = current_database()");
        break;
    case F_RESTART:
        if (!c->o->restart_cmd) {
            f->skipped = 1;
            break;
        }
        PQfinish(c->d.conn);
        c->d.conn = NULL;
        if (run_restart(c->o->restart_cmd) != 0) f->skipped = 1;
        if (!chaos_signal) driver_connect(&c->d);
        break;
    case F_TIMEOUT: {
        char sql[200];
        snprintf(sql, sizeof sql,
                 "BEGIN; LOCK TABLE inbox IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(%g); COMMIT",
                 LOCK_MS / 1000.0);
        sql_exec(&c->d, sql);
        break;
    }
    }
}

/* Reap exited workers; replace those that died (exit 3 after a pause) while rows remain. */
static int reap(chaos *c, int replace) {
    int running = 0;
    for (uint32_t i = 0; i < c->p->workers; i++) {
        slot *s = &c->slots[i];
        if (!s->pid) continue;
        int st;
        pid_t r = waitpid(s->pid, &st, WNOHANG);
        if (r == 0) {
            running++;
            continue;
        }
        int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        s->pid = 0;
        if (code == 3)
            c->n_exit_dead++;
        else if (code != 0)
            c->n_exit_error++;
        if (code != 0 && replace) {
            spawn(c, s);
            running++;
        }
    }
    return running;
}

/* Stop every worker: resume the paused, SIGTERM all, SIGKILL those still
 * running after GRACE_MS, reap all. */
static void stop_workers(chaos *c) {
    for (uint32_t i = 0; i < c->p->workers; i++)
        if (c->slots[i].pid) {
            kill(c->slots[i].pid, SIGCONT);
            kill(c->slots[i].pid, SIGTERM);
            c->slots[i].paused = 0;
        }
    uint64_t deadline = rb_now_ms() + GRACE_MS;
    for (uint32_t i = 0; i < c->p->workers; i++) {
        slot *s = &c->slots[i];
        if (!s->pid) continue;
        uint64_t now = rb_now_ms();
        if (wait_child(s->pid, now < deadline ? (int64_t)(deadline - now) : 0, 0) < 0) {
            kill(s->pid, SIGKILL);
            waitpid(s->pid, NULL, 0);
        }
        s->pid = 0;
    }
}

/* ---- report ---- */

typedef struct result {
    long long rows, done, failed, lost, effects, dup_effects, false_deaths, deaths;
    long long starts_hist[6], claims_hist[6]; /* 0..4, 5+ */
    double elapsed_s;
} result;

static void histogram(chaos *c, const char *col, long long *h) {
    for (int k = 0; k < 6; k++) {
        char sql[200];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM inbox_all WHERE %s %s %d", col,
                 k < 5 ? "=" : ">=", k);
        h[k] = sql_int(&c->d, sql);
    }
}

/* Per fault kind: injected, skipped, recovered, the sum and the worst recovery (ms; -1 none). */
typedef struct tally {
    long long n_inj[F_KINDS], n_skip[F_KINDS], n_rec[F_KINDS], sum[F_KINDS], worst[F_KINDS];
} tally;

static void count_faults(const fault *faults, size_t n_faults, tally *t) {
    memset(t, 0, sizeof *t);
    for (int k = 0; k < F_KINDS; k++)
        t->worst[k] = -1;
    for (size_t i = 0; i < n_faults; i++) {
        const fault *f = &faults[i];
        if (f->skipped) {
            t->n_skip[f->kind]++;
            continue;
        }
        t->n_inj[f->kind]++;
        if (f->recovery >= 0) {
            t->n_rec[f->kind]++;
            t->sum[f->kind] += f->recovery;
            if (f->recovery > t->worst[f->kind]) t->worst[f->kind] = f->recovery;
        }
    }
}

static const char *verdict_of(const result *r) {
    return r->lost == 0 && r->dup_effects == 0 && r->false_deaths == 0 && r->effects == r->done
               ? "pass"
               : "FAIL";
}

static json_t *json_hist(const long long *h) {
    json_t *a = json_array();
    for (int k = 0; k < 6; k++)
        rb_json_push(a, json_integer(h[k]));
    return a;
}

/* The JSON report (chaos.json): the figures, the parameters, every fault. */
static json_t *json_report(const chaos *c, const result *r, const fault *faults, size_t n_faults) {
    tally t;
    count_faults(faults, n_faults, &t);
    json_t *o = json_object(), *kinds = json_object(), *rec = json_array();
    rb_json_set(o, "profile", rb_json_str(c->p->name));
    rb_json_set(o, "seed", rb_json_u64(c->o->seed));
    rb_json_set(o, "workers", rb_json_u64(c->p->workers));
    rb_json_set(o, "rows", json_integer(r->rows));
    rb_json_set(o, "done", json_integer(r->done));
    rb_json_set(o, "failed_by_policy", json_integer(r->failed));
    rb_json_set(o, "lost", json_integer(r->lost));
    rb_json_set(o, "effects", json_integer(r->effects));
    rb_json_set(o, "duplicate_effects", json_integer(r->dup_effects));
    rb_json_set(o, "deaths", json_integer(r->deaths));
    rb_json_set(o, "false_deaths", json_integer(r->false_deaths));
    rb_json_set(o, "worker_exits_dead", rb_json_u64(c->n_exit_dead));
    rb_json_set(o, "worker_exits_error", rb_json_u64(c->n_exit_error));
    rb_json_set(o, "elapsed_s", rb_json_fixed(r->elapsed_s, 1));
    rb_json_set(o, "verdict", rb_json_str(verdict_of(r)));
    rb_json_set(o, "lease_ms", json_integer(LEASE_MS));
    rb_json_set(o, "ttl_ms", json_integer(TTL_MS));
    rb_json_set(o, "heartbeat_ms", json_integer(HEARTBEAT_MS));
    rb_json_set(o, "pause_ms", json_integer(PAUSE_MS));
    rb_json_set(o, "work_ms", rb_json_u64(c->p->work_ms));
    rb_json_set(o, "chain_every", json_integer(2)); /* the 2nd, 4th, ... worker spawned: --chain */
    rb_json_set(o, "restart_cmd_given", json_boolean(c->o->restart_cmd));
    rb_json_set(o, "handler_starts_per_row", json_hist(r->starts_hist));
    rb_json_set(o, "claims_per_row", json_hist(r->claims_hist));
    for (int k = 0; k < F_KINDS; k++) {
        json_t *x = json_object();
        rb_json_set(x, "injected", json_integer(t.n_inj[k]));
        rb_json_set(x, "skipped", json_integer(t.n_skip[k]));
        rb_json_set(x, "recovered", json_integer(t.n_rec[k]));
        rb_json_set(x, "recovery_mean_ms",
                    rb_json_fixed(t.n_rec[k] ? (double)t.sum[k] / (double)t.n_rec[k] : 0.0, 0));
        rb_json_set(x, "recovery_max_ms", json_integer(t.worst[k]));
        rb_json_set(kinds, fault_names[k], x);
    }
    rb_json_set(o, "faults", kinds);
    for (size_t i = 0; i < n_faults; i++) {
        json_t *x = json_object();
        rb_json_set(x, "kind", rb_json_str(fault_names[faults[i].kind]));
        rb_json_set(x, "at_ms", rb_json_u64(faults[i].at_ms));
        rb_json_set(x, "recovery_ms", json_integer(faults[i].recovery));
        if (faults[i].skipped) rb_json_set(x, "skipped", json_true());
        rb_json_push(rec, x);
    }
    rb_json_set(o, "recovery_ms", rec);
    return o;
}

/* The Markdown report (chaos.md). */
static void print_report(FILE *out, const chaos *c, const result *r, const fault *faults,
                         size_t n_faults) {
    tally t;
    count_faults(faults, n_faults, &t);
    const long long *n_inj = t.n_inj, *n_skip = t.n_skip, *n_rec = t.n_rec, *sum = t.sum,
                    *worst = t.worst;
    const char *verdict = verdict_of(r);
    fprintf(out, "# ringbench pg chaos (%s, seed %llu): %s\n\n", c->p->name,
            (unsigned long long)c->o->seed, verdict);
    fprintf(out,
            "%u workers (lease %d ms, TTL %d ms, heartbeat %d ms, batch 8, every second one "
            "--chain, %u ms per row, 1%% of rows fail every run: max attempts 3) drained %lld rows "
            "in %.1f s.\n\n",
            c->p->workers, LEASE_MS, TTL_MS, HEARTBEAT_MS, c->p->work_ms, r->rows, r->elapsed_s);
    fprintf(out, "| figure | value |\n|---|---|\n");
    fprintf(out, "| rows done | %lld |\n| failed by policy (dead letters) | %lld |\n", r->done,
            r->failed);
    fprintf(out, "| lost (must be 0) | %lld |\n| effects | %lld |\n", r->lost, r->effects);
    fprintf(out, "| duplicate effects (must be 0) | %lld |\n", r->dup_effects);
    fprintf(out, "| workers declared dead | %lld |\n", r->deaths);
    fprintf(out, "| false deaths of live unpaused workers (must be 0) | %lld |\n", r->false_deaths);
    fprintf(out, "| workers that stopped as dead incarnations (exit 3) | %u |\n", c->n_exit_dead);
    fprintf(out, "| workers that exited with an error | %u |\n\n", c->n_exit_error);
    fprintf(out, "Per row (recorded handler starts = `attempts`; a first run cut by a kill before "
                 "its completion is not recorded; `claims` = leases handed out):\n\n");
    fprintf(out, "| per row | 0 | 1 | 2 | 3 | 4 | 5+ |\n|---|---|---|---|---|---|---|\n");
    fprintf(out, "| handler starts |");
    for (int k = 0; k < 6; k++)
        fprintf(out, " %lld |", r->starts_hist[k]);
    fprintf(out, "\n| claims |");
    for (int k = 0; k < 6; k++)
        fprintf(out, " %lld |", r->claims_hist[k]);
    fprintf(out, "\n\nFaults (recovery: from the injection until more rows are done and no row is "
                 "still claimed by the victim):\n\n");
    fprintf(out, "| fault | injected | skipped | recovered | mean recovery ms | max recovery ms "
                 "|\n|---|---|---|---|---|---|\n");
    for (int k = 0; k < F_KINDS; k++)
        fprintf(out, "| %s | %lld | %lld | %lld | %.0f | %lld |\n", fault_names[k], n_inj[k],
                n_skip[k], n_rec[k], n_rec[k] ? (double)sum[k] / (double)n_rec[k] : 0.0, worst[k]);
    if (n_skip[F_RESTART])
        fprintf(out, "\nServer restarts skipped: %s.\n",
                c->o->restart_cmd ? "--restart-cmd failed"
                                  : "no --restart-cmd (the server is not a scripts/pg cluster "
                                    "this run may restart)");
}

/* ---- the run ---- */

static int run_chaos(chaos *c) {
    const profile *p = c->p;
    uint64_t rng = c->o->seed;
    /* The schedule: every fault of the profile, shuffled (Fisher-Yates). */
    size_t n_faults = 0;
    for (int k = 0; k < F_KINDS; k++)
        n_faults += p->n[k];
    fault *faults = calloc(n_faults, sizeof *faults);
    if (!faults) return rb_cli_fail("pg chaos", "out of memory");
    size_t j = 0;
    for (int k = 0; k < F_KINDS; k++)
        for (uint32_t i = 0; i < p->n[k]; i++)
            faults[j++] = (fault){.kind = k, .recovery = -1};
    for (size_t i = n_faults; i > 1; i--) {
        size_t r = (size_t)(rb_splitmix64(&rng) % i);
        fault t = faults[i - 1];
        faults[i - 1] = faults[r];
        faults[r] = t;
    }
    for (uint32_t i = 0; i < p->workers; i++)
        spawn(c, &c->slots[i]);
    uint64_t start = rb_now_ms(), next = start + 1000;
    size_t injected = 0;
    long long remaining = p->rows;
    while (rb_now_ms() - start < (uint64_t)p->deadline_s * 1000u) {
        if (chaos_signal) break;
        uint64_t t = rb_now_ms();
        for (uint32_t i = 0; i < p->workers; i++) {
            slot *s = &c->slots[i];
            if (s->pid && s->paused && t >= s->resume_at) {
                kill(s->pid, SIGCONT);
                s->paused = 0;
            }
        }
        long long done = sql_int(&c->d, "SELECT count(*) FROM inbox_done");
        remaining = sql_int(&c->d, "SELECT count(*) FROM inbox WHERE state = 'open'");
        if (!c->d.conn || chaos_signal) break; /* the server is gone past --retry-ms, or a signal */
        for (size_t i = 0; i < injected; i++)
            if (faults[i].recovery < 0 && !faults[i].skipped && done >= 0 &&
                recovered(c, &faults[i], done))
                faults[i].recovery = (long long)(t - start - faults[i].at_ms);
        if (injected < n_faults && t >= next) {
            fault *f = &faults[injected++];
            f->at_ms = t - start;
            f->done_at = done;
            inject(c, f, &rng, t);
            next = rb_now_ms() + p->interval_ms;
        }
        int running = reap(c, injected < n_faults || remaining != 0);
        if (injected == n_faults && remaining == 0 && running == 0) break;
        if (injected == n_faults && remaining == 0) {
            /* Drained: wake paused workers so they can stop. */
            for (uint32_t i = 0; i < p->workers; i++)
                if (c->slots[i].pid && c->slots[i].paused) {
                    kill(c->slots[i].pid, SIGCONT);
                    c->slots[i].paused = 0;
                }
        }
        nap_ms(50);
    }
    stop_workers(c); /* past the deadline, lost server or signal: stop what is left */
    if (chaos_signal || !c->d.conn) {
        free(faults);
        if (chaos_signal) {
            fprintf(stderr, "ringbench pg chaos: interrupted\n");
            return 128 + chaos_signal;
        }
        return rb_cli_fail("pg chaos", "lost the server for more than --retry-ms %u: %s",
                           c->d.retry_ms, c->d.error);
    }
    result r = {0};
    r.elapsed_s = (double)(rb_now_ms() - start) / 1000.0;
    r.rows = sql_int(&c->d, "SELECT count(*) FROM inbox_all");
    r.done = sql_int(&c->d, "SELECT count(*) FROM inbox_done");
    r.failed = sql_int(&c->d, "SELECT count(*) FROM inbox WHERE state = 'failed'");
    r.lost = (long long)p->rows - r.done - r.failed;
    r.effects = sql_int(&c->d, "SELECT count(*) FROM effects");
    r.dup_effects = sql_int(&c->d, "SELECT count(*) - count(DISTINCT inbox_id) FROM effects");
    r.deaths = sql_int(&c->d, "SELECT count(*) FROM workers WHERE status = 'dead'");
    histogram(c, "attempts", r.starts_hist);
    histogram(c, "claims", r.claims_hist);
    /* Deaths of workers that were neither killed nor paused. */
    r.false_deaths = 0;
    PGresult *dead = PQexec(c->d.conn, "SELECT id FROM workers WHERE status = 'dead'");
    for (int i = 0; PQresultStatus(dead) == PGRES_TUPLES_OK && i < PQntuples(dead); i++) {
        int expected = 0;
        for (size_t k = 0; k < c->n_doomed && !expected; k++)
            expected = strcmp(c->doomed[k], PQgetvalue(dead, i, 0)) == 0;
        if (!expected) r.false_deaths++;
    }
    PQclear(dead);
    int out_rc = 0;
    char path[600] = "";
    if (c->o->out)
        snprintf(path, sizeof path, "%s/chaos.%s", c->o->out, c->o->json ? "json" : "md");
    if (c->o->json) {
        out_rc =
            rb_json_write_stdout("pg chaos", json_report(c, &r, faults, n_faults), RB_JSON_LINE);
        if (!out_rc && *path)
            out_rc = rb_json_write_file("pg chaos", path, json_report(c, &r, faults, n_faults),
                                        RB_JSON_LINE);
    } else {
        print_report(stdout, c, &r, faults, n_faults);
        FILE *f = *path ? fopen(path, "w") : NULL;
        int bad = *path && !f;
        if (f) {
            print_report(f, c, &r, faults, n_faults);
            bad = ferror(f);
            bad |= fclose(f) != 0;
        }
        if (bad)
            out_rc =
                rb_cli_fail("pg chaos", "cannot write %s: %s", path, strerror(errno ? errno : EIO));
    }
    free(faults);
    int ok = r.lost == 0 && r.dup_effects == 0 && r.false_deaths == 0 && r.effects == r.done &&
             r.rows == p->rows;
    if (!ok)
        fprintf(stderr,
                "ringbench pg chaos: lost %lld, duplicate effects %lld, false deaths %lld, "
                "effects %lld for %lld rows done\n",
                r.lost, r.dup_effects, r.false_deaths, r.effects, r.done);
    return out_rc ? out_rc : ok ? RB_EXIT_OK : RB_EXIT_FAILURE;
}

int rb_pg_cmd_chaos(int argc, char **argv) {
    const char *cmd = "pg chaos";
    rb_queue_config cfg;
    rb_pg_session_defaults(&cfg);
    cfg.retry_ms = DEFAULT_RETRY_MS;
    chaos_opts o = {.cfg = &cfg, .seed = 1};
    int rc = rb_pg_parse_options(cmd, chaos_help, NULL, argc, argv, &cfg, NULL, chaos_option, &o,
                                 NULL, NULL);
    if (rc >= 0) return rc;
    if (o.quick && o.full) return rb_cli_usage_error(cmd, "give --quick or --full, not both");
    chaos c = {.o = &o, .p = o.full ? &full : &quick};
    snprintf(c.retry, sizeof c.retry, "%u", cfg.retry_ms);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_chaos_signal; /* no SA_RESTART: waits see EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    cfg.interrupt = &chaos_signal;
    rb_cli_out_made out_made = {.n_made = 0}; /* removed again when nothing ran */
    if (o.out) {
        if ((rc = rb_cli_out_dir(cmd, "--out", o.out, &out_made))) return rc;
        snprintf(c.logdir, sizeof c.logdir, "%s", o.out);
    }
    /* Migrate and fill the backlog through the library. */
    rb_queue *q;
    if ((rc = rb_pg_open(cmd, &cfg, &q))) { /* a stop signal ended the wait: 130 or 143 */
        rb_cli_out_dir_undo(&out_made);
        return rc;
    }
    rb_cli_ring ring;
    rb_cli_ring_init(&ring);
    rc = rb_queue_migrate(q, rb_algo_by_name("binary"), &ring.cfg);
    rb_queue_counts counts;
    if (!rc) rc = rb_queue_counts_get(q, &counts);
    if (!rc && counts.n_pending + counts.n_claimed + counts.n_done + counts.n_failed > 0) {
        rb_queue_close(q);
        rb_cli_out_dir_undo(&out_made); /* nothing ran: the folders made go again */
        return rb_cli_usage_error(cmd, "schema '%s' already has rows: give a new --schema",
                                  cfg.schema);
    }
    rb_queue_item *items = rc ? NULL : calloc(c.p->rows, sizeof *items);
    char *keys = rc ? NULL : malloc((size_t)c.p->rows * 48);
    if (!rc && (!items || !keys)) rc = rb_set_error(RB_ENOMEM, "out of memory");
    for (uint32_t i = 0; !rc && i < c.p->rows; i++) {
        char *k = keys + (size_t)i * 48;
        snprintf(k, 24, "chaos:%u", i % 997);
        snprintf(k + 24, 24, "chaos#%u", i);
        items[i] = (rb_queue_item){k, k + 24, NULL};
    }
    if (!rc) rc = rb_queue_enqueue(q, items, c.p->rows, NULL);
    free(items);
    free(keys);
    if (rc) {
        rc = rc == RB_EINVAL ? rb_cli_usage_error(cmd, "%s", rb_error_detail())
                             : rb_cli_fail(cmd, "%s", rb_error_detail());
        rb_queue_close(q);
        rb_cli_out_dir_undo(&out_made);
        return rc;
    }
    rb_queue_close(q);
    c.d.conninfo = cfg.conninfo ? cfg.conninfo : "";
    c.d.schema = cfg.schema;
    c.d.retry_ms = cfg.retry_ms;
    c.slots = calloc(c.p->workers, sizeof *c.slots);
    if (!c.slots || driver_connect(&c.d)) {
        free(c.slots);
        rb_cli_out_dir_undo(&out_made);
        if (chaos_signal) {
            fprintf(stderr, "ringbench pg chaos: interrupted\n");
            return 128 + chaos_signal;
        }
        return rb_cli_fail(cmd, "cannot connect the driver session: %s", c.d.error);
    }
    signal(SIGPIPE, SIG_IGN);
    rc = run_chaos(&c);
    PQfinish(c.d.conn);
    for (size_t i = 0; i < c.n_doomed; i++)
        free(c.doomed[i]);
    free(c.doomed);
    free(c.slots);
    return rc;
}
