/*
 * cmd_pg_worker.c — `ringbench pg worker`: one worker process running the
 * library's worker loop (worker.h: keeper thread for heartbeats and lease
 * extension, batched fenced completion), with fault injection for the tests.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "json_out.h"
#include "pg_cli.h"
#include "ringbench/common.h"
#include "ringbench/utf8.h"
#include "worker.h"

/* Exit code of a worker whose incarnation was declared dead (or whose id was
 * registered again by another process): it stopped without acting again. */
#define RB_EXIT_DEAD 3

typedef struct worker_opts {
    rb_queue_config *cfg;
    int until_empty;
    uint32_t duration_ms, max_claims, work_ms, poll_ms, idle_ms;
    uint32_t stall_after_claim_ms, fail_pct, fail_attempts;
    int stale_probe, exit_after_claim, chain;
    int on_failed_key_given, claim_scan_given, age_bound_given; /* options of some modes only:
                                                                  checked after */
    const char *crash_on_key;
    int64_t clock_offset_ms;
    rb_format fmt;
} worker_opts;

static const char worker_help[] =
    "usage: ringbench pg worker [options]\n"
    "\n"
    "Join the membership and claim rows until --until-empty (nothing pending that could\n"
    "run, nothing claimed), --duration-ms, --max-claims or --idle-ms. Each row's handler\n"
    "sleeps --work-ms; a batch's successful rows are completed, with their effect rows,\n"
    "in one transaction (each row fenced by its lease_generation); a row claimed before\n"
    "(its last worker may have died on it) is completed at once when it succeeds, with\n"
    "the batch's rows before it. A thread with its\n"
    "own connection heartbeats and extends the leases of held rows, so a busy worker is\n"
    "not declared dead. Events go to stderr; a summary line to stdout. SIGTERM or\n"
    "SIGINT: finish the current row, complete what ran, release the rest, leave, print\n"
    "the summary; a claim or housekeeping round still running is cancelled (a claim then\n"
    "claims nothing; SIGKILL is a crash: leases expire, TTL runs out). Exit 3: this\n"
    "incarnation was declared dead (or its --id registered again) and stopped.\n"
    "  --mode M               competing, affinity or ordered (default competing)\n"
    "  --batch N              rows per claim (default 16)\n"
    "  --lease-ms MS          claim lease (default 30000)\n"
    "  --heartbeat-ms MS      heartbeat interval, <= TTL/3 (default 1000)\n"
    "  --ttl-ms MS            liveness TTL (default 3000)\n"
    "  --max-attempts N       handler starts before a row fails for good (default 5; a\n"
    "                         first claim's start is recorded with its completion or\n"
    "                         failure, so a handler that kills its worker then runs once more)\n"
    "  --max-row-claims N     claims before a row fails for good whether or not a handler\n"
    "                         started (its workers died; not counted when the worker died\n"
    "                         in another row's recorded start: that row is charged; a first\n"
    "                         claim records no start, so at 1 every row of a batch whose\n"
    "                         worker died fails; 0 or absent: 3 x max attempts)\n"
    "  --backoff-base-ms MS   retry delay of a failed row: min(cap, base x 2^(attempts-1)),\n"
    "  --backoff-cap-ms MS      x 0.5 .. 1 (jitter); defaults 500 and 60000\n"
    "  --on-failed-key P      ordered mode, a key whose oldest row failed for good:\n"
    "                         block (default: later rows wait for `pg retry`) or skip\n"
    "  --age-bound-ms MS      affinity mode: an owned row waiting longer than MS is claimed\n"
    "                         before the walk's rows, oldest first (default 30000; 0 =\n"
    "                         none: the owned buckets in turn only)\n"
    "  --claim-scan S         affinity and ordered modes: auto (default: the only live\n"
    "                         member claims the whole queue in (run_at, id) order) or\n"
    "                         walk (always walk the owned buckets, as with peers)\n"
    "  --chain                complete a batch and claim the next in one transaction: one\n"
    "                         commit per batch instead of two (one per row at --batch 1)\n"
    "  --until-empty          exit when nothing claimable is pending and nothing is claimed\n"
    "                         (a row whose run_at is ahead keeps it waiting for that row)\n"
    "  --duration-ms MS       exit after MS\n"
    "  --max-claims N         exit after N non-empty claims\n"
    "  --idle-ms MS           exit after MS without claiming a row\n"
    "  --work-ms MS           handler time per row (default 0)\n"
    "  --poll-ms MS           wait after an empty claim (default 20)\n"
    "  --id ID                worker id, UTF-8 without white space (default\n"
    "                         hostname:pid:random)\n"
    "  --planner-off LIST     SET enable_<x> = off for each x (tests)\n"
    "  --format F             summary as text, json or csv (default text)\n"
    "fault injection (tests):\n"
    "  --stall-after-claim-ms MS  sleep MS after a claim without heartbeats\n"
    "  --stale-probe          after the stall, try complete, release, extend and heartbeat\n"
    "                         on the claimed rows, print each outcome, exit\n"
    "  --exit-after-claim     exit right after the first claim: no completion, no leave\n"
    "  --crash-on KEY         the handler SIGKILLs its own worker when it starts on a row\n"
    "                         whose partition key is KEY (a poison row)\n"
    "  --fail-pct P           the handler fails the first --fail-attempts runs (default 1)\n"
    "  --fail-attempts N        of P% of rows (chosen by a hash of the idempotency key)\n"
    "  --clock-offset-ms MS   pretend the client clock is off by MS (signed); only event\n"
    "                         timestamps use it: leases and liveness use the database clock\n";

