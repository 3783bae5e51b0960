/* cmd_pg.c — `ringbench pg SUBCOMMAND`: the table, session options, migrate,
 * enqueue, status, explain. The worker is in cmd_pg_worker.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "enqueue_line.h"
#include "json_out.h"
#include "pg_cli.h"

static const rb_command pg_commands[] = {
    {"migrate", "create the queue schema (idempotent)", rb_pg_cmd_migrate},
    {"enqueue", "enqueue rows from a key file (one key per line)", rb_pg_cmd_enqueue},
    {"worker", "run a claim loop (competing, affinity, ordered)", rb_pg_cmd_worker},
    {"status", "row counts by status, the worker membership, dead letters", rb_pg_cmd_status},
    {"retry", "re-drive dead letters (failed rows) by id or all", rb_pg_cmd_retry},
    {"explain", "EXPLAIN the claim statement of each mode", rb_pg_cmd_explain},
    {"chaos", "drain a backlog under injected faults; report lost, duplicates, deaths",
     rb_pg_cmd_chaos},
    {"bench", "claim throughput vs pgbench, scale event, crash injection", rb_pg_cmd_bench},
};
#define N_PG_COMMANDS (sizeof pg_commands / sizeof pg_commands[0])

static void pg_usage(FILE *f) {
    rb_queue_config cfg;
    rb_queue_config_init(&cfg);
    char help[512];
    fprintf(f, "usage: ringbench pg SUBCOMMAND [OPTIONS]   (ringbench pg SUBCOMMAND --help)\n\n"
               "subcommands:\n");
    for (size_t i = 0; i < N_PG_COMMANDS; i++)
        fprintf(f, "  %-9s %s\n", pg_commands[i].name, pg_commands[i].summary);
    fprintf(f,
            "\nsession options (every subcommand but bench, which takes --db only: it makes its "
            "own\ndatabases and sessions; pg chaos waits longer by default):\n%s",
            rb_pg_session_help(&cfg, help, sizeof help));
}

int rb_cmd_pg(int argc, char **argv) {
    if (argc < 2) /* one line, as `ringbench` alone */
        return rb_cli_usage_error("pg", "a subcommand is needed (ringbench pg --help lists them)");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
        pg_usage(stdout);
        return RB_EXIT_OK;
    }
    for (size_t i = 0; i < N_PG_COMMANDS; i++) {
        if (strcmp(argv[1], pg_commands[i].name) != 0) continue;
        int rc = pg_commands[i].run(argc - 1, argv + 1);
        /* a late write error names the subcommand ("ringbench pg status: writing ...") */
        char name[32];
        snprintf(name, sizeof name, "pg %s", pg_commands[i].name);
        return rc ? rc : rb_cli_finish_output(name);
    }
    return rb_cli_usage_error("pg", "unknown subcommand '%s' (ringbench pg --help lists them)",
                              argv[1]);
}

/* ---- session options ---- */

const char *rb_pg_session_help(const rb_queue_config *cfg, char *buf, size_t size) {
    snprintf(
        buf, size,
        "  --db CONNINFO      libpq conninfo or URI (default $RINGBENCH_PG_CONNINFO, else the\n"
        "                     PG* variables; `scripts/pg url` prints the embedded server's)\n"
        "  --schema NAME      schema of the queue tables (default $RINGBENCH_PG_SCHEMA or "
        "ringbench)\n"
        "  --retry-ms MS      keep reconnecting for MS after a lost connection (default %u)\n",
        cfg->retry_ms);
    return buf;
}

void rb_pg_session_defaults(rb_queue_config *cfg) {
    rb_queue_config_init(cfg);
    const char *db = getenv("RINGBENCH_PG_CONNINFO");
    if (db && *db) cfg->conninfo = db;
    const char *schema = getenv("RINGBENCH_PG_SCHEMA");
    if (schema && *schema) cfg->schema = schema;
}

int rb_pg_session_option(const char *cmd, rb_queue_config *cfg, int argc, char **argv, int *i) {
    const char *opt = argv[*i];
    if (strcmp(opt, "--db") && strcmp(opt, "--schema") && strcmp(opt, "--retry-ms")) return 0;
    if (*i + 1 >= argc) {
        rb_cli_usage_error(cmd, "%s needs a value", opt);
        return -1;
    }
    const char *v = argv[++*i];
    if (strcmp(opt, "--retry-ms") && rb_cli_nonempty(cmd, opt, v)) return -1;
    if (strcmp(opt, "--db") == 0) {
        cfg->conninfo = v;
    } else if (strcmp(opt, "--schema") == 0) {
        cfg->schema = v;
    } else if (rb_cli_u32_arg(cmd, "--retry-ms", v, 0, 3600000u, &cfg->retry_ms)) {
        return -1;
    }
    return 1;
}

volatile sig_atomic_t rb_pg_stop_requested;
/* The session a stop signal cancels the statement of (rb_pg_stop_target). */
static rb_queue *volatile stop_target;

static void on_stop_signal(int sig) {
    rb_pg_stop_requested = sig;
    rb_queue *q = stop_target;
    if (q) rb_queue_cancel(q);
}

/* SIGTERM and SIGINT to on_stop_signal; their dispositions before into old[0], old[1] (NULL:
 * not kept). */
