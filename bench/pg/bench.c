/*
 * bench.c — `ringbench pg bench`: end-to-end claim throughput of the queue
 * library on a live Postgres (W worker processes x mode x batch x key
 * distribution), pgbench simple-update on the same server in the same run as
 * the reference, then the scale event and the crash injection
 * (events.c). Results: JSON + Markdown (+ CSV timeline) into --out;
 * the Markdown table also to stdout. Progress on stderr. See bench/pg/README.md.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backlog.h"
#include "cells.h"
#include "cli.h"
#include "conninfo_redact.h"
#include "db.h"
#include "events.h"
#include "json_out.h"
#include "machine.h"
#include "queue.h" /* RB_QUEUE_RETENTION_MIN_MS / _MAX_MS */
#include "report.h"
#include "soak.h"

#ifndef RINGBENCH_SOURCE_DIR
#define RINGBENCH_SOURCE_DIR "."
#endif

static const char CMD[] = "pg bench";

static const char usage_text[] =
    "usage: ringbench pg bench [--smoke|--quick|--full] [OPTIONS]\n"
    "\n"
    "End-to-end claim throughput on Postgres: W worker processes x mode x batch x key\n"
    "distribution over R pre-enqueued rows, each handler writing one effect row; pgbench\n"
    "simple-update on the same server and client count as the reference; a scale event\n"
    "(a 4th worker joins 3) with the consistent ring and with modn; SIGKILL crash injection.\n"
    "\n"
    "profiles (default --full):\n"
    "  --smoke          about a minute: correctness (duplicates, lost) on a tiny matrix, the\n"
    "                   chain group at W 1 and 1 kill (twice: batch and chain workers)\n"
    "  --quick          about 3 minutes (W 1,4; batch 1,32; 3 repetitions of 1 s)\n"
    "  --full           the whole matrix (W 1,2,4,8; batch 1,8,32; 3 repetitions of 3 s),\n"
    "                   about 20 minutes\n"
    "options (override the profile):\n"
    "  --db STR         server to use, as for the other pg commands (--conninfo is the same;\n"
    "                   default $RINGBENCH_PG_CONNINFO, else PG* variables)\n"
    "  --queue-db NAME  database for the queue tables (created; default ringbench_bench)\n"
    "  --pgbench-db NAME database for pgbench (created; default ringbench_pgbench)\n"
    "  --pgbench PATH   pgbench binary (default: newest /usr/lib/postgresql/N/bin/pgbench)\n"
    "  --workers LIST   worker counts W of the matrix and the pgbench reference, e.g. 1,2,4,8\n"
    "  --modes LIST     competing,affinity,ordered\n"
    "  --batch LIST     rows per claim, e.g. 1,8,32; none: no matrix (the chain group and the\n"
    "                   events only; with --chain-workers none no cell, so no pgbench\n"
    "                   reference and no EXPLAIN)\n"
    "  --dist LIST      uniform,zipf\n"
    "  --rows R         rows enqueued per cell (default: sized from the cell time)\n"
    "  --keys K         partition keys (default 10000)\n"
    "  --zipf-s S       Zipf exponent (default 1.0)\n"
    "  --seed N         key stream seed (default 1)\n"
    "  --secs S         measured seconds per cell and repetition\n"
    "  --repeats N      repetitions of every cell and backlog point (1..9), interleaved across\n"
    "                   the modes; the median (nearest rank: of an even N the lower middle)\n"
    "                   and the min-max are reported (default 3; smoke 1)\n"
    "  --pgbench-secs S seconds per pgbench run before / after the matrix and the soak\n"
    "                   (default 3; quick 2, smoke 1)\n"
    "  --pgbench-group-secs S  seconds per pgbench run before / after each group of modes\n"
    "  --algo A         ring algorithm of the affinity modes (default binary)\n"
    "  --age-bound-ms MS  every affinity worker's age bound (`pg worker --age-bound-ms`;\n"
    "                   default 30000; 0 = none: the walk alone)\n"
    "  --sync-commit on|off  durability of every session (default on = server default)\n"
    "  --heap-order O   the matrix and chain cells' backlog on disk: loaded (default: as\n"
    "                   COPY wrote it, id order), id or bucket (rewritten by CLUSTER before\n"
    "                   each cell; bucket: a bucket's rows on adjacent pages)\n"
    "  --complete batch|each|chain  one commit per claimed batch (default), one per row,\n"
    "                   or the batch's completion and the next claim in one commit\n"
    "                   (`pg worker --chain`: one commit per row at batch 1)\n"
    "  --chain-workers LIST  the chain group: every mode at batch 1 with `pg worker --chain`\n"
    "                   completion at each W, every distribution, measured like the matrix;\n"
    "                   its target is rows/s >= 0.8 x pgbench TPS; the crash injection runs\n"
    "                   again with chain workers; none to skip (default: full 1,2; quick, smoke "
    "1);\n"
    "                   under --complete chain a W whose batch-1 cells the matrix has is not\n"
    "                   measured twice\n"
    "  --no-scale, --no-crash  skip the scale event / the crash injection\n"
    "  --backlog LIST   backlog sweep: claim p50 per mode at each backlog size, one hot key\n"
    "                   holding 10% of it with its head row in flight, e.g. 10k,100k,1M\n"
    "                   (sizes 1000..10000000 rows, suffix k or M; at most 8; the target\n"
    "                   ratio needs two); always 2 workers at batch 8 (--workers and --batch\n"
    "                   are the matrix's); none to skip (default: full 10k,100k,1M; quick\n"
    "                   10k,100k; smoke 2k,8k)\n"
    "  --backlog-secs S at most this many seconds per backlog size, mode and repetition\n"
    "                   (0.1..3600; default 1, quick and smoke 0.5); a measurement also stops\n"
    "                   once its workers have done 20% of the backlog (every point is\n"
    "                   measured --repeats times, interleaved across the modes)\n"
    "  --soak SECONDS   soak run (10..86400): 4 affinity workers at batch 8 for SECONDS while\n"
    "                   the backlog is kept topped up; per interval (60 s; a fifth of a run\n"
    "                   under 5 min) rows/s, inbox size, dead tuples and the work per row;\n"
    "                   pgbench at 4 clients right before and after it\n"
    "  --soak-retention-ms MS  retention of done rows during the soak (default 10000;\n"
    "                   `pg migrate --retention-ms`); off again after it\n"
    "  --kills N        SIGKILLs in the crash run\n"
    "  --out DIR        results folder, new or empty (default results/pgbench-<date>, or\n"
    "                   -2, -3, ... appended when that one holds a run)\n"
    "  --format md|json what goes to stdout (default md)\n"
    "An option no part of the run reads is refused (exit 2): --kills without the crash run,\n"
    "--zipf-s without a Zipf cell, --soak-retention-ms without --soak, --backlog-secs without\n"
    "the sweep, --complete without the matrix, the sweep (batch, each) or the crash run\n"
    "(chain), --dist, --heap-order and --pgbench-group-secs without cells, --modes and\n"
    "--repeats without cells or the sweep, --age-bound-ms without an affinity worker,\n"
    "--algo without a worker that owns buckets, --workers and --secs without cells, --rows\n"
    "without cells or the scale event, --pgbench, --pgbench-secs and --pgbench-db without\n"
    "cells or a soak.\n";