/* --clock-offset-ms: a signed whole number of ms within a day either way. 0 or -1 (printed). */
#define CLOCK_OFFSET_MAX_MS 86400000u
static int parse_clock_offset(const char *cmd, const char *s, int64_t *out) {
    uint64_t v;
    int neg = s[0] == '-';
    int rc = rb_cli_whole(s + neg, 0, CLOCK_OFFSET_MAX_MS, &v);
    if (rc == RB_CLI_OUT_OF_RANGE)
        return rb_cli_usage_error(cmd, "--clock-offset-ms: %s is out of range (-%u..%u)", s,
                                  CLOCK_OFFSET_MAX_MS, CLOCK_OFFSET_MAX_MS),
               -1;
    if (rc)
        return rb_cli_usage_error(cmd,
                                  "--clock-offset-ms must be a whole number of ms from -%u to "
                                  "%u, got '%s'",
                                  CLOCK_OFFSET_MAX_MS, CLOCK_OFFSET_MAX_MS, s),
               -1;
    *out = neg ? -(int64_t)v : (int64_t)v;
    return 0;
}

/* v, the value of option opt, must be a or b: 0 for a, 1 for b, or -1 after a usage error. */
static int one_of_two(const char *cmd, const char *opt, const char *v, const char *a,
                      const char *b) {
    if (strcmp(v, a) == 0) return 0;
    if (strcmp(v, b) == 0) return 1;
    rb_cli_usage_error(cmd, "%s must be %s or %s, got '%s'", opt, a, b, v);
    return -1;
}

/* The byte (from 1) where a worker id (valid UTF-8) has white space or a control character:
 * ASCII, C1 (U+0080..U+009F, NEL among them), and Unicode's other spaces and line and paragraph
 * separators (U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029, U+202F, U+205F, U+3000); 0
 * when none. A summary line split into words or lines would misread such an id. */
static size_t id_unsafe_at(const char *id) {
    const unsigned char *p = (const unsigned char *)id;
    size_t n = strlen(id);
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        int valid;
        size_t len = rb_utf8_decode(p + i, n - i, &cp, &valid);
        if (cp <= 0x20 || (cp >= 0x7f && cp <= 0xa0) || cp == 0x1680 ||
            (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 || cp == 0x2029 || cp == 0x202f ||
            cp == 0x205f || cp == 0x3000)
            return i + 1;
        i += len;
    }
    return 0;
}