static void catch_stop_signals(struct sigaction *old) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, old ? &old[0] : NULL);
    sigaction(SIGINT, &sa, old ? &old[1] : NULL);
}

void rb_pg_stop_signals(rb_queue_config *cfg) {
    catch_stop_signals(NULL);
    cfg->interrupt = &rb_pg_stop_requested;
}

void rb_pg_stop_target(rb_queue *q) { stop_target = q; }

int rb_pg_open(const char *cmd, const rb_queue_config *cfg, rb_queue **q) {
    /* A command without a stop flag of its own (status, migrate, explain, retry) gets one for
     * the wait: a signal then ends it with a line, not silently; its old disposition after. */
    rb_queue_config with_stop = *cfg;
    struct sigaction old[2];
    int temporary = !cfg->interrupt;
    if (temporary) {
        catch_stop_signals(old);
        with_stop.interrupt = &rb_pg_stop_requested;
        cfg = &with_stop;
    }
    int rc = rb_queue_open(cfg, q);
    if (temporary) {
        sigaction(SIGTERM, &old[0], NULL);
        sigaction(SIGINT, &old[1], NULL);
        if (rc == 0 && rb_pg_stop_requested) { /* the signal came as the wait ended */
            rb_queue_close(*q);
            *q = NULL;
            rb_cli_fail(cmd, "interrupted");
            return 128 + rb_pg_stop_requested;
        }
    }
    if (rc == 0) return 0;
    if (rc == RB_EINVAL || rc == RB_EUNKNOWN)
        return rb_cli_usage_error(cmd, "%s", rb_error_detail());
    if (cfg->interrupt && *cfg->interrupt) { /* the stop flag ended the wait: the signal's code */
        rb_cli_fail(cmd, "%s", rb_error_detail());
        return 128 + *cfg->interrupt;
    }
    if (!cfg->conninfo || !*cfg->conninfo)
        return rb_cli_fail(cmd,
                           "%s (hint: start the embedded server with `scripts/pg start` and pass "
                           "--db \"$(scripts/pg url)\", or export RINGBENCH_PG_CONNINFO)",
                           rb_error_detail());
    return rb_cli_fail(cmd, "%s", rb_error_detail());
}

/* One option of a pg subcommand: session, then ring (when parsing them), then
 * the subcommand's own. */
typedef struct pg_parse_ctx {
    rb_queue_config *cfg;
    rb_cli_ring *ring;
    rb_pg_extra_option_fn extra;
    void *extra_ctx;
    int ring_used;
} pg_parse_ctx;

static int pg_option(const char *cmd, void *ctx, int argc, char **argv, int *i) {
    pg_parse_ctx *p = ctx;
    int used = rb_pg_session_option(cmd, p->cfg, argc, argv, i);
    if (used == 0 && p->ring) {
        used = rb_cli_ring_option(cmd, p->ring, argc, argv, i);
        if (used > 0) p->ring_used = 1;
    }
    if (used == 0 && p->extra) used = p->extra(cmd, p->extra_ctx, argc, argv, i);
    return used;
}

int rb_pg_parse_options(const char *cmd, const char *help, const char *ring_help, int argc,
                        char **argv, rb_queue_config *cfg, rb_cli_ring *ring,
                        rb_pg_extra_option_fn extra, void *ctx, int *n_pos, int *ring_used) {
    char ring_lines[1024]; /* the ring options this command takes (never --members) */
    if (ring)
        rb_cli_ring_help_except(ring->refused | RB_RING_OPT_MEMBERS, ring_lines, sizeof ring_lines);
    char session_lines[512]; /* with this command's --retry-ms default */
    const char *const help_list[] = {help,
                                     "\nsession options:\n",
                                     rb_pg_session_help(cfg, session_lines, sizeof session_lines),
                                     ring ? ring_help : NULL,
                                     ring ? ring_lines : NULL,
                                     NULL};
    pg_parse_ctx p = {cfg, ring, extra, ctx, 0};
    int n = 0, rc = rb_cli_parse_args(cmd, help_list, pg_option, &p, argc, argv, &n);
    if (rc == RB_EXIT_OK && ring) /* --help shown */
        rb_cli_print_algos(stdout, !(ring->refused & RB_RING_OPT_PARAM));
    if (rc != RB_CLI_CONTINUE) return rc;
    if (ring && ring->members_spec)
        return rb_cli_usage_error(cmd, "--members is not used: the membership comes from the "
                                       "workers table (live heartbeats)");
    if (ring_used) *ring_used = p.ring_used;
    if (n_pos)
        *n_pos = n;
    else if (n > 0)
        return rb_cli_usage_error(cmd, "unexpected argument '%s'", argv[1]);
    return RB_CLI_CONTINUE;
}

/* --format for status/enqueue. */
static int format_option(const char *cmd, void *ctx, int argc, char **argv, int *i) {
    if (strcmp(argv[*i], "--format")) return 0;
    if (*i + 1 >= argc) return rb_cli_usage_error(cmd, "--format needs a value"), -1;
    if (rb_cli_parse_format(argv[*i + 1], 0, (rb_format *)ctx)) {
        rb_cli_usage_error(cmd, "--format must be text, json or csv, got '%s'", argv[*i + 1]);
        return -1;
    }
    ++*i;
    return 1;
}