static void set_profile(rbb_params *p, const char *name) {
    static const uint32_t w_full[] = {1, 2, 4, 8}, w_quick[] = {1, 4}, w_smoke[] = {1, 2};
    static const uint32_t b_full[] = {1, 8, 32}, b_quick[] = {1, 32}, b_smoke[] = {1, 8};
    p->profile = name;
    p->n_modes = RBB_N_MODES;
    for (int m = 0; m < RBB_N_MODES; m++)
        p->modes[m] = (rbb_mode)m;
    p->dists[0] = RBB_DIST_UNIFORM;
    p->dists[1] = RBB_DIST_ZIPF;
    const uint32_t *w = w_full, *b = b_full;
    size_t nw = 4, nb = 3;
    /* the chain group (issue 11, target 4): W 1 and 2 in the full profile, W 1 otherwise */
    p->chain_workers[0] = 1, p->chain_workers[1] = 2;
    p->n_chain_workers = strcmp(name, "full") == 0 ? 2 : 1;
    if (strcmp(name, "smoke") == 0) {
        w = w_smoke, nw = 2, b = b_smoke, nb = 2;
        p->n_dists = 1;
        p->cell_s = 0.8;
        p->repeats = 1;
        p->pgbench_s = 1, p->pgbench_group_s = 1;
        p->scale = 0;
        p->crash = 1, p->crash_kills = 1, p->crash_rows = 1500;
        p->backlogs[0] = 2000, p->backlogs[1] = 8000, p->n_backlogs = 2, p->backlog_s = 0.5;
    } else if (strcmp(name, "quick") == 0) {
        w = w_quick, nw = 2, b = b_quick, nb = 2;
        p->n_dists = 2;
        p->cell_s = 1.0;
        p->repeats = 3;
        p->pgbench_s = 2, p->pgbench_group_s = 1;
        p->scale = 1, p->scale_pre_s = 2.5, p->scale_post_s = 3.5;
        p->crash = 1, p->crash_kills = 2, p->crash_rows = 4000;
        p->backlogs[0] = 10000, p->backlogs[1] = 100000, p->n_backlogs = 2, p->backlog_s = 0.5;
    } else {
        p->n_dists = 2;
        p->cell_s = 3;
        p->repeats = 3;
        p->pgbench_s = 3, p->pgbench_group_s = 2;
        p->scale = 1, p->scale_pre_s = 4, p->scale_post_s = 6;
        p->crash = 1, p->crash_kills = 4, p->crash_rows = 8000;
        p->backlogs[0] = 10000, p->backlogs[1] = 100000, p->backlogs[2] = 1000000;
        /* 1 s per repetition: at 10 k rows a point consumes most of its backlog in 2 s */
        p->n_backlogs = 3, p->backlog_s = 1;
    }
    memcpy(p->workers, w, nw * sizeof *w);
    p->n_workers = nw;
    memcpy(p->batches, b, nb * sizeof *b);
    p->n_batches = nb;
}

static void params_init(rbb_params *p) {
    memset(p, 0, sizeof *p);
    const char *ci = getenv("RINGBENCH_PG_CONNINFO");
    p->conninfo = ci ? ci : "";
    p->queue_db = "ringbench_bench";
    p->pgbench_db = "ringbench_pgbench";
    p->ring_algo = "binary";
    rb_queue_config qc;
    rb_queue_config_init(&qc);
    p->age_bound_ms = qc.age_bound_ms;
    p->n_keys = 10000;
    p->zipf_s = 1.0;
    p->seed = 1;
    p->sync_commit = 1;
    p->scale_batch = 8;
    p->crash_workers = 3;
    p->crash_batch = 8;
    p->crash_handler_us = 3000; /* 24 ms per batch of 8: a kill lands mid-handler */
    p->crash_lease_ms = 1500;
    p->crash_ttl_ms = 600;
    p->crash_heartbeat_ms = 150;
    p->backlog_workers = 2;
    p->backlog_batch = 8;
    p->backlog_hot_every = 10;    /* the hot key holds 10% of the backlog */
    p->soak_retention_ms = 10000; /* done rows kept 10 s: the inbox holds ~10 s of work */
    set_profile(p, "full");
}

/* A list value listed twice (items i < j): usage error, -1. Lists of numbers compare values. */
static int list_twice(const char *opt, const char *item, size_t i, size_t j) {
    return rb_cli_usage_error(CMD, "%s: '%s' is listed twice (items %zu and %zu)", opt, item, i + 1,
                              j + 1),
           -1;
}

/* Comma list of option `opt` of u32 in [min, max] into out (at most RBB_MAX_LIST): an empty
 * item, a bad or repeated value is a usage error naming the item. 0 or -1 (printed). */
static int parse_u32_list(const char *opt, const char *s, uint32_t min, uint32_t max, uint32_t *out,
                          size_t *n) {
    rb_cli_list l;
    if (rb_cli_list_split(CMD, opt, s, RBB_MAX_LIST, &l)) return -1;
    int rc = 0;
    for (size_t k = 0; k < l.n && !rc; k++) {
        char what[64];
        snprintf(what, sizeof what, "%s item %zu", opt, k + 1);
        rc = rb_cli_u32_arg(CMD, what, l.items[k], min, max, &out[k]);
        for (size_t j = 0; j < k && !rc; j++)
            if (out[j] == out[k]) rc = list_twice(opt, l.items[k], j, k);
    }
    *n = l.n;
    rb_cli_list_free(&l);
    return rc;
}

/* Comma list of row counts with an optional k (1e3) or M (1e6) suffix, each in
 * BACKLOG_MIN..BACKLOG_MAX (at most RBB_MAX_LIST), as parse_u32_list. 0 or -1 (printed). */
#define BACKLOG_MIN 1000u
#define BACKLOG_MAX 10000000u
static int parse_count_list(const char *opt, const char *s, uint64_t *out, size_t *n) {
    rb_cli_list l;
    if (rb_cli_list_split(CMD, opt, s, RBB_MAX_LIST, &l)) return -1;
    int rc = 0;
    for (size_t k = 0; k < l.n && !rc; k++) {
        char *t = l.items[k];
        size_t len = strlen(t);
        uint64_t mul = 1, v = 0;
        if (len > 1 && (t[len - 1] == 'k' || t[len - 1] == 'M')) {
            mul = t[len - 1] == 'k' ? 1000 : 1000000;
            t[len - 1] = '\0';
        }
        int wrc = rb_cli_whole(t, 0, BACKLOG_MAX / mul, &v);
        if (wrc == 0 && v * mul < BACKLOG_MIN) wrc = RB_CLI_OUT_OF_RANGE; /* 0k, 999 */
        if (mul > 1) t[len - 1] = mul == 1000 ? 'k' : 'M';
        if (wrc == RB_CLI_OUT_OF_RANGE)
            rc = rb_cli_usage_error(CMD, "%s item %zu: %s is out of range (%u..%u rows)", opt,
                                    k + 1, t, BACKLOG_MIN, BACKLOG_MAX);
        else if (wrc)
            rc = rb_cli_usage_error(CMD,
                                    "%s item %zu must be a row count from %u to %u (e.g. 10k, "
                                    "100000, 1M), got '%s'",
                                    opt, k + 1, BACKLOG_MIN, BACKLOG_MAX, t);
        else
            out[k] = v * mul;
        if (rc) rc = -1;
        for (size_t j = 0; j < k && !rc; j++)
            if (out[j] == out[k]) rc = list_twice(opt, t, j, k);
    }
    *n = l.n;
    rb_cli_list_free(&l);
    return rc;
}

/* Comma list of option `opt` of names[0 .. n_names) into out[0 .. *n): an empty item, an
 * unknown or repeated name is a usage error naming the item. 0 or -1 (printed). */
static int parse_names(const char *opt, const char *s, const char *const *names, size_t n_names,
                       int *out, size_t *n) {
    rb_cli_list l;
    if (rb_cli_list_split(CMD, opt, s, n_names, &l)) return -1;
    int rc = rb_cli_list_unique(CMD, opt, &l);
    for (size_t k = 0; k < l.n && !rc; k++) {
        size_t i;
        for (i = 0; i < n_names && strcmp(l.items[k], names[i]) != 0; i++) {
        }
        if (i < n_names) {
            out[k] = (int)i;
            continue;
        }
        char known[128] = "";
        for (size_t j = 0, used = 0; j < n_names && used < sizeof known; j++) {
            int w = snprintf(known + used, sizeof known - used, "%s%s", j ? ", " : "", names[j]);
            if (w > 0) used += (size_t)w;
        }
        rb_cli_usage_error(CMD, "%s item %zu: unknown '%s' (known: %s)", opt, k + 1, l.items[k],
                           known);
        rc = -1;
    }
    *n = l.n;
    rb_cli_list_free(&l);
    return rc;
}