static int worker_option(const char *cmd, void *ctx, int argc, char **argv, int *i) {
    worker_opts *o = ctx;
    rb_queue_config *c = o->cfg;
    const char *opt = argv[*i];
    static const char *const flags[] = {"--until-empty", "--stale-probe", "--exit-after-claim",
                                        "--chain"};
    int *flag_dst[] = {&o->until_empty, &o->stale_probe, &o->exit_after_claim, &o->chain};
    for (size_t k = 0; k < 4; k++)
        if (strcmp(opt, flags[k]) == 0) {
            *flag_dst[k] = 1;
            return 1;
        }
    /* The whole-number options and the ranges they take: the range checked is the range
     * the message states (rb_cli_u32_arg). Cross-field rules (heartbeat <= TTL/3, cap >=
     * base) are rb_queue_config_validate's. */
    const struct {
        const char *name;
        uint32_t *dst, min, max;
    } nums[] = {
        {"--batch", &c->batch, 1, RB_QUEUE_MAX_BATCH},
        {"--lease-ms", &c->lease_ms, 1, 86400000u},
        {"--heartbeat-ms", &c->heartbeat_ms, 1, 86400000u},
        {"--ttl-ms", &c->ttl_ms, 1, 86400000u},
        {"--max-attempts", &c->max_attempts, 1, 1000000u},
        {"--max-row-claims", &c->max_row_claims, 0, 1000000u}, /* 0: 3 x max attempts */
        {"--backoff-base-ms", &c->backoff_base_ms, 1, 86400000u},
        {"--backoff-cap-ms", &c->backoff_cap_ms, 1, 86400000u},
        {"--age-bound-ms", &c->age_bound_ms, 0, RB_QUEUE_AGE_BOUND_MAX_MS},
        {"--duration-ms", &o->duration_ms, 1, 86400000u},
        {"--max-claims", &o->max_claims, 1, 1000000000u},
        {"--idle-ms", &o->idle_ms, 1, 86400000u},
        {"--work-ms", &o->work_ms, 0, 3600000u}, /* x 1000 in us fits 32 bits */
        {"--poll-ms", &o->poll_ms, 0, 3600000u},
        {"--stall-after-claim-ms", &o->stall_after_claim_ms, 0, 3600000u},
        {"--fail-pct", &o->fail_pct, 0, 100},
        {"--fail-attempts", &o->fail_attempts, 1, 1000000u},
    };
    size_t which = sizeof nums / sizeof nums[0];
    for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++)
        if (strcmp(opt, nums[k].name) == 0) which = k;
    int is_num = which < sizeof nums / sizeof nums[0];
    int other = strcmp(opt, "--mode") == 0 || strcmp(opt, "--id") == 0 ||
                strcmp(opt, "--planner-off") == 0 || strcmp(opt, "--clock-offset-ms") == 0 ||
                strcmp(opt, "--format") == 0 || strcmp(opt, "--on-failed-key") == 0 ||
                strcmp(opt, "--claim-scan") == 0 || strcmp(opt, "--crash-on") == 0;
    if (!is_num && !other) return 0;
    if (*i + 1 >= argc) {
        rb_cli_usage_error(cmd, "%s needs a value", opt);
        return -1;
    }
    const char *v = argv[++*i];
    if (is_num) {
        if (rb_cli_u32_arg(cmd, opt, v, nums[which].min, nums[which].max, nums[which].dst))
            return -1;
        if (nums[which].dst == &c->age_bound_ms) o->age_bound_given = 1;
    } else if (strcmp(opt, "--mode") == 0) {
        if (rb_claim_mode_parse(v, &c->mode)) {
            rb_cli_usage_error(cmd, "%s", rb_error_detail());
            return -1;
        }
    } else if (strcmp(opt, "--on-failed-key") == 0) {
        if ((c->ordered_skip_failed = one_of_two(cmd, opt, v, "block", "skip")) < 0) return -1;
        o->on_failed_key_given = 1;
    } else if (strcmp(opt, "--claim-scan") == 0) {
        if ((c->walk_always = one_of_two(cmd, opt, v, "auto", "walk")) < 0) return -1;
        o->claim_scan_given = 1;
    } else if (strcmp(opt, "--crash-on") == 0) {
        if (!*v) {
            rb_cli_usage_error(cmd, "--crash-on needs a partition key, got ''");
            return -1;
        }
        o->crash_on_key = v;
    } else if (strcmp(opt, "--id") == 0) {
        if (rb_hash_check(&rb_hash_fnv1a32_js, v, strlen(v))) { /* a text column, a JSON string */
            rb_cli_usage_error(cmd, "--id must be UTF-8 text: %s", rb_error_detail());
            return -1;
        }
        size_t at = id_unsafe_at(v);
        if (at) { /* the summary and event lines are space-separated words */
            rb_cli_usage_error(cmd,
                               "--id must not contain white space or control characters "
                               "(byte %zu)",
                               at);
            return -1;
        }
        c->worker_id = v;
    } else if (strcmp(opt, "--planner-off") == 0) {
        c->planner_off = v;
    } else if (strcmp(opt, "--format") == 0) {
        if (rb_cli_parse_format(v, 0, &o->fmt)) {
            rb_cli_usage_error(cmd, "--format must be text, json or csv, got '%s'", v);
            return -1;
        }
    } else if (parse_clock_offset(cmd, v, &o->clock_offset_ms)) {
        return -1;
    }
    return 1;
}