/* ---- migrate ---- */

static const char migrate_help[] =
    "usage: ringbench pg migrate [options]\n"
    "\n"
    "Create the queue schema, tables and indexes if missing (queue/schema.sql) and\n"
    "record B (--buckets), the bucket hash and seed the producers use, and the\n"
    "default ring (--algo, --vnodes, --hash) for workers. Idempotent; re-running with\n"
    "a different B, bucket hash or seed is an error (exit 2).\n"
    "The retention of done rows may be changed at any migrate (only what is given):\n"
    "  --retention-ms MS|off  housekeepers delete done rows completed more than MS ago\n"
    "                     (1000 .. 315360000000; off: keep them, the default);\n"
    "                     effects are kept and a deleted row's idempotency key still\n"
    "                     refuses re-enqueues (queue/README.md, \"Retention\")\n"
    "  --retention-batch N  at most N done rows deleted per housekeeping round\n"
    "                     (1 .. 100000, default 2000)\n";

typedef struct migrate_opts {
    int64_t retention_ms; /* -1: not given; 0: off */
    uint32_t batch_rows;  /* 0: not given */
} migrate_opts;

static int migrate_option(const char *cmd, void *ctx, int argc, char **argv, int *i) {
    migrate_opts *o = ctx;
    const char *opt = argv[*i];
    if (strcmp(opt, "--retention-ms") && strcmp(opt, "--retention-batch")) return 0;
    if (*i + 1 >= argc) {
        rb_cli_usage_error(cmd, "%s needs a value", opt);
        return -1;
    }
    const char *v = argv[++*i];
    uint64_t ms = 0;
    if (strcmp(opt, "--retention-batch") == 0) {
        if (rb_cli_u32_arg(cmd, opt, v, 1, RB_QUEUE_RETENTION_BATCH_MAX, &o->batch_rows)) return -1;
    } else if (strcmp(v, "off") == 0) {
        o->retention_ms = 0;
    } else if (rb_cli_whole(v, RB_QUEUE_RETENTION_MIN_MS, (uint64_t)RB_QUEUE_RETENTION_MAX_MS,
                            &ms)) {
        rb_cli_usage_error(cmd,
                           "--retention-ms must be off or a whole number of ms from %d to %lld "
                           "(%s), got '%s'",
                           RB_QUEUE_RETENTION_MIN_MS, (long long)RB_QUEUE_RETENTION_MAX_MS,
                           rb_cli_whole(v, 0, UINT64_MAX, &ms) == RB_CLI_NOT_WHOLE
                               ? "not a whole number"
                               : "out of range",
                           v);
        return -1;
    } else {
        o->retention_ms = (int64_t)ms;
    }
    return 1;
}

/* After the migration: apply the retention options given (the others keep what is recorded)
 * and print the retention in effect. Exit code. */
static int migrate_retention(const char *cmd, rb_queue *q, const migrate_opts *o) {
    rb_queue_retention r;
    int rc = rb_queue_retention_get(q, &r);
    if (!rc && (o->retention_ms >= 0 || o->batch_rows)) {
        if (o->retention_ms >= 0) r.retention_ms = o->retention_ms;
        if (o->batch_rows) r.batch_rows = o->batch_rows;
        rc = rb_queue_retention_set(q, &r);
    }
    if (rc == RB_EINVAL) return rb_cli_usage_error(cmd, "%s", rb_error_detail());
    if (rc)
        return rb_cli_fail(cmd, "%s (the schema is migrated; the retention is unchanged)",
                           rb_error_detail());
    if (r.retention_ms)
        printf("retention: done rows deleted %lld ms after completion, at most %u per round\n",
               (long long)r.retention_ms, r.batch_rows);
    else
        printf("retention: off (done rows kept)\n");
    return RB_EXIT_OK;
}

int rb_pg_cmd_migrate(int argc, char **argv) {
    const char *cmd = "pg migrate";
    rb_queue_config cfg;
    rb_pg_session_defaults(&cfg);
    rb_cli_ring ring;
    rb_cli_ring_init(&ring);
    migrate_opts o = {-1, 0};
    /* queue_config records the algorithm, V, B, the hashes and the seed: anything else would
     * be taken here and then silently not used by the workers */
    ring.refused = RB_RING_OPT_TABLE_SOURCE | RB_RING_OPT_PARAM;
    ring.seed_max = RB_QUEUE_MAX_SEED; /* a bigint in the bucket trigger (rb_queue_ring_check) */
    int rc = rb_pg_parse_options(cmd, migrate_help, "\nring options:\n", argc, argv, &cfg, &ring,
                                 migrate_option, &o, NULL, NULL);
    if (rc >= 0) return rc;
    if (ring.given & ring.refused)
        return rb_cli_usage_error("pg migrate",
                                  "%s does not apply to a queue: queue_config records --algo, "
                                  "--vnodes, --buckets, the hashes and --seed only",
                                  ring.given & RB_RING_OPT_PARAM ? "--param" : "--table-source");
    if (!ring.algo) ring.algo = rb_algo_by_name("binary");
    /* --vnodes with an algorithm without vnodes: recorded, then fixed for nothing */
    if (rb_cli_ring_check_params(cmd, &ring, &ring.algo, 1)) return RB_EXIT_USAGE;
    if (rb_queue_ring_check(&ring.cfg)) /* bad input before connecting */
        return rb_cli_usage_error("pg migrate", "--%s", rb_error_detail());
    rb_queue *q;
    if ((rc = rb_pg_open(cmd, &cfg, &q))) return rc;
    rc = rb_queue_migrate(q, ring.algo, &ring.cfg);
    if (rc == RB_EINVAL)
        rc = rb_cli_usage_error(cmd, "%s", rb_error_detail());
    else if (rc)
        rc = rb_cli_fail(cmd, "%s", rb_error_detail());
    else {
        const rb_config *c = rb_queue_ring_config(q);
        printf("schema %s ready: buckets=%u bucket_hash=%s seed=%llu\n", cfg.schema, c->n_buckets,
               c->bucket_hash->name, (unsigned long long)c->seed);
        rc = migrate_retention(cmd, q, &o);
    }
    rb_queue_close(q);
    return rc;
}