static const char *const dist_names[] = {"uniform", "zipf"};
/* The field an option taking a plain string sets, or NULL. */
static const char **string_option(const char *a, rbb_params *p) {
    const struct {
        const char *name;
        const char **dst;
    } opts[] = {{"--db", &p->conninfo},          {"--conninfo", &p->conninfo},
                {"--queue-db", &p->queue_db},    {"--pgbench-db", &p->pgbench_db},
                {"--pgbench", &p->pgbench_path}, {"--out", &p->out_dir}};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (strcmp(a, opts[i].name) == 0) return opts[i].dst;
    return NULL;
}

/* Numeric options: the field of rbb_params each sets and the range it takes; the message of
 * a bad value is built from the same min and max (rb_cli_u64_arg, rb_cli_double_arg). */
typedef struct {
    const char *name;
    char kind;       /* 'u' uint64_t, 'w' uint32_t, 'd' double */
    size_t offset;   /* of the field in rbb_params */
    double min, max; /* accepted values */
} numeric_opt;

static const numeric_opt numeric_opts[] = {
    {"--rows", 'u', offsetof(rbb_params, n_rows), 1, 1e8},
    {"--keys", 'w', offsetof(rbb_params, n_keys), 1, 1e8},
    {"--zipf-s", 'd', offsetof(rbb_params, zipf_s), 0, 10},
    {"--seed", 'u', offsetof(rbb_params, seed), 0, 18446744073709551615.0},
    {"--secs", 'd', offsetof(rbb_params, cell_s), 0.1, 3600},
    {"--repeats", 'w', offsetof(rbb_params, repeats), 1, RBB_MAX_REPEATS},
    {"--pgbench-secs", 'd', offsetof(rbb_params, pgbench_s), 1, 3600},
    {"--pgbench-group-secs", 'd', offsetof(rbb_params, pgbench_group_s), 1, 3600},
    {"--soak", 'd', offsetof(rbb_params, soak_s), 10, 86400},
    {"--soak-retention-ms", 'u', offsetof(rbb_params, soak_retention_ms), RB_QUEUE_RETENTION_MIN_MS,
     (double)RB_QUEUE_RETENTION_MAX_MS},
    {"--backlog-secs", 'd', offsetof(rbb_params, backlog_s), 0.1, 3600},
    {"--kills", 'w', offsetof(rbb_params, crash_kills), 1, RBB_MAX_KILLS},
    {"--age-bound-ms", 'w', offsetof(rbb_params, age_bound_ms), 0, RB_QUEUE_AGE_BOUND_MAX_MS},
};

static const numeric_opt *numeric_option(const char *a) {
    for (size_t i = 0; i < sizeof numeric_opts / sizeof numeric_opts[0]; i++)
        if (strcmp(a, numeric_opts[i].name) == 0) return &numeric_opts[i];
    return NULL;
}

/* Parse v into o's field of p: 0, or -1 after printing why v is not a number in o's range. */
static int set_numeric(const numeric_opt *o, rbb_params *p, const char *v) {
    char *field = (char *)p + o->offset;
    if (o->kind == 'd') {
        double x;
        if (rb_cli_double_arg(CMD, o->name, v, o->min, o->max, &x)) return -1;
        memcpy(field, &x, sizeof x);
        return 0;
    }
    uint64_t x, max = o->max >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)o->max;
    if (rb_cli_u64_arg(CMD, o->name, v, (uint64_t)o->min, max, &x)) return -1;
    if (o->kind == 'w') {
        uint32_t w = (uint32_t)x;
        memcpy(field, &w, sizeof w);
    } else {
        memcpy(field, &x, sizeof x);
    }
    return 0;
}

/* The option a is spelled as for the at-most-once rule: --conninfo is --db. */
static const char *option_identity(const char *a) {
    return strcmp(a, "--conninfo") == 0 ? "--db" : a;
}

/* Is (W n_workers, batch 1, chain) a cell of the matrix already (--complete chain with batch
 * 1 at that W)? The chain group then does not measure it again. */
static int chain_cell_in_matrix(const rbb_params *p, uint32_t n_workers) {
    int w_in = 0, b1_in = 0;
    for (size_t i = 0; i < p->n_workers; i++)
        w_in |= p->workers[i] == n_workers;
    for (size_t i = 0; i < p->n_batches; i++)
        b1_in |= p->batches[i] == 1;
    return p->chain && w_in && b1_in;
}

static int reads_pgbench(const rbb_params *p);

/* After parsing: a conninfo libpq cannot parse (not shown: it may hold a password) and a run
 * that would measure nothing are usage errors. */
static int check_args(const rbb_params *p) {
    char bad[320];
    if (rb_conninfo_check(p->conninfo, bad, sizeof bad)) return rb_cli_usage_error(CMD, "%s", bad);
    if (reads_pgbench(p) && strcmp(p->queue_db, p->pgbench_db) == 0)
        return rb_cli_usage_error(CMD,
                                  "--queue-db and --pgbench-db name the same database "
                                  "('%s'): pgbench -i would run in the queue's",
                                  p->queue_db);
    /* a pgbench that cannot start would fail the run after its matrix (20 min in --full) */
    const char *pgbench = rbb_pgbench_find(p->pgbench_path);
    if (reads_pgbench(p) && !rbb_pgbench_runnable(pgbench)) {
        if (p->pgbench_path)
            return rb_cli_usage_error(CMD, "--pgbench: '%s' is not an executable file", pgbench);
        const char *env = getenv("RINGBENCH_PGBENCH");
        if (env && *env)
            return rb_cli_usage_error(CMD, "RINGBENCH_PGBENCH: '%s' is not an executable file",
                                      env);
        return rb_cli_fail(CMD,
                           "cannot find pgbench ('%s': set RINGBENCH_PGBENCH or --pgbench, "
                           "or install PostgreSQL's client programs)",
                           pgbench);
    }
    if (!p->n_batches && !p->n_chain_workers && !p->scale && !p->crash && !p->n_backlogs &&
        p->soak_s <= 0)
        return rb_cli_usage_error(CMD, "nothing to measure: --batch none, --chain-workers none, "
                                       "--no-scale, --no-crash, --backlog none and no --soak");
    return RB_EXIT_OK;
}

/* Does a worker that owns buckets run: an affinity (or, with ordered, an ordered) cell of the
 * matrix or chain group or point of the backlog sweep, or the scale event, the crash run or the
 * soak (affinity workers)? */
static int owner_workers_run(const rbb_params *p, int ordered) {
    int owner = 0;
    for (size_t k = 0; k < p->n_modes; k++)
        owner |= p->modes[k] == RBB_MODE_AFFINITY || (ordered && p->modes[k] == RBB_MODE_ORDERED);
    return (owner && (p->n_batches || p->n_chain_workers || p->n_backlogs)) || p->scale ||
           p->crash || p->soak_s > 0;
}
/* --age-bound-ms: affinity workers */
static int reads_age_bound(const rbb_params *p) { return owner_workers_run(p, 0); }
/* --algo: every worker that owns buckets (affinity and ordered) */
static int reads_ring(const rbb_params *p) { return owner_workers_run(p, 1); }
static int reads_crash(const rbb_params *p) { return p->crash; }
static int reads_soak(const rbb_params *p) { return p->soak_s > 0; }
static int reads_backlog(const rbb_params *p) { return p->n_backlogs > 0; }
/* --complete: the matrix's cells; batch or each also the backlog sweep's, chain also the crash
 * run (its workers `pg worker --chain`) */
static int reads_complete(const rbb_params *p) {
    return p->n_batches || (!p->chain && p->n_backlogs) || (p->chain && p->crash);
}
/* the matrix's and the chain group's cells: the only ones drawn from --dist */
static int reads_cells(const rbb_params *p) { return p->n_batches || p->n_chain_workers; }
/* --rows: the cells' backlog, and the scale event's (rbb_rows_for) */
static int reads_rows(const rbb_params *p) { return reads_cells(p) || p->scale; }
/* pgbench runs around the matrix and around the soak */
static int reads_pgbench(const rbb_params *p) { return reads_cells(p) || reads_soak(p); }
/* the cells and the backlog sweep: the parts measured in repetitions across --modes */
static int reads_modes(const rbb_params *p) { return reads_cells(p) || p->n_backlogs; }
static int reads_zipf(const rbb_params *p) {
    int zipf = 0;
    for (size_t k = 0; k < p->n_dists; k++)
        zipf |= p->dists[k] == RBB_DIST_ZIPF;
    return zipf && reads_cells(p);
}