/* The worker's own clock, off by --clock-offset-ms: it stamps events and is
 * never sent to the database. */
static double client_clock_s(const worker_opts *o) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 + (double)o->clock_offset_ms / 1e3;
}

/* What the hooks share: options and the claim latencies for the summary. */
typedef struct worker_ctx {
    const worker_opts *o;
    uint64_t *claim_ns;
    size_t n_claim_ns, cap_claim_ns;
} worker_ctx;

static void on_event(void *ctx, rb_queue *q, const char *line) {
    const worker_ctx *w = ctx;
    const char *id = rb_queue_worker_id(q);
    flockfile(stderr); /* one line, whichever thread reports */
    fputs("ringbench pg worker [", stderr);
    rb_text_field(stderr, id, strlen(id), 0);
    fprintf(stderr, " t=%.3f]: ", client_clock_s(w->o));
    rb_text_field(stderr, line, strlen(line), 0); /* keys and server messages escaped */
    fputc('\n', stderr);
    funlockfile(stderr);
}

static void on_batch(void *ctx, const rb_worker_batch_info *info) {
    worker_ctx *w = ctx;
    if (!info->n_claimed || !info->claim_timed) return;
    if (w->n_claim_ns == w->cap_claim_ns) {
        size_t nc = w->cap_claim_ns ? w->cap_claim_ns * 2 : 1024;
        uint64_t *p = realloc(w->claim_ns, nc * sizeof *p);
        if (!p) return;
        w->claim_ns = p;
        w->cap_claim_ns = nc;
    }
    w->claim_ns[w->n_claim_ns++] = info->claim_ns;
}