/* ---- enqueue ---- */

static const char enqueue_help[] =
    "usage: ringbench pg enqueue [options] FILE      (FILE '-' or absent: stdin)\n"
    "\n"
    "One row per line: KEY[<TAB>IDEMPOTENCY_KEY[<TAB>PAYLOAD]]; the payload is the\n"
    "rest of the line (TABs included); a trailing CR is dropped; blank lines are\n"
    "skipped. partition_bucket is bucket_hash(KEY) mod B with the queue's bucket hash\n"
    "(rb_bucket_of). Without an idempotency key the row gets KEY#LINE (line number\n"
    "from 1), so enqueueing the same file twice creates nothing the second time.\n"
    "Every line is checked first (text without NUL, valid UTF-8, KEY and\n"
    "IDEMPOTENCY_KEY non-empty and at most 2000 bytes): a bad line exits 2 naming\n"
    "it. Then one INSERT of all rows: all or nothing. Prints rows inserted and\n"
    "duplicate idempotency keys skipped.\n"
    "  --format F         text, json or csv (default text)\n";

/* The rows of an input: each line parsed by rb_enqueue_line_parse (blank lines
 * skipped) into NUL-terminated fields, all checked before any row is sent.
 * Returns -1 with *items, *owned (one allocation per row) and *n set, else
 * the exit code after printing "NAME line N: reason" (nothing to free). */
static int enqueue_items(const char *cmd, const char *name, const rb_key_list *lines,
                         rb_queue_item **items_out, char ***owned_out, size_t *n_out) {
    rb_queue_item *items = calloc(lines->n ? lines->n : 1, sizeof *items);
    char **owned = calloc(lines->n ? lines->n : 1, sizeof *owned);
    size_t n = 0;
    int rc = items && owned ? -1 : rb_cli_fail(cmd, "out of memory");
    for (size_t k = 0; rc < 0 && k < lines->n; k++) {
        rb_enqueue_line l;
        char err[200];
        int kind = rb_enqueue_line_parse(lines->keys[k], lines->len[k], &l, err, sizeof err);
        if (kind < 0) {
            rc = rb_cli_usage_error(cmd, "%s line %zu: %s (nothing enqueued)", name, k + 1, err);
            break;
        }
        if (kind == RB_ENQUEUE_LINE_BLANK) continue;
        /* KEY NUL IDEM-or-KEY#LINE NUL PAYLOAD NUL */
        size_t idem_len = l.idem ? l.idem_len : l.key_len + 21;
        char *s = malloc(l.key_len + idem_len + l.payload_len + 3);
        if (!(owned[n] = s)) {
            rc = rb_cli_fail(cmd, "out of memory");
            break;
        }
        items[n].partition_key = memcpy(s, l.key, l.key_len);
        s[l.key_len] = 0;
        char *idem = s + l.key_len + 1;
        if (l.idem)
            memcpy(idem, l.idem, l.idem_len), idem[l.idem_len] = 0;
        else
            snprintf(idem, idem_len + 1, "%.*s#%zu", (int)l.key_len, l.key, k + 1);
        items[n].idempotency_key = idem;
        if (l.payload) {
            char *pay = idem + strlen(idem) + 1;
            memcpy(pay, l.payload, l.payload_len);
            pay[l.payload_len] = 0;
            items[n].payload = pay;
        }
        n++;
    }
    if (rc >= 0) {
        for (size_t k = 0; owned && k < n; k++)
            free(owned[k]);
        free(owned);
        free(items);
        return rc;
    }
    *items_out = items;
    *owned_out = owned;
    *n_out = n;
    return -1;
}