/* Options that only some parts of a run read, and what reads them: given to a run without such
 * a part, one is refused (its figures would be taken for the option's effect); the parameters
 * (pgbench.json) they set are listed in `not_read` when nothing read them. */
static const struct {
    const char *name;
    int (*read)(const rbb_params *);
    const char *readers;
    const char *param; /* its key in pgbench.json's parameters */
} narrow_opts[] = {
    {"--age-bound-ms", reads_age_bound,
     "no affinity worker in this run reads it (it runs no affinity cell, scale event, crash run "
     "or soak)",
     "age_bound_ms"},
    {"--kills", reads_crash, "this run has no crash run (--no-crash)", "crash_kills"},
    {"--soak-retention-ms", reads_soak, "this run has no soak (--soak S)", "soak_retention_ms"},
    {"--backlog-secs", reads_backlog, "this run has no backlog sweep (--backlog none)",
     "backlog_s"},
    {"--complete", reads_complete,
     "this run has no matrix cell (--batch none), no backlog sweep (batch, each) and no crash "
     "run (chain)",
     "completion"},
    {"--algo", reads_ring,
     "no worker of this run owns buckets (no affinity or ordered cell, scale event, crash run "
     "or soak)",
     "ring_algo"},
    {"--heap-order", reads_cells, "this run has no matrix or chain-group cell", "heap_order"},
    {"--workers", reads_cells,
     "this run has no matrix or chain-group cell (the backlog sweep runs 2 workers, the soak "
     "4)",
     "workers"},
    {"--secs", reads_cells, "this run has no matrix or chain-group cell", "cell_s"},
    {"--pgbench-secs", reads_pgbench,
     "this run has no matrix or chain-group cell and no soak, so no pgbench reference",
     "pgbench_s"},
    {"--pgbench", reads_pgbench,
     "this run has no matrix or chain-group cell and no soak, so no pgbench reference", NULL},
    {"--pgbench-db", reads_pgbench,
     "this run has no matrix or chain-group cell and no soak, so no pgbench reference",
     "pgbench_db"},
    {"--rows", reads_rows, "this run has no matrix or chain-group cell and no scale event",
     "rows_per_cell"},
    {"--dist", reads_cells, "this run has no matrix or chain-group cell", "dists"},
    {"--pgbench-group-secs", reads_cells, "this run has no matrix or chain-group cell",
     "pgbench_group_s"},
    {"--repeats", reads_modes, "this run has no cell and no backlog sweep", "repeats"},
    {"--modes", reads_modes, "this run has no cell and no backlog sweep", "modes"},
    {"--zipf-s", reads_zipf, "no cell of this run draws Zipf keys (--dist zipf with cells)",
     "zipf_s"},
};

/* p->not_read: the parameters of narrow_opts that no part of run p reads (their values are
 * the profile's or the defaults, recorded all the same). */
static void set_not_read(rbb_params *p) {
    p->n_not_read = 0;
    for (size_t k = 0; k < sizeof narrow_opts / sizeof narrow_opts[0]; k++)
        if (narrow_opts[k].param && !narrow_opts[k].read(p) && p->n_not_read < RBB_MAX_NOT_READ)
            p->not_read[p->n_not_read++] = narrow_opts[k].param;
}

/* The first argument read as an option (opt_at) that nothing in run p reads: a usage error
 * naming it, else RB_EXIT_OK. */
static int check_narrow_options(int argc, char **argv, const int *opt_at, const rbb_params *p) {
    for (int i = 1; i < argc; i++)
        for (size_t k = 0; opt_at[i] && k < sizeof narrow_opts / sizeof narrow_opts[0]; k++)
            if (strcmp(argv[i], narrow_opts[k].name) == 0 && !narrow_opts[k].read(p))
                return rb_cli_usage_error(CMD, "%s: %s", argv[i], narrow_opts[k].readers);
    return RB_EXIT_OK;
}

/* One pass over argv's options into p: RB_EXIT_OK, or a usage error code (-1: --help shown).
 * *profile: the profile option given (--smoke, --quick, --full), NULL for none. opt_at[argc]
 * (zeroed) marks the arguments read as options: an option's value is never read as an option
 * (`--out --smoke` writes to the folder --smoke), and an option is refused as given twice only when
 * it was (`--out --smoke --smoke` is one). */
static int parse_options(int argc, char **argv, rbb_params *p, rb_format *fmt, const char **profile,
                         int *opt_at) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const numeric_opt *num;
        if (strcmp(a, "--") == 0) { /* the end of the options; pg bench takes no arguments */
            if (i + 1 < argc)
                return rb_cli_usage_error(CMD, "unexpected argument '%s' (pg bench takes none)",
                                          argv[i + 1]);
            break;
        }
        if (a[0] != '-')
            return rb_cli_usage_error(CMD, "unexpected argument '%s' (pg bench takes none)", a);
        opt_at[i] = 1;
        for (int j = 1; j < i; j++)
            if (opt_at[j] && strcmp(option_identity(argv[j]), option_identity(a)) == 0)
                return rb_cli_usage_error(CMD, "%s is given twice (give each option once%s)", a,
                                          strcmp(argv[j], a) ? "; --db and --conninfo are one"
                                                             : "");
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED_VALUE()                                                                               \
    do {                                                                                           \
        if (!v) return rb_cli_usage_error(CMD, "%s needs a value", a);                             \
        i++;                                                                                       \
    } while (0)
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_text, stdout);
            return -1;
        } else if (!strcmp(a, "--smoke") || !strcmp(a, "--quick") || !strcmp(a, "--full")) {
            if (*profile && strcmp(*profile, a))
                return rb_cli_usage_error(
                    CMD, "give one of --smoke, --quick, --full, not %s and %s", *profile, a);
            *profile = a;
        } else if (string_option(a, p)) {
            NEED_VALUE();
            if (rb_cli_nonempty(CMD, a, v)) return RB_EXIT_USAGE; /* --pgbench '' ran pgbench */
            *string_option(a, p) = v;
        } else if (strcmp(a, "--algo") == 0) {
            NEED_VALUE();
            if (!rb_algo_by_name(v)) return rb_cli_usage_error(CMD, "unknown --algo '%s'", v);
            p->ring_algo = v;
        } else if (strcmp(a, "--workers") == 0) {
            NEED_VALUE();
            if (parse_u32_list(a, v, 1, 64, p->workers, &p->n_workers)) return RB_EXIT_USAGE;
        } else if (strcmp(a, "--batch") == 0) {
            NEED_VALUE();
            if (strcmp(v, "none") == 0)
                p->n_batches = 0; /* no matrix: the chain group and the events only */
            else if (parse_u32_list(a, v, 1, 1000, p->batches, &p->n_batches))
                return RB_EXIT_USAGE;
        } else if (strcmp(a, "--modes") == 0) {
            NEED_VALUE();
            int m[RBB_N_MODES];
            const char *mode_names[RBB_N_MODES];
            for (int k = 0; k < RBB_N_MODES; k++)
                mode_names[k] = rbb_mode_name((rbb_mode)k);
            if (parse_names(a, v, mode_names, RBB_N_MODES, m, &p->n_modes)) return RB_EXIT_USAGE;
            for (size_t k = 0; k < p->n_modes; k++)
                p->modes[k] = (rbb_mode)m[k];
        } else if (strcmp(a, "--dist") == 0) {
            NEED_VALUE();
            int d[2];
            if (parse_names(a, v, dist_names, 2, d, &p->n_dists)) return RB_EXIT_USAGE;
            for (size_t k = 0; k < p->n_dists; k++)
                p->dists[k] = (rbb_dist)d[k];
        } else if ((num = numeric_option(a))) {
            NEED_VALUE();
            if (set_numeric(num, p, v)) return RB_EXIT_USAGE;
        } else if (strcmp(a, "--sync-commit") == 0) {
            NEED_VALUE();
            if (strcmp(v, "on") && strcmp(v, "off"))
                return rb_cli_usage_error(CMD, "--sync-commit wants on or off, got '%s'", v);
            p->sync_commit = strcmp(v, "on") == 0;
        } else if (strcmp(a, "--heap-order") == 0) {
            NEED_VALUE();
            if (rbb_heap_order_parse(v, &p->heap_order))
                return rb_cli_usage_error(CMD, "--heap-order wants loaded, id or bucket, got '%s'",
                                          v);
        } else if (strcmp(a, "--complete") == 0) {
            NEED_VALUE();
            if (strcmp(v, "batch") && strcmp(v, "each") && strcmp(v, "chain"))
                return rb_cli_usage_error(CMD, "--complete wants batch, each or chain, got '%s'",
                                          v);
            p->complete_each = strcmp(v, "each") == 0;
            p->chain = strcmp(v, "chain") == 0;
        } else if (strcmp(a, "--backlog") == 0) {
            NEED_VALUE();
            if (strcmp(v, "none") == 0)
                p->n_backlogs = 0;
            else if (parse_count_list(a, v, p->backlogs, &p->n_backlogs))
                return RB_EXIT_USAGE;
        } else if (strcmp(a, "--chain-workers") == 0) {
            NEED_VALUE();
            if (strcmp(v, "none") == 0)
                p->n_chain_workers = 0;
            else if (parse_u32_list(a, v, 1, 64, p->chain_workers, &p->n_chain_workers))
                return RB_EXIT_USAGE;
        } else if (strcmp(a, "--no-scale") == 0) {
            p->scale = 0;
        } else if (strcmp(a, "--no-crash") == 0) {
            p->crash = 0;
        } else if (strcmp(a, "--format") == 0) {
            NEED_VALUE();
            if (rb_cli_parse_format(v, 1, fmt) || (*fmt != RB_FMT_MD && *fmt != RB_FMT_JSON))
                return rb_cli_usage_error(CMD, "--format wants md or json, got '%s'", v);
        } else {
            return rb_cli_usage_error(CMD, "unknown option '%s' (--help lists them)", a);
        }