/* SIGTERM / SIGINT (rb_pg_stop_signals): finish the current batch, leave, print the summary. */
static int should_stop(void *ctx) {
    (void)ctx;
    return rb_pg_stop_requested;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* p in (0, 1]: the nearest-rank percentile of ringbench/common.h, as `pg bench` reports. */
static uint64_t percentile(const uint64_t *sorted, size_t n, double p) {
    return n ? sorted[rb_nearest_rank(n, p * 100)] : 0;
}

/* The worker's figures on stdout; 0, or RB_EXIT_FAILURE when the JSON could not be written. */
static int print_summary(const worker_opts *o, rb_queue *q, worker_ctx *w,
                         const rb_worker_stats *st) {
    if (w->n_claim_ns) qsort(w->claim_ns, w->n_claim_ns, sizeof *w->claim_ns, cmp_u64);
    /* no timed claim (every batch claimed by a chained completion): no figure, not 0 */
    double p50_us =
        w->n_claim_ns ? (double)percentile(w->claim_ns, w->n_claim_ns, 0.50) / 1e3 : NAN;
    double p99_us =
        w->n_claim_ns ? (double)percentile(w->claim_ns, w->n_claim_ns, 0.99) / 1e3 : NAN;
    char p50[32] = "", p99[32] = "";
    if (w->n_claim_ns) {
        snprintf(p50, sizeof p50, "%.1f", p50_us);
        snprintf(p99, sizeof p99, "%.1f", p99_us);
    }
    uint64_t elapsed_ms = st->elapsed_ms;
    double rows_per_s = elapsed_ms ? (double)st->n_completed * 1000.0 / (double)elapsed_ms : 0;
    const char *names[] = {"claims",       "empty_claims", "rows_claimed", "max_claim_rows",
                           "handler_runs", "completed",    "failed",       "lost",
                           "skipped",      "held_back",    "complete_tx",  "chained_tx",
                           "marked_dead",  "released",     "purged",       "membership_changes",
                           "heartbeats",   "reconnects",   "claims_timed", "rows_aged",
                           "dead_lettered"};
    uint64_t v[] = {
        st->n_claims,       st->n_empty_claims,       st->n_rows_claimed, st->max_claim_rows,
        st->n_handler_runs, st->n_completed,          st->n_failed,       st->n_lost,
        st->n_skipped,      st->n_held_back,          st->n_complete_tx,  st->n_chained,
        st->n_marked_dead,  st->n_released,           st->n_purged,       st->n_membership_changes,
        st->n_heartbeats,   rb_queue_n_reconnects(q), w->n_claim_ns,      st->n_rows_aged,
        st->n_dead_lettered};
    const size_t nf = sizeof v / sizeof v[0];
    const char *mode = rb_claim_mode_name(o->cfg->mode);
    int rc = 0;
    if (o->fmt == RB_FMT_JSON) {
        json_t *obj = json_object();
        rb_json_set(obj, "worker", rb_json_str(rb_queue_worker_id(q)));
        rb_json_set(obj, "mode", rb_json_str(mode));
        rb_json_set(obj, "batch", rb_json_u64(o->cfg->batch));
        for (size_t k = 0; k < nf; k++)
            rb_json_set(obj, names[k], rb_json_u64(v[k]));
        rb_json_set(obj, "elapsed_ms", rb_json_u64(elapsed_ms));
        rb_json_set(obj, "rows_per_s", rb_json_fixed(rows_per_s, 1));
        rb_json_set(obj, "claim_p50_us", rb_json_fixed(p50_us, 1));
        rb_json_set(obj, "claim_p99_us", rb_json_fixed(p99_us, 1));
        rc = rb_json_write_stdout("pg worker", obj, RB_JSON_LINE);
    } else if (o->fmt == RB_FMT_CSV) {
        printf("worker,mode,batch");
        for (size_t k = 0; k < nf; k++)
            printf(",%s", names[k]);
        printf(",elapsed_ms,rows_per_s,claim_p50_us,claim_p99_us\n");
        rb_csv_field(stdout, rb_queue_worker_id(q), strlen(rb_queue_worker_id(q)));
        printf(",%s,%u", mode, o->cfg->batch);
        for (size_t k = 0; k < nf; k++)
            printf(",%llu", (unsigned long long)v[k]);
        printf(",%llu,%.1f,%s,%s\n", (unsigned long long)elapsed_ms, rows_per_s, p50, p99);
    } else {
        fputs("worker ", stdout);
        rb_text_field(stdout, rb_queue_worker_id(q), strlen(rb_queue_worker_id(q)), 0);
        printf(" mode=%s batch=%u", mode, o->cfg->batch);
        for (size_t k = 0; k < nf; k++)
            printf(" %s=%llu", names[k], (unsigned long long)v[k]);
        printf(" elapsed_ms=%llu rows_per_s=%.1f claim_p50_us=%s claim_p99_us=%s\n",
               (unsigned long long)elapsed_ms, rows_per_s, p50[0] ? p50 : "-", p99[0] ? p99 : "-");
    }
    fflush(stdout);
    return rc;
}

/* The worker loop (worker.h); returns an exit code. */
static int run_worker(worker_opts *o, rb_queue *q) {
    const char *cmd = "pg worker";
    rb_worker_options wo;
    rb_worker_options_init(&wo);
    wo.until_empty = o->until_empty;
    wo.duration_ms = o->duration_ms;
    wo.max_claims = o->max_claims;
    wo.idle_ms = o->idle_ms;
    wo.work_us = o->work_ms * 1000u;
    wo.poll_us = o->poll_ms * 1000u;
    wo.fail_pct = o->fail_pct;
    wo.fail_attempts = o->fail_attempts ? o->fail_attempts : 1;
    wo.stall_after_claim_ms = o->stall_after_claim_ms;
    wo.stale_probe = o->stale_probe;
    wo.exit_after_claim = o->exit_after_claim;
    wo.crash_on_key = o->crash_on_key;
    wo.chain = o->chain;
    worker_ctx w = {o, NULL, 0, 0};
    rb_worker_hooks h = {&w, NULL, NULL, on_batch, on_event, should_stop};
    rb_worker_stats st;
    int rc = rb_worker_run(q, &wo, &h, &st);
    if (rc == RB_EINVAL)
        rc = rb_cli_usage_error(cmd, "%s", rb_error_detail()); /* --id taken */
    else if (rc == RB_ELOST) {
        fprintf(stderr, "ringbench %s: stopped: %s\n", cmd, rb_error_detail());
        rc = RB_EXIT_DEAD;
    } else if (rc)
        rc = rb_cli_fail(cmd, "%s", rb_error_detail());
    else {
        if (rb_pg_stop_requested) on_event(&w, q, "stop signal: leaving");
        /* Leave here, not in rb_queue_close, which cannot report it: a worker that could not
         * leave (its server frozen or lost meanwhile) said "leaving" and exited 0 while it
         * stayed a member until its TTL (a sanitizer run of chaos_signals). */
        char why[512] = "";
        if (rb_queue_registered(q) && rb_queue_leave(q))
            snprintf(why, sizeof why, "%s", rb_error_detail());
        rc = o->stale_probe ? RB_EXIT_OK : print_summary(o, q, &w, &st);
        if (*why)
            rc = rb_cli_fail(cmd, "could not leave the membership (its TTL, %u ms, ends it): %s",
                             o->cfg->ttl_ms, why);
    }
    free(w.claim_ns);
    return rc;
}

int rb_pg_cmd_worker(int argc, char **argv) {
    const char *cmd = "pg worker";
    rb_queue_config cfg;
    rb_pg_session_defaults(&cfg);
    worker_opts o = {.cfg = &cfg, .poll_ms = 20, .fmt = RB_FMT_TEXT};
    rb_cli_ring ring;
    rb_cli_ring_init(&ring);
    ring.refused = RB_RING_OPT_BUCKETS | RB_RING_OPT_BUCKET_HASH | RB_RING_OPT_SEED;
    int rc =
        rb_pg_parse_options(cmd, worker_help,
                            "\nring options (default: the queue's, set at migrate; B, the "
                            "bucket hash and the seed are always the queue's):\n",
                            argc, argv, &cfg, &ring, worker_option, &o, NULL, &cfg.ring_override);
    if (rc >= 0) return rc;
    /* B, the bucket hash and the seed place the stored rows: the worker always takes them
     * from queue_config, so asking for others here would be silently ignored */
    if (ring.given & ring.refused)
        return rb_cli_usage_error(cmd, "--buckets, --bucket-hash and --seed are the queue's (set "
                                       "by pg migrate): the worker reads them from queue_config");
    if ((ring.given & (RB_RING_OPT_PARAM | RB_RING_OPT_TABLE_SOURCE)) && !ring.algo)
        return rb_cli_usage_error(cmd, "--param and --table-source need --algo here (the queue's "
                                       "algorithm is known only once connected)");
    if (ring.algo && rb_cli_ring_check_params(cmd, &ring, &ring.algo, 1)) return RB_EXIT_USAGE;
    if (cfg.ring_override) {
        cfg.ring = ring.cfg;
        cfg.algo = ring.algo;
    }
    /* an option another mode reads would be silently ignored: say so (--mode may come after) */
    if (o.on_failed_key_given && cfg.mode != RB_CLAIM_ORDERED)
        return rb_cli_usage_error(cmd,
                                  "--on-failed-key applies to --mode ordered only (got --mode %s)",
                                  rb_claim_mode_name(cfg.mode));
    if (cfg.ring_override && cfg.mode == RB_CLAIM_COMPETING)
        return rb_cli_usage_error(cmd, "ring options apply to --mode affinity and ordered only "
                                       "(got --mode competing: it owns no buckets)");
    if (o.claim_scan_given && cfg.mode == RB_CLAIM_COMPETING)
        return rb_cli_usage_error(cmd, "--claim-scan applies to --mode affinity and ordered only "
                                       "(got --mode competing)");
    if (o.age_bound_given && cfg.mode != RB_CLAIM_AFFINITY)
        return rb_cli_usage_error(cmd,
                                  "--age-bound-ms applies to --mode affinity only (got --mode %s)",
                                  rb_claim_mode_name(cfg.mode));
    if (o.fail_attempts && !o.fail_pct)
        return rb_cli_usage_error(cmd, "--fail-attempts needs --fail-pct above 0 (no handler "
                                       "fails otherwise)");
    if (o.stale_probe && !o.stall_after_claim_ms)
        return rb_cli_usage_error(cmd, "--stale-probe needs --stall-after-claim-ms");
    if (!o.until_empty && !o.duration_ms && !o.max_claims && !o.idle_ms)
        return rb_cli_usage_error(cmd,
                                  "give --until-empty, --duration-ms, --max-claims or --idle-ms");
    if (rb_queue_config_validate(&cfg)) return rb_cli_usage_error(cmd, "%s", rb_error_detail());
    /* Before connecting: a stop signal also ends a wait for an unreachable server. */
    rb_pg_stop_signals(&cfg);
    rb_queue *q;
    rc = rb_pg_open(cmd, &cfg, &q);
    if (rc) return rc;
    rb_pg_stop_target(q);
    rc = run_worker(&o, q);
    rb_pg_stop_target(NULL);
    rb_queue_close(q);
    return rc;
}