int rb_pg_cmd_enqueue(int argc, char **argv) {
    const char *cmd = "pg enqueue";
    rb_queue_config cfg;
    rb_pg_session_defaults(&cfg);
    rb_format fmt = RB_FMT_TEXT;
    int n_pos = 0, rc = rb_pg_parse_options(cmd, enqueue_help, NULL, argc, argv, &cfg, NULL,
                                            format_option, &fmt, &n_pos, NULL);
    if (rc >= 0) return rc;
    if (n_pos > 1) return rb_cli_usage_error(cmd, "one FILE at most (got '%s')", argv[2]);
    const char *path = n_pos ? argv[1] : "-";
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) return rb_cli_usage_error(cmd, "cannot open '%s': %s", path, strerror(errno));
    const char *name = f == stdin ? "stdin" : path;
    rb_key_list lines;
    errno = 0;
    rc = rb_key_list_read(f, &lines);
    int read_errno = errno;
    if (f != stdin) fclose(f);
    if (rc && read_errno == EISDIR) /* a folder named as the input: bad input, as a missing file */
        return rb_cli_usage_error(cmd, "cannot read '%s': %s", name, strerror(read_errno));
    if (rc)
        return rb_cli_fail(cmd, "cannot read '%s': %s", name,
                           read_errno ? strerror(read_errno) : "out of memory");
    rb_queue_item *items = NULL;
    char **owned = NULL;
    size_t n = 0;
    rc = enqueue_items(cmd, name, &lines, &items, &owned, &n);
    rb_key_list_free(&lines);
    rb_queue *q = NULL;
    size_t n_inserted = 0;
    /* A stop signal cancels the INSERT (it may wait for other producers' stripe locks): it
     * rolls back, rather than commit after the process is gone. */
    if (rc < 0) rb_pg_stop_signals(&cfg);
    if (rc < 0 && (rc = rb_pg_open(cmd, &cfg, &q)) == 0) rc = -1;
    if (rc < 0) {
        rb_pg_stop_target(q);
        /* a failure under a stop exits as a process the signal ended; a signal after a
         * successful enqueue changes nothing (the rows are in) */
        int ran = !rb_pg_stop_requested;
        int failed = !ran || rb_queue_enqueue(q, items, n, &n_inserted);
        if (failed)
            rc = rb_cli_fail(cmd, "%s (nothing enqueued)", ran ? rb_error_detail() : "interrupted");
        if (failed && rb_pg_stop_requested) rc = 128 + rb_pg_stop_requested;
        rb_pg_stop_target(NULL);
    }
    if (rc < 0) {
        size_t n_dup = n - n_inserted;
        rc = RB_EXIT_OK;
        if (fmt == RB_FMT_JSON) {
            json_t *o = json_object();
            rb_json_set(o, "rows", rb_json_u64(n));
            rb_json_set(o, "inserted", rb_json_u64(n_inserted));
            rb_json_set(o, "duplicates", rb_json_u64(n_dup));
            rc = rb_json_write_stdout(cmd, o, RB_JSON_LINE);
        } else if (fmt == RB_FMT_CSV)
            printf("rows,inserted,duplicates\n%zu,%zu,%zu\n", n, n_inserted, n_dup);
        else
            printf("enqueued %zu of %zu rows; %zu duplicate idempotency key%s skipped (no row "
                   "created)\n",
                   n_inserted, n, n_dup, n_dup == 1 ? "" : "s");
        errno = 0; /* the rows are committed: a report that cannot be written says so */
        if (rc == RB_EXIT_OK && (fflush(stdout) || ferror(stdout)))
            rc = rb_cli_fail(cmd, "writing output: %s (the rows were enqueued: %zu inserted)",
                             errno ? strerror(errno) : "write error", n_inserted);
    }
    rb_queue_close(q);
    for (size_t k = 0; owned && k < n; k++)
        free(owned[k]);
    free(owned);
    free(items);
    return rc;
}

/* ---- status ---- */

static const char status_help[] =
    "usage: ringbench pg status [options]\n"
    "\n"
    "Rows by status (pending, claimed, done, failed), effects, workers by status\n"
    "(alive, live = alive and heartbeat within its TTL by the database clock, dead,\n"
    "left), pending rows blocked behind a dead letter of their key (ordered mode), and\n"
    "the retention of done rows (retention_ms, 0 = off; retention_batch rows per round).\n"
    "With --dead-letters: the failed rows instead (id, key, attempts, claims, re-drives,\n"
    "last error, when), oldest first; `ringbench pg retry` re-drives them.\n"
    "  --dead-letters     list dead letters (up to --limit, default 100)\n"
    "  --limit N          rows listed with --dead-letters\n"
    "  --format F         text, json or csv (default text)\n";

typedef struct status_opts {
    rb_format fmt;
    int dead_letters;
    uint32_t limit;
    int limit_given;
} status_opts;

static int status_option(const char *cmd, void *ctx, int argc, char **argv, int *i) {
    status_opts *o = ctx;
    if (strcmp(argv[*i], "--dead-letters") == 0) {
        o->dead_letters = 1;
        return 1;
    }
    if (strcmp(argv[*i], "--limit") == 0) {
        const char *v = rb_cli_opt_value(cmd, argc, argv, i);
        if (!v || rb_cli_u32_arg(cmd, "--limit", v, 1, 1000000000u, &o->limit)) return -1;
        o->limit_given = 1;
        return 1;
    }
    return format_option(cmd, &o->fmt, argc, argv, i);
}