#undef NEED_VALUE
    }
    return RB_EXIT_OK;
}

/* Parse argv into p; RB_EXIT_OK, or a usage error code (-1: --help shown). Two passes: the
 * first finds the profile (and any error), which is applied before the second, so the options
 * given override it wherever they stand. */
static int parse_args(int argc, char **argv, rbb_params *p, rb_format *fmt) {
    const char *profile = NULL;
    rbb_params scratch;
    params_init(&scratch);
    rb_format scratch_fmt = *fmt;
    int *opt_at = calloc((size_t)argc, sizeof *opt_at);
    if (!opt_at) return rb_cli_usage_error(CMD, "out of memory");
    int rc = parse_options(argc, argv, &scratch, &scratch_fmt, &profile, opt_at);
    if (!rc && profile) set_profile(p, profile + 2);
    if (!rc) {
        memset(opt_at, 0, (size_t)argc * sizeof *opt_at);
        rc = parse_options(argc, argv, p, fmt, &profile, opt_at);
    }
    if (!rc) rc = check_narrow_options(argc, argv, opt_at, p);
    free(opt_at);
    if (rc) return rc;
    rbb_params base; /* the profile alone */
    params_init(&base);
    set_profile(&base, p->profile);
    p->profile_overridden = rbb_params_differ(p, &base);
    set_not_read(p);
    return check_args(p);
}

/* Run one matrix cell on a fresh backlog. 0, or -1 with err (the cell is marked failed). */
static int run_cell(const rbb_params *p, const char *conninfo, PGconn *c, rbb_cell *cell,
                    uint64_t seed, char *err, size_t err_size) {
    cell->n_rows_enqueued = rbb_rows_for(p, cell->batch, cell->n_workers, p->cell_s);
    int rc = rbb_queue_fresh(c, cell->n_rows_enqueued, cell->dist, p->n_keys, p->zipf_s, seed,
                             "bench", err, err_size);
    if (!rc) rc = rbb_queue_rewrite(c, p->heap_order, err, err_size);
    if (rc) return cell->failed = 1, -1;
    cell->bucket_correlation = rbb_queue_bucket_correlation(c);
    return rbb_cell_measure(p, conninfo, c, cell, p->cell_s, 0, err, err_size);
}

/* Before a part of the run (a cell, an event): the driver's connection opened again when a
 * fault before lost it (its backend terminated, a restart), saying so; when it stays lost,
 * why, and the part then fails naming the loss (rbb_db_lost). */
static void driver_again(PGconn *c) {
    char err[1024];
    if (rbb_queue_reconnect(c, err, sizeof err)) fprintf(stderr, "pg bench: %s\n", err);
}

/* The crash injection (chain: with chain workers) into *out, progress on stderr; 1 when it
 * failed or found duplicates or lost rows, else 0. */
static int crash_run(const rbb_params *p, const char *conninfo, PGconn *c, int chain,
                     rbb_crash *out) {
    char err[1024];
    driver_again(c);
    fprintf(stderr, "pg bench: crash injection%s: %u workers, %u SIGKILLs + 1 stall\n",
            chain ? " (chain workers)" : "", p->crash_workers, p->crash_kills);
    if (rbb_run_crash(p, conninfo, c, chain, out, err, sizeof err)) {
        fprintf(stderr, "pg bench: crash injection failed: %s\n", err);
        return 1;
    }
    fprintf(stderr, "pg bench:   drained in %.1f s, dup %llu, lost %llu, fenced %llu\n",
            out->drain_s, (unsigned long long)out->after.n_duplicates,
            (unsigned long long)out->n_lost, (unsigned long long)out->n_fenced);
    return out->after.n_duplicates || out->n_lost ? 1 : 0;
}

static int write_outputs(const rbb_run *run, const char *dir) {
    char path[1200];
    FILE *f;
    snprintf(path, sizeof path, "%s/pgbench.json", dir);
    if (!(f = fopen(path, "w"))) return -1;
    if (rb_json_emit(rbb_report_json(run), f, RB_JSON_TOP_LINES)) {
        int e = errno;
        fclose(f);
        errno = e;
        return -1;
    }
    if (fclose(f)) return -1;
    char json_path[1200];
    snprintf(json_path, sizeof json_path, "%s", path);
    snprintf(path, sizeof path, "%s/pgbench.md", dir);
    if (!(f = fopen(path, "w"))) return -1;
    rbb_report_md(f, run, json_path);
    if (fclose(f)) return -1;
    if (run->explain) {
        snprintf(path, sizeof path, "%s/explain.txt", dir);
        if (!(f = fopen(path, "w"))) return -1;
        fputs(run->explain, f);
        if (fclose(f)) return -1;
    }
    if (run->n_scale) {
        snprintf(path, sizeof path, "%s/scale-timeline.csv", dir);
        if (!(f = fopen(path, "w"))) return -1;
        rbb_report_timeline_csv(f, run);
        if (fclose(f)) return -1;
    }
    return 0;
}

static void free_run(rbb_run *run) {
    free(run->machine_json);
    free(run->explain);
    free(run->cells);
    free(run->backlog);
    for (size_t i = 0; i < run->n_scale; i++)
        free(run->scale[i].rows_per_s);
}

/* A scratch database of the bench: created when missing (admin), connected to and claimed
 * (rbb_db_claim: marked as the bench's, or holding nothing of another's). Its connection, or
 * NULL with err. */
static PGconn *scratch_db(PGconn *admin, const char *server, const char *dbname, const char *mark,
                          const char *own_like, const char *opt, char *err, size_t err_size) {
    if (rbb_db_ensure_database(admin, dbname, err, err_size)) return NULL;
    PGconn *c = rbb_db_connect(server, dbname, err, err_size);
    if (c && rbb_db_claim(c, mark, own_like, opt, err, err_size)) PQfinish(c), c = NULL;
    return c;
}

/* Open the bench database and its conninfo string; claim the pgbench reference's database
 * too when a part runs pgbench (pgbench -i recreates its tables there: it took any database,
 * fresh user helper-72). */
static PGconn *open_bench_db(const rbb_params *p, char *conninfo, size_t size, char *err,
                             size_t err_size) {
    PGconn *admin = rbb_db_connect(p->conninfo, NULL, err, err_size);
    if (!admin) return NULL;
    PGconn *c =
        scratch_db(admin, p->conninfo, p->queue_db, RBB_DB_MARK, NULL, "--queue-db", err, err_size);
    if (c && reads_pgbench(p)) {
        PGconn *pb = scratch_db(admin, p->conninfo, p->pgbench_db, RBB_PGBENCH_DB_MARK,
                                "pgbench\\_%", "--pgbench-db", err, err_size);
        if (!pb) PQfinish(c), c = NULL;
        PQfinish(pb);
    }
    PQfinish(admin);
    if (c && rbb_db_conninfo_string(c, conninfo, size)) {
        snprintf(err, err_size, "conninfo too long");
        PQfinish(c), c = NULL;
    }
    return c;
}

/* The server settings the figures depend on, as one line into out ("?" when unreadable). */
static void server_settings(PGconn *c, char *out, size_t size) {
    rbb_db_settings(c,
                    "shared_buffers,fsync,synchronous_commit,wal_sync_method,full_page_writes,wal_"
                    "compression,max_wal_size,checkpoint_timeout,autovacuum_naptime,autovacuum_"
                    "vacuum_cost_delay,max_connections,jit,track_wal_io_timing",
                    0, out, size);
}

/* Where pgbench connects: the bench server (as connection c sees it), the
 * pgbench database. */
static rbb_pg_target pgbench_target(const rbb_params *p, PGconn *c) {
    return (rbb_pg_target){.host = PQhost(c),
                           .port = PQport(c),
                           .user = PQuser(c),
                           .password = PQpass(c),
                           .dbname = p->pgbench_db,
                           .pgoptions = getenv("PGOPTIONS")};
}

/* Name the part of the run now in flight (printf-style) for the stop report; once a stop signal
 * has come the part it hit stays named (the parts after it only return). */