static json_t *json_dead_letters(const rb_queue_dead_letters *d) {
    json_t *a = json_array();
    for (size_t i = 0; i < d->n; i++) {
        const rb_queue_dead_letter *r = &d->rows[i];
        json_t *o = json_object();
        rb_json_set(o, "id", json_integer(r->id));
        rb_json_set(o, "partition_key", rb_json_str(r->partition_key));
        rb_json_set(o, "idempotency_key", rb_json_str(r->idempotency_key));
        rb_json_set(o, "attempts", rb_json_u64(r->attempts));
        rb_json_set(o, "claims", rb_json_u64(r->claims));
        rb_json_set(o, "redrives", rb_json_u64(r->redrive_count));
        rb_json_set(o, "failed_at", rb_json_str(r->failed_at));
        rb_json_set(o, "last_error", rb_json_str(r->last_error));
        rb_json_push(a, o);
    }
    return a;
}

static int print_dead_letters(const char *cmd, const rb_queue_dead_letters *d, rb_format fmt) {
    if (fmt == RB_FMT_JSON) return rb_json_write_stdout(cmd, json_dead_letters(d), RB_JSON_LINE);
    if (fmt == RB_FMT_CSV)
        printf("id,partition_key,idempotency_key,attempts,claims,redrives,failed_at,last_error\n");
    else
        printf("%-10s %-24s %-24s %8s %6s %8s  %-29s %s\n", "id", "partition_key",
               "idempotency_key", "attempts", "claims", "redrives", "failed_at", "last_error");
    for (size_t i = 0; i < d->n; i++) {
        const rb_queue_dead_letter *r = &d->rows[i];
        if (fmt == RB_FMT_CSV) {
            printf("%lld,", (long long)r->id);
            rb_csv_field(stdout, r->partition_key, strlen(r->partition_key));
            printf(",");
            rb_csv_field(stdout, r->idempotency_key, strlen(r->idempotency_key));
            printf(",%u,%u,%u,%s,", r->attempts, r->claims, r->redrive_count, r->failed_at);
            rb_csv_field(stdout, r->last_error, strlen(r->last_error));
            printf("\n");
        } else { /* keys and errors escaped: a CR in a key must not overwrite the row */
            printf("%-10lld ", (long long)r->id);
            rb_text_field(stdout, r->partition_key, strlen(r->partition_key), 24);
            putchar(' ');
            rb_text_field(stdout, r->idempotency_key, strlen(r->idempotency_key), 24);
            printf(" %8u %6u %8u  ", r->attempts, r->claims, r->redrive_count);
            rb_text_field(stdout, r->failed_at, strlen(r->failed_at), 29);
            putchar(' ');
            rb_text_field(stdout, r->last_error, strlen(r->last_error), 0);
            putchar('\n');
        }
    }
    return 0;
}

int rb_pg_cmd_status(int argc, char **argv) {
    const char *cmd = "pg status";
    rb_queue_config cfg;
    rb_pg_session_defaults(&cfg);
    status_opts o = {RB_FMT_TEXT, 0, 100, 0};
    int rc = rb_pg_parse_options(cmd, status_help, NULL, argc, argv, &cfg, NULL, status_option, &o,
                                 NULL, NULL);
    if (rc >= 0) return rc;
    if (o.limit_given && !o.dead_letters)
        return rb_cli_usage_error(cmd, "--limit applies to --dead-letters only");
    rb_queue *q;
    if ((rc = rb_pg_open(cmd, &cfg, &q))) return rc;
    if (o.dead_letters) {
        rb_queue_dead_letters d;
        if (rb_queue_dead_letters_get(q, o.limit, &d))
            rc = rb_cli_fail(cmd, "%s", rb_error_detail());
        else
            rc = print_dead_letters(cmd, &d, o.fmt);
        rb_queue_dead_letters_free(&d);
        rb_queue_close(q);
        return rc ? rc : RB_EXIT_OK;
    }
    rb_queue_counts c;
    rb_queue_retention ret;
    if (rb_queue_counts_get(q, &c) || rb_queue_retention_get(q, &ret)) {
        rc = rb_cli_fail(cmd, "%s", rb_error_detail());
        rb_queue_close(q);
        return rc;
    }
    /* retention_ms 0 = off (done rows kept) */
    static const char *const names[] = {"pending",      "claimed",      "done",
                                        "failed",       "effects",      "workers_alive",
                                        "workers_live", "workers_dead", "workers_left",
                                        "blocked",      "retention_ms", "retention_batch"};
    const int64_t v[] = {c.n_pending,      c.n_claimed,       c.n_done,         c.n_failed,
                         c.n_effects,      c.n_workers_alive, c.n_workers_live, c.n_workers_dead,
                         c.n_workers_left, c.n_blocked,       ret.retention_ms, ret.batch_rows};
    const size_t nf = sizeof v / sizeof v[0];
    if (o.fmt == RB_FMT_JSON) {
        json_t *obj = json_object();
        for (size_t k = 0; k < nf; k++)
            rb_json_set(obj, names[k], json_integer(v[k]));
        rc = rb_json_write_stdout(cmd, obj, RB_JSON_LINE);
        rb_queue_close(q);
        return rc;
    }
    for (size_t k = 0; k < nf; k++) {
        if (o.fmt == RB_FMT_CSV)
            printf("%s%s", names[k], k == nf - 1 ? "\n" : ",");
        else
            printf("%-14s %lld\n", names[k], (long long)v[k]);
    }
    for (size_t k = 0; o.fmt == RB_FMT_CSV && k < nf; k++)
        printf("%lld%s", (long long)v[k], k == nf - 1 ? "\n" : ",");
    if (o.fmt == RB_FMT_TEXT && !ret.retention_ms)
        printf("(retention off: done rows are kept; `ringbench pg migrate --retention-ms MS` sets "
               "one)\n");
    if (o.fmt == RB_FMT_TEXT && c.n_failed)
        printf("(%lld dead letters: `ringbench pg status --dead-letters` lists them, `ringbench pg "
               "retry` re-drives them)\n",
               (long long)c.n_failed);
    rb_queue_close(q);
    return RB_EXIT_OK;
}