static void run_part(rbb_run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void run_part(rbb_run *run, const char *fmt, ...) {
    if (rbb_stop_signal) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(run->part, sizeof run->part, fmt, ap);
    va_end(ap);
}

/* One pgbench simple-update run, -c W -j W for secs, into *res; 0 or -1
 * (run->pgbench_ok cleared, the error kept). */
static int pgbench_once(rbb_run *run, PGconn *c, uint32_t n_workers, double secs,
                        rbb_pgbench_result *res) {
    const rbb_params *p = &run->p;
    rbb_pg_target t = pgbench_target(p, c);
    const char *pgbench = rbb_pgbench_find(p->pgbench_path);
    if (rbb_stop_signal) return -1;
    run_part(run, "the pgbench reference at %u clients", n_workers);
    if (rbb_pgbench_run(&t, pgbench, n_workers, secs, res, run->pgbench_error,
                        sizeof run->pgbench_error)) {
        if (rbb_stop_signal) return -1; /* cut short by the stop: not pgbench's failure */
        fprintf(stderr, "pg bench: %s\n", run->pgbench_error);
        run->pgbench_ok = 0;
        return -1;
    }
    return 0;
}

/* pgbench -i into p->pgbench_db; run->pgbench_ok set when it worked, else the error kept
 * (printed unless a stop signal cut it short). */
static void pgbench_init(rbb_run *run, PGconn *c) {
    const rbb_params *p = &run->p;
    rbb_pg_target t = pgbench_target(p, c);
    run_part(run, "pgbench -i");
    fprintf(stderr, "pg bench: pgbench -i on database %s\n", p->pgbench_db);
    if (rbb_pgbench_init(&t, rbb_pgbench_find(p->pgbench_path), run->pgbench_error,
                         sizeof run->pgbench_error)) {
        if (rbb_stop_signal) /* cut short by the stop: not pgbench's failure */
            rbb_stop_reason(run->pgbench_error, sizeof run->pgbench_error);
        else
            fprintf(stderr, "pg bench: %s\n", run->pgbench_error);
        return;
    }
    run->pgbench_ok = 1;
}

/* pgbench simple-update at every W into res[] (round 0: before the matrix,
 * after `pgbench -i`; 1: after it); -c W -j W for p->pgbench_s each. */
static void run_pgbench_refs(rbb_run *run, PGconn *c, int round) {
    const rbb_params *p = &run->p;
    if (rbb_stop_signal) return;
    if (round == 0) pgbench_init(run, c);
    if (!run->pgbench_ok) return;
    rbb_pgbench_result *res = round == 0 ? run->pgbench : run->pgbench_after;
    for (size_t i = 0; i < p->n_workers; i++) {
        fprintf(stderr, "pg bench: pgbench simple-update -c %u for %.0f s\n", p->workers[i],
                p->pgbench_s);
        if (pgbench_once(run, c, p->workers[i], p->pgbench_s, &res[i])) return;
        fprintf(stderr, "pg bench:   %.0f tps\n", res[i].tps);
    }
    run->pgbench_rounds = round + 1;
}

/* pgbench simple-update at the soak's clients for --pgbench-secs into *res (tps 0 when
 * not run), after pgbench -i when the run has not done it (a soak-only run measures no cell,
 * so nothing else initialised pgbench). after: 0 before the soak, 1 after it; why the server
 * could not be settled first goes to err (err_size bytes, "" when it was) and stderr. */
static void soak_reference(rbb_run *run, PGconn *c, rbb_pgbench_result *res, int after, char *err,
                           size_t err_size) {
    memset(res, 0, sizeof *res);
    err[0] = '\0';
    if (rbb_stop_signal) return;
    if (!run->pgbench_ok && run->pgbench_skipped && !run->pgbench_error[0]) pgbench_init(run, c);
    if (!run->pgbench_ok) return;
    run_part(run, "the soak's pgbench reference");
    /* the server at rest on both sides: right after the soak its queue tables hold 100-400 k
     * dead versions that autovacuum is cleaning and a checkpoint is writing them out, and a
     * pgbench then measured the soak's aftermath (2,891 tps against 3,801 before, 2026-12-04);
     * not fatal (CHECKPOINT needs superuser or pg_checkpoint) */
    if (rbb_db_exec(c, err, err_size, "VACUUM inbox, inbox_done, inbox_leases, effects") ||
        rbb_db_exec(c, err, err_size, "CHECKPOINT"))
        fprintf(stderr,
                "pg bench: the server was not settled for the soak's pgbench reference %s it: "
                "%s\n",
                after ? "after" : "before", err);
    fprintf(stderr, "pg bench: pgbench simple-update -c %u for %.0f s (the soak's reference)\n",
            RBB_SOAK_WORKERS, run->p.pgbench_s);
    if (pgbench_once(run, c, RBB_SOAK_WORKERS, run->p.pgbench_s, res)) memset(res, 0, sizeof *res);
}

/* One group of modes: its distribution (index d of p->dists), W, batch and completion. */
typedef struct group_key {
    size_t d;
    uint32_t n_workers, batch;
    int chain;
} group_key;

/* Measure one group (g: a matrix group, or one of the chain group): every mode p->repeats
 * times in interleaved order (each round runs the modes in an order rotated by one, so no
 * mode always runs first or last after a fill), between two adjacent pgbench runs at the
 * same W. Writes group[0 .. n_modes) (the median repetition of each mode, see
 * rbb_cell_aggregate). Returns the reference's drift |after - before| / mean (0 without
 * pgbench); *n_bad counts failed cells and cells with duplicates or lost rows. */
static double measure_group(rbb_run *run, PGconn *c, const char *conninfo, group_key g,
                            rbb_cell *group, uint64_t t0, int *n_bad) {
    const rbb_params *p = &run->p;
    size_t n_modes = p->n_modes, n_rep = p->repeats;
    rbb_cell reps[RBB_N_MODES][RBB_MAX_REPEATS];
    memset(reps, 0, sizeof reps);
    /* the reference adjacent to this group: pgbench at the same W right before
     * and right after it (the disk and CPU of a shared machine drift within
     * minutes) */
    rbb_pgbench_result ref_before = {0}, ref_after = {0};
    if (run->pgbench_ok) pgbench_once(run, c, g.n_workers, p->pgbench_group_s, &ref_before);
    char err[1024];
    for (size_t r = 0; r < n_rep; r++)
        for (size_t k = 0; k < n_modes; k++) {
            size_t m = (k + r) % n_modes;
            rbb_cell *cell = &reps[m][r];
            cell->dist = p->dists[g.d];
            cell->n_workers = g.n_workers;
            cell->batch = g.batch;
            cell->chain = g.chain;
            cell->mode = p->modes[m];
            if (rbb_stop_signal) { /* not measured: no figure */
                cell->failed = cell->not_run = 1;
                continue;
            }
            driver_again(c); /* before the progress line: it may say something */
            snprintf(run->part, sizeof run->part,
                     "the matrix: %s W=%u batch=%u%s %s, repetition %zu/%zu",
                     rbb_mode_name(cell->mode), cell->n_workers, cell->batch,
                     cell->chain ? " chain" : "", dist_names[cell->dist], r + 1, n_rep);
            fprintf(stderr, "pg bench: %s ... ", run->part + strlen("the matrix: "));
            if (run_cell(p, conninfo, c, cell, p->seed + g.d, err, sizeof err)) {
                fprintf(stderr, "FAILED: %s\n", err);
                continue;
            }
            char p50[32] = "-"; /* NaN: a chain cell, no claim time of its own */
            if (!isnan(cell->claim_p50_us)) snprintf(p50, sizeof p50, "%.0f", cell->claim_p50_us);
            fprintf(stderr, "%.0f rows/s, claim p50 %s us, dup %llu, lost %llu (%.0f s)\n",
                    cell->rows_per_s, p50,
                    (unsigned long long)(cell->after.n_duplicates + cell->n_dup_executions),
                    (unsigned long long)cell->n_lost, (double)(rb_now_ns() - t0) / 1e9);
        }
    if (run->pgbench_ok && !rbb_stop_signal)
        pgbench_once(run, c, g.n_workers, p->pgbench_group_s, &ref_after);
    double drift = rbb_pgbench_drift(ref_before.tps, ref_after.tps);
    for (size_t m = 0; m < n_modes; m++) {
        rbb_cell *cell = &group[m];
        rbb_cell_aggregate(cell, reps[m], n_rep);
        cell->pgbench_adjacent_before_tps = ref_before.tps;
        cell->pgbench_adjacent_after_tps = ref_after.tps;
        cell->pgbench_drift = drift;
        cell->drift_flagged = drift > RBB_DRIFT_MAX;
        if (cell->failed || cell->after.n_duplicates || cell->n_dup_executions || cell->n_lost)
            (*n_bad)++;
        if (cell->not_run)
            fprintf(stderr, "pg bench:   %s: not run (the stop came first)\n",
                    rbb_mode_name(cell->mode));
        else if (isnan(cell->rows_per_s))
            fprintf(stderr, "pg bench:   %s: every repetition failed\n", rbb_mode_name(cell->mode));
        else
            fprintf(stderr, "pg bench:   %s: median %.0f rows/s (%.0f..%.0f)\n",
                    rbb_mode_name(cell->mode), cell->rows_per_s, cell->rows_per_s_min,
                    cell->rows_per_s_max);
    }
    if (run->pgbench_ok && !rbb_stop_signal)
        fprintf(stderr, "pg bench:   adjacent pgbench -c %u: %.0f / %.0f tps (drift %.0f%%)\n",
                g.n_workers, ref_before.tps, ref_after.tps, 100 * drift);
    return drift;
}

/* measure_group, and once more when the reference drifted past RBB_DRIFT_MAX (flagged). */
static void measure_group_checked(rbb_run *run, PGconn *c, const char *conninfo, group_key g,
                                  rbb_cell *group, uint64_t t0, int *n_bad) {
    double drift = measure_group(run, c, conninfo, g, group, t0, n_bad);
    if (drift <= RBB_DRIFT_MAX || rbb_stop_signal) return;
    /* the reference moved: flag the group and measure it once more */
    fprintf(stderr, "pg bench:   pgbench drifted %.0f%% (> %.0f%%): measured again\n", 100 * drift,
            100 * RBB_DRIFT_MAX);
    int failed[RBB_N_MODES]; /* a failure of the first measurement stays in the outputs */
    for (size_t m = 0; m < run->p.n_modes; m++)
        failed[m] = group[m].failed;
    double again = measure_group(run, c, conninfo, g, group, t0, n_bad);
    for (size_t m = 0; m < run->p.n_modes; m++) {
        group[m].failed |= failed[m];
        group[m].remeasured = 1;
        group[m].first_drift = drift;
        group[m].drift_flagged = again > RBB_DRIFT_MAX;
    }
}

int rb_pg_cmd_bench(int argc, char **argv) {
    rbb_run run;
    memset(&run, 0, sizeof run);
    rbb_params *p = &run.p;
    params_init(p);
    rb_format fmt = RB_FMT_MD;
    int rc = parse_args(argc, argv, p, &fmt);
    if (rc < 0) return RB_EXIT_OK;
    if (rc) return rc;

    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(run.date, sizeof run.date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    char out_default[64], out_base[48], entry[256];
    if (!p->out_dir) { /* the day's folder, or the first of -2, -3, ... not holding a run */
        strftime(out_base, sizeof out_base, "results/pgbench-%Y-%m-%d", &tm);
        snprintf(out_default, sizeof out_default, "%s", out_base);
        for (int k = 2; rb_cli_folder_entry(out_default, entry, sizeof entry) && k < 1000; k++)
            snprintf(out_default, sizeof out_default, "%s-%d", out_base, k);
        p->out_dir = out_default;
    }
    rb_cli_out_made out_made; /* the folders made for --out: removed again when nothing ran */
    if ((rc = rb_cli_out_dir(CMD, "--out", p->out_dir, &out_made))) return rc;
    /* from here a stop signal ends the run in order: workers stopped, what finished written */
    rbb_stop_on_signals();
    run_part(&run, "the setup (the connection, the queue's schema)");

    /* Durability: off applies to every session of this run (workers, driver,
     * pgbench) through PGOPTIONS, which libpq sends at connection start. */
    char pgoptions[512];
    if (!p->sync_commit) {
        const char *old = getenv("PGOPTIONS");
        snprintf(pgoptions, sizeof pgoptions, "%s%s-c synchronous_commit=off", old ? old : "",
                 old && *old ? " " : "");
        setenv("PGOPTIONS", pgoptions, 1);
    }

    char err[1024], conninfo[2048];
    PGconn *c = open_bench_db(p, conninfo, sizeof conninfo, err, sizeof err);
    if (c && rbb_queue_prepare(conninfo, c, err, sizeof err)) PQfinish(c), c = NULL;
    if (!c) { /* nothing measured, nothing to write */
        rb_cli_out_dir_undo(&out_made);
        rc = rb_cli_fail(CMD, "%s", err);
        return rbb_stop_signal ? 128 + rbb_stop_signal : rc; /* a stop ended the connect */
    }
    run.machine_json = rb_machine_record();
    server_settings(c, run.server_settings, sizeof run.server_settings);
    fprintf(stderr, "pg bench: profile %s, server %s:%s, queue db %s, sync_commit %s, out %s\n",
            p->profile, PQhost(c), PQport(c), p->queue_db, p->sync_commit ? "on" : "off",
            p->out_dir);

    size_t n_cells = p->n_dists * p->n_modes * (p->n_workers * p->n_batches + p->n_chain_workers);
    /* the reference divides the cells' rows/s: a run without cells needs none */
    run.pgbench_skipped = n_cells == 0;
    if (!run.pgbench_skipped) run_pgbench_refs(&run, c, 0);

    run.cells = calloc(n_cells ? n_cells : 1, sizeof *run.cells);
    if (!run.cells) {
        PQfinish(c);
        return rb_cli_fail(CMD, "out of memory");
    }
    int n_bad = 0;
    uint64_t t0 = rb_now_ns();
    for (size_t d = 0; d < p->n_dists; d++) {
        for (size_t w = 0; w < p->n_workers; w++)
            for (size_t b = 0; b < p->n_batches; b++) {
                group_key g = {d, p->workers[w], p->batches[b], p->chain};
                if (rbb_stop_signal) break;
                measure_group_checked(&run, c, conninfo, g, &run.cells[run.n_cells], t0, &n_bad);
                run.n_cells += p->n_modes;
            }
        /* the chain group: one commit per row at batch 1 (issue 11, target 4) */
        for (size_t w = 0; w < p->n_chain_workers; w++) {
            if (chain_cell_in_matrix(p, p->chain_workers[w]) || rbb_stop_signal) continue;
            group_key g = {d, p->chain_workers[w], 1, 1};
            measure_group_checked(&run, c, conninfo, g, &run.cells[run.n_cells], t0, &n_bad);
            run.n_cells += p->n_modes;
        }
    }

    /* the reference again after the matrix: the ratios use the mean of both */
    if (!run.pgbench_skipped && !rbb_stop_signal) run_pgbench_refs(&run, c, 1);
    for (size_t i = 0; i < run.n_cells; i++) {
        rbb_cell *cell = &run.cells[i];
        cell->pgbench_run_tps = rbb_pgbench_tps_for(&run, cell->n_workers);
        cell->pgbench_tps =
            cell->pgbench_adjacent_before_tps > 0 && cell->pgbench_adjacent_after_tps > 0
                ? (cell->pgbench_adjacent_before_tps + cell->pgbench_adjacent_after_tps) / 2
                : cell->pgbench_run_tps;
    }

    /* EXPLAIN ANALYZE of each mode's claim at the largest batch, over a
     * fresh uniform backlog of a cell's size (what limits a claim); with the cells. */
    if (n_cells && !rbb_stop_signal) {
        driver_again(c);
        run_part(&run, "EXPLAIN of the claims");
        uint32_t bmax = 1;
        for (size_t b = 0; b < p->n_batches; b++)
            if (p->batches[b] > bmax) bmax = p->batches[b];
        run.explain_backlog = rbb_rows_for(p, bmax, 1, p->cell_s);
        if (!rbb_queue_fresh(c, run.explain_backlog, RBB_DIST_UNIFORM, p->n_keys, p->zipf_s,
                             p->seed, "explain", err, sizeof err))
            run.explain = rbb_queue_explain_modes(bmax, err, sizeof err);
        if (!run.explain) fprintf(stderr, "pg bench: EXPLAIN failed: %s\n", err);
    }

    if (p->scale) {
        const char *algos[2] = {p->ring_algo, "modn"};
        for (int i = 0; i < 2 && !rbb_stop_signal; i++) {
            rbb_scale *s = &run.scale[run.n_scale++];
            driver_again(c);
            run_part(&run, "the scale event (%s)", algos[i]);
            fprintf(stderr, "pg bench: scale event, %s ownership: 3 workers, a 4th joins\n",
                    algos[i]);
            if (rbb_run_scale(p, conninfo, c, algos[i], s, err, sizeof err)) {
                fprintf(stderr, "pg bench: scale event failed: %s\n", err);
                n_bad++;
                continue;
            }
            fprintf(stderr,
                    "pg bench:   moved %u of %u buckets (ideal %u), %llu rows in flight on "
                    "them, dip %.0f%%, back to 90%% after %.0f ms, dup %llu, lost %llu\n",
                    s->n_moved_buckets, s->n_buckets, s->n_buckets / (s->n_before + 1),
                    (unsigned long long)s->n_claimed_on_moved, 100 * s->rec.dip_fraction,
                    s->rec.recovery_ms, (unsigned long long)s->after.n_duplicates,
                    (unsigned long long)s->n_lost);
            if (s->after.n_duplicates || s->n_lost) n_bad++;
        }
    }
    if (p->crash && !rbb_stop_signal) {
        run.has_crash = 1;
        run_part(&run, "the crash injection");
        n_bad += crash_run(p, conninfo, c, p->chain, &run.crash);
        /* again with chain workers, as the chain group runs them (unless the first did) */
        if (p->n_chain_workers && !p->chain && !rbb_stop_signal) {
            run_part(&run, "the crash injection (chain workers)");
            run.has_crash_chain = 1;
            n_bad += crash_run(p, conninfo, c, 1, &run.crash_chain);
        }
    }
    if (p->n_backlogs && !rbb_stop_signal) {
        run_part(&run, "the backlog sweep");
        int bad = rbb_run_backlog(&run, conninfo, c, err, sizeof err);
        if (bad < 0) fprintf(stderr, "pg bench: backlog sweep failed: %s\n", err);
        n_bad += bad < 0 ? 1 : bad;
    }
    if (p->soak_s > 0 && !rbb_stop_signal) {
        driver_again(c);
        rbb_pgbench_result before = {0};
        char unsettled[sizeof run.soak.unsettled[0]];
        soak_reference(&run, c, &before, 0, unsettled, sizeof unsettled);
        run_part(&run, "the soak");
        fprintf(stderr, "pg bench: soak: 4 affinity workers, batch 8, %.0f s, retention %llu ms\n",
                p->soak_s, (unsigned long long)p->soak_retention_ms);
        if (rbb_run_soak(&run, conninfo, c, err, sizeof err)) {
            fprintf(stderr, "pg bench: soak failed: %s\n", err);
            n_bad++;
        } else if (run.soak.n_lost || run.soak.n_duplicates) {
            n_bad++;
        }
        rbb_soak *s = &run.soak;
        s->pgbench_before = before;
        memcpy(s->unsettled[0], unsettled, sizeof unsettled); /* rbb_run_soak cleared *s */
        soak_reference(&run, c, &s->pgbench_after, 1, s->unsettled[1], sizeof s->unsettled[1]);
        if (run.pgbench_skipped && !run.pgbench_ok && !rbb_stop_signal) {
            fprintf(stderr, "pg bench: the soak's pgbench reference failed: %s\n",
                    run.pgbench_error);
            n_bad++;
        }
        s->pgbench_drift = rbb_pgbench_drift(s->pgbench_before.tps, s->pgbench_after.tps);
        s->drift_flagged = s->pgbench_drift > RBB_DRIFT_MAX;
        if (s->pgbench_after.tps > 0)
            fprintf(stderr,
                    "pg bench:   pgbench -c %u around the soak: %.0f / %.0f tps (drift %.0f%%)\n",
                    s->n_workers, s->pgbench_before.tps, s->pgbench_after.tps,
                    100 * s->pgbench_drift);
    }
    PQfinish(c);
    rbb_queue_finish();
    run.stop_signal = rbb_stop_signal;
    if (!run.pgbench_ok && !run.pgbench_skipped && !run.stop_signal) {
        fprintf(stderr, "pg bench: the pgbench reference failed: %s\n", run.pgbench_error);
        n_bad++;
    }

    char json_path[1200];
    snprintf(json_path, sizeof json_path, "%s/pgbench.json", p->out_dir);
    int written = write_outputs(&run, p->out_dir) == 0;
    if (!written)
        fprintf(stderr, "pg bench: cannot write results into %s: %s\n", p->out_dir,
                strerror(errno)),
            n_bad++;
    else
        fprintf(stderr, "pg bench: results in %s/pgbench.{json,md}\n", p->out_dir);
    if (fmt == RB_FMT_JSON) {
        if (rb_json_write_stdout("pg bench", rbb_report_json(&run), RB_JSON_TOP_LINES)) n_bad++;
    } else {
        rbb_report_md(stdout, &run, written ? json_path : NULL);
    }
    free_run(&run);
    if (run.stop_signal) {
        fprintf(stderr, "pg bench: %s during %s: the parts after it did not run\n",
                rbb_stop_reason(err, sizeof err), run.part);
        return 128 + run.stop_signal;
    }
    if (n_bad) {
        fprintf(stderr, "pg bench: %d failure(s): a run failed or found duplicates / lost rows\n",
                n_bad);
        return RB_EXIT_FAILURE;
    }
    return RB_EXIT_OK;
}