/* ---- retry ---- */

static const char retry_help[] =
    "usage: ringbench pg retry [options] (--all | ID...)\n"
    "\n"
    "Re-drive dead letters: the failed rows ID... (or every failed row with --all) go\n"
    "back to pending now, attempts and claims reset, each re-drive recorded in the\n"
    "redrives table. All or nothing: when an ID is not a dead letter (unknown, or no\n"
    "longer failed) nothing changes (exit 1). Prints how many rows were re-driven.\n"
    "  --all              every dead letter\n"
    "  --format F         text, json or csv (default text)\n";

typedef struct retry_opts {
    rb_format fmt;
    int all;
} retry_opts;

static int retry_option(const char *cmd, void *ctx, int argc, char **argv, int *i) {
    retry_opts *o = ctx;
    if (strcmp(argv[*i], "--all") == 0) {
        o->all = 1;
        return 1;
    }
    return format_option(cmd, &o->fmt, argc, argv, i);
}

int rb_pg_cmd_retry(int argc, char **argv) {
    const char *cmd = "pg retry";
    rb_queue_config cfg;
    rb_pg_session_defaults(&cfg);
    retry_opts o = {RB_FMT_TEXT, 0};
    int n_pos = 0, rc = rb_pg_parse_options(cmd, retry_help, NULL, argc, argv, &cfg, NULL,
                                            retry_option, &o, &n_pos, NULL);
    if (rc >= 0) return rc;
    if (o.all && n_pos > 0) return rb_cli_usage_error(cmd, "give --all or row ids, not both");
    if (!o.all && n_pos == 0)
        return rb_cli_usage_error(cmd, "give the ids of the dead letters to re-drive, or --all");
    size_t n_ids = n_pos > 0 ? (size_t)n_pos : 0;
    int64_t *ids = calloc(n_ids + 1, sizeof *ids);
    if (!ids) return rb_cli_fail(cmd, "out of memory");
    for (int k = 0; k < n_pos; k++) {
        uint64_t v;
        if (rb_cli_u64_arg(cmd, "row id", argv[1 + k], 1, INT64_MAX, &v)) {
            free(ids);
            return RB_EXIT_USAGE;
        }
        ids[k] = (int64_t)v;
    }
    rb_queue *q;
    if ((rc = rb_pg_open(cmd, &cfg, &q))) {
        free(ids);
        return rc;
    }
    size_t n = 0;
    rc = rb_queue_redrive(q, ids, n_ids, o.all, &n);
    free(ids);
    if (rc)
        rc = rb_cli_fail(cmd, "%s", rb_error_detail());
    else if (o.fmt == RB_FMT_JSON) {
        json_t *obj = json_object();
        rb_json_set(obj, "redriven", rb_json_u64(n));
        rc = rb_json_write_stdout(cmd, obj, RB_JSON_LINE);
    } else if (o.fmt == RB_FMT_CSV)
        printf("redriven\n%zu\n", n);
    else if (n == 0) /* only with --all: an id that is not a dead letter is an error */
        printf("re-drove 0 dead letters (there are none)\n");
    else
        printf("re-drove %zu dead letter%s (pending now, attempts reset)\n", n, n == 1 ? "" : "s");
    rb_queue_close(q);
    return rc ? rc : RB_EXIT_OK;
}

/* ---- explain ---- */

static const char explain_help[] =
    "usage: ringbench pg explain [options]\n"
    "\n"
    "Print the plan of the claim statement of each mode (or --mode M) with --batch N,\n"
    "over all buckets. --analyze runs it (EXPLAIN ANALYZE) inside a transaction that is\n"
    "rolled back. --generic shows the generic plan (force_generic_plan), the one every\n"
    "worker session runs. --alone shows the claim of a worker that owns every bucket\n"
    "(the only live member; affinity: the competing claim, ordered: the window) instead\n"
    "of the walk over the owned buckets. --aged shows affinity's claim with the age\n"
    "scan from the head (claim_aged.sql, sent when a worker's age scan runs) instead\n"
    "of the walk alone. --head shows the competing claim read from the head of the\n"
    "pending rows (a worker's read every 100 ms) instead of from the newest row in\n"
    "flight. --planner-off LIST disables planner methods\n"
    "first (hashjoin, mergejoin, nestloop, seqscan, indexscan, bitmapscan, sort).\n"
    "  --mode M           competing, affinity or ordered (default: all three)\n"
    "  --batch N          claim batch (default 16)\n"
    "  --analyze          EXPLAIN ANALYZE (rolled back)\n"
    "  --generic          the generic plan, not the plan for these parameter values\n"
    "  --alone            the claim of the only live member (no walk)\n"
    "  --aged             affinity: the claim with the age scan\n"
    "  --head             the competing claim from the head, not the front\n"
    "  --planner-off LIST planner switches to turn off\n";

typedef struct explain_opts {
    rb_queue_config *cfg;
    int all_modes, flags; /* RB_EXPLAIN_* */
} explain_opts;

static int explain_option(const char *cmd, void *ctx, int argc, char **argv, int *i) {
    explain_opts *o = ctx;
    const char *opt = argv[*i];
    int flag = strcmp(opt, "--analyze") == 0   ? RB_EXPLAIN_ANALYZE
               : strcmp(opt, "--generic") == 0 ? RB_EXPLAIN_GENERIC
               : strcmp(opt, "--alone") == 0   ? RB_EXPLAIN_ALONE
               : strcmp(opt, "--aged") == 0    ? RB_EXPLAIN_AGED
               : strcmp(opt, "--head") == 0    ? RB_EXPLAIN_HEAD
                                               : 0;
    if (flag) {
        o->flags |= flag;
        return 1;
    }
    if (strcmp(opt, "--mode") && strcmp(opt, "--batch") && strcmp(opt, "--planner-off")) return 0;
    if (*i + 1 >= argc) {
        rb_cli_usage_error(cmd, "%s needs a value", opt);
        return -1;
    }
    const char *v = argv[++*i];
    if (strcmp(opt, "--mode") == 0) {
        if (rb_claim_mode_parse(v, &o->cfg->mode)) {
            rb_cli_usage_error(cmd, "%s", rb_error_detail());
            return -1;
        }
        o->all_modes = 0;
    } else if (strcmp(opt, "--batch") == 0) {
        if (rb_cli_u32_arg(cmd, "--batch", v, 1, RB_QUEUE_MAX_BATCH, &o->cfg->batch)) return -1;
    } else {
        o->cfg->planner_off = v;
    }
    return 1;
}

int rb_pg_cmd_explain(int argc, char **argv) {
    const char *cmd = "pg explain";
    rb_queue_config cfg;
    rb_pg_session_defaults(&cfg);
    explain_opts o = {&cfg, 1, 0};
    int rc = rb_pg_parse_options(cmd, explain_help, NULL, argc, argv, &cfg, NULL, explain_option,
                                 &o, NULL, NULL);
    if (rc >= 0) return rc;
    /* a flag no plan shown would read: say so */
    if ((o.flags & RB_EXPLAIN_AGED) && (o.flags & RB_EXPLAIN_ALONE))
        return rb_cli_usage_error(cmd, "--aged and --alone exclude each other (the only live "
                                       "member sends the competing claim)");
    if ((o.flags & RB_EXPLAIN_AGED) && !o.all_modes && cfg.mode != RB_CLAIM_AFFINITY)
        return rb_cli_usage_error(cmd, "--aged applies to --mode affinity only (got --mode %s)",
                                  rb_claim_mode_name(cfg.mode));
    if ((o.flags & RB_EXPLAIN_HEAD) && (o.flags & RB_EXPLAIN_AGED))
        return rb_cli_usage_error(cmd, "--head and --aged exclude each other (--head is the "
                                       "competing claim's read)");
    if ((o.flags & RB_EXPLAIN_HEAD) && !o.all_modes &&
        !rb_queue_explain_competing(cfg.mode, o.flags))
        return rb_cli_usage_error(cmd,
                                  "--head applies to the competing claim only (--mode "
                                  "competing, or affinity with --alone; got --mode %s)",
                                  rb_claim_mode_name(cfg.mode));
    rb_queue *q;
    if ((rc = rb_pg_open(cmd, &cfg, &q))) return rc;
    for (int m = RB_CLAIM_COMPETING; m <= RB_CLAIM_ORDERED; m++) {
        if (!o.all_modes && m != (int)cfg.mode) continue;
        char *text;
        if (rb_queue_explain(q, (rb_claim_mode)m, o.flags, &text)) {
            rc = rb_cli_fail(cmd, "%s", rb_error_detail());
            break;
        }
        int competing = rb_queue_explain_competing((rb_claim_mode)m, o.flags);
        printf("-- mode %s, batch %u%s%s%s%s%s%s\n%s\n", rb_claim_mode_name((rb_claim_mode)m),
               cfg.batch, o.flags & RB_EXPLAIN_GENERIC ? ", generic plan" : "",
               o.flags & RB_EXPLAIN_ALONE ? ", the only live member" : "",
               !competing                  ? ""
               : o.flags & RB_EXPLAIN_HEAD ? ", from the head"
                                           : ", from the front",
               (o.flags & RB_EXPLAIN_AGED) && m == RB_CLAIM_AFFINITY ? ", with the age scan" : "",
               cfg.planner_off ? ", planner off: " : "", cfg.planner_off ? cfg.planner_off : "",
               text);
        free(text);
    }
    rb_queue_close(q);
    return rc;
}
