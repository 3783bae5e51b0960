/*
 * cmd_pg_worker.c — `ringbench pg worker`: one worker process running the
 * claim loop of queue.h, with fault injection for the protocol tests.
 *
 * Loop: every heartbeat interval (client monotonic clock, pacing only):
 * heartbeat, refresh the live membership (ring rebuilt when it changed),
 * one housekeeping round. Between them: claim a batch, run the handler on each
 * row (sleep --work-ms, then complete with an effect row), poll again after
 * --poll-ms when nothing was claimed.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pg_cli.h"

typedef struct worker_opts {
    rb_queue_config *cfg;
    int until_empty;
    uint32_t duration_ms, max_claims, work_ms, poll_ms;
    uint32_t stall_after_claim_ms, fail_pct;
    int stale_probe, exit_after_claim;
    int64_t clock_offset_ms;
    rb_format fmt;
} worker_opts;

static const char worker_help[] =
    "usage: ringbench pg worker [options]\n"
    "\n"
    "Join the membership and claim rows until --until-empty (no pending or claimed\n"
    "row left), --duration-ms or --max-claims. Each row's handler sleeps --work-ms and\n"
    "completes it, writing its effect row in the same transaction. Events (membership\n"
    "changes, workers marked dead, leases released, lost leases) go to stderr; a\n"
    "summary line to stdout. SIGTERM or SIGINT: finish the current batch, leave the\n"
    "membership and print the summary (SIGKILL is a crash: leases expire, TTL runs out).\n"
    "  --mode M               competing, affinity or ordered (default competing)\n"
    "  --batch N              rows per claim (default 16)\n"
    "  --lease-ms MS          claim lease (default 30000)\n"
    "  --heartbeat-ms MS      heartbeat interval, <= TTL/3 (default 1000)\n"
    "  --ttl-ms MS            liveness TTL (default 3000)\n"
    "  --max-attempts N       claims before a row fails for good (default 5)\n"
    "  --until-empty          exit when no pending or claimed row is left\n"
    "  --duration-ms MS       exit after MS\n"
    "  --max-claims N         exit after N non-empty claims\n"
    "  --work-ms MS           handler time per row (default 0)\n"
    "  --poll-ms MS           wait after an empty claim (default 20)\n"
    "  --id ID                worker id (default hostname:pid:random)\n"
    "  --planner-off LIST     SET enable_<x> = off for each x (tests)\n"
    "  --format F             summary as text, json or csv (default text)\n"
    "fault injection (tests):\n"
    "  --stall-after-claim-ms MS  sleep MS after a claim without heartbeats\n"
    "  --stale-probe          after the stall, try complete, release, extend and heartbeat\n"
    "                         on the claimed rows, print each outcome, exit\n"
    "  --exit-after-claim     exit right after the first claim: no completion, no leave\n"
    "  --fail-pct P           the handler fails the first attempt of P% of rows (chosen by\n"
    "                         a hash of the idempotency key); they retry after 50 ms\n"
    "  --clock-offset-ms MS   pretend the client clock is off by MS (signed); only event\n"
    "                         timestamps use it: leases and liveness use the database clock\n";

static int parse_i64(const char *s, int64_t *out) {
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end) return -1;
    *out = v;
    return 0;
}

static int worker_option(const char *cmd, void *ctx, int argc, char **argv, int *i) {
    worker_opts *o = ctx;
    rb_queue_config *c = o->cfg;
    const char *opt = argv[*i];
    static const char *const flags[] = {"--until-empty", "--stale-probe", "--exit-after-claim"};
    int *flag_dst[] = {&o->until_empty, &o->stale_probe, &o->exit_after_claim};
    for (size_t k = 0; k < 3; k++)
        if (strcmp(opt, flags[k]) == 0) {
            *flag_dst[k] = 1;
            return 1;
        }
    static const char *const nums[] = {
        "--batch",       "--lease-ms",   "--heartbeat-ms", "--ttl-ms",  "--max-attempts",
        "--duration-ms", "--max-claims", "--work-ms",      "--poll-ms", "--stall-after-claim-ms",
        "--fail-pct"};
    uint32_t *num_dst[] = {
        &c->batch,       &c->lease_ms,   &c->heartbeat_ms, &c->ttl_ms,  &c->max_attempts,
        &o->duration_ms, &o->max_claims, &o->work_ms,      &o->poll_ms, &o->stall_after_claim_ms,
        &o->fail_pct};
    size_t which = 99;
    for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++)
        if (strcmp(opt, nums[k]) == 0) which = k;
    int other = strcmp(opt, "--mode") == 0 || strcmp(opt, "--id") == 0 ||
                strcmp(opt, "--planner-off") == 0 || strcmp(opt, "--clock-offset-ms") == 0 ||
                strcmp(opt, "--format") == 0;
    if (which == 99 && !other) return 0;
    if (*i + 1 >= argc) {
        rb_cli_usage_error(cmd, "%s needs a value", opt);
        return -1;
    }
    const char *v = argv[++*i];
    if (which != 99) {
        /* 0 is accepted here so that validation gives the protocol's message. */
        uint32_t max = which == 10 ? 100 : 86400000u;
        if (rb_cli_parse_u32(v, 0, max, num_dst[which])) {
            rb_cli_usage_error(cmd, "%s must be a whole number from 0 to %u, got '%s'", opt, max,
                               v);
            return -1;
        }
    } else if (strcmp(opt, "--mode") == 0) {
        if (rb_claim_mode_parse(v, &c->mode)) {
            rb_cli_usage_error(cmd, "%s", rb_error_detail());
            return -1;
        }
    } else if (strcmp(opt, "--id") == 0) {
        c->worker_id = v;
    } else if (strcmp(opt, "--planner-off") == 0) {
        c->planner_off = v;
    } else if (strcmp(opt, "--format") == 0) {
        if (rb_cli_parse_format(v, 0, &o->fmt)) {
            rb_cli_usage_error(cmd, "--format must be text, json or csv, got '%s'", v);
            return -1;
        }
    } else if (parse_i64(v, &o->clock_offset_ms)) {
        rb_cli_usage_error(cmd, "--clock-offset-ms must be a whole number of ms, got '%s'", v);
        return -1;
    }
    return 1;
}

/* Set by SIGTERM / SIGINT: finish the current batch, leave, print the summary. */
static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig) {
    (void)sig;
    stop_requested = 1;
}

static uint64_t mono_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static uint64_t mono_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_ms(uint32_t ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) && errno == EINTR) {
    }
}

/* The worker's own clock, off by --clock-offset-ms: it stamps events and is
 * never sent to the database. */
static double client_clock_s(const worker_opts *o) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 + (double)o->clock_offset_ms / 1e3;
}

static void event(const worker_opts *o, rb_queue *q, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#include <stdarg.h>
static void event(const worker_opts *o, rb_queue *q, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "ringbench pg worker [%s t=%.3f]: ", rb_queue_worker_id(q), client_clock_s(o));
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

typedef struct worker_stats {
    uint64_t n_claims, n_empty_claims, n_rows_claimed, max_claim_rows;
    uint64_t n_completed, n_failed, n_lost, n_marked_dead, n_released, n_membership_changes;
    uint64_t *claim_ns;
    size_t n_claim_ns, cap_claim_ns;
} worker_stats;

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static uint64_t percentile(const uint64_t *sorted, size_t n, double p) {
    if (!n) return 0;
    size_t k = (size_t)(p * (double)(n - 1) + 0.5);
    return sorted[k];
}

/* Periodic duties: heartbeat (rejoin when marked dead), membership, housekeeping. */
static int duties(const worker_opts *o, rb_queue *q, worker_stats *st) {
    int rc = rb_queue_heartbeat(q);
    if (rc == RB_ELOST) {
        event(o, q, "heartbeat: %s; rejoining under a new id", rb_error_detail());
        rc = rb_queue_rejoin(q);
        if (!rc) event(o, q, "rejoined");
    }
    if (rc) return rc;
    int changed = 0;
    if ((rc = rb_queue_refresh_membership(q, &changed))) return rc;
    if (changed) {
        size_t n_owned;
        rb_queue_owned_buckets(q, &n_owned);
        st->n_membership_changes++;
        event(o, q, "membership: %zu live, owns %zu buckets", rb_queue_n_live(q), n_owned);
    }
    rb_queue_housekeeping hk;
    if ((rc = rb_queue_housekeep(q, &hk))) return rc;
    if (hk.n_marked_dead) event(o, q, "housekeeper: marked dead: %s", hk.marked_dead);
    if (hk.n_released || hk.n_failed)
        event(o, q, "housekeeper: released %zu expired leases, %zu rows out of attempts",
              hk.n_released, hk.n_failed);
    st->n_marked_dead += hk.n_marked_dead;
    st->n_released += hk.n_released;
    free(hk.marked_dead);
    return 0;
}

/* --stale-probe: every fenced write on the stale rows, and a heartbeat. */
static void stale_probe(const worker_opts *o, rb_queue *q, const rb_queue_batch *b) {
    for (size_t k = 0; k < b->n; k++) {
        const rb_queue_row *row = &b->rows[k];
        int rc[3] = {rb_queue_complete(q, row, "stale"), rb_queue_release(q, row),
                     rb_queue_extend(q, row, o->cfg->lease_ms)};
        static const char *const what[] = {"complete", "release", "extend"};
        for (int w = 0; w < 3; w++)
            printf("stale %s id=%lld lease_generation=%lld: %s\n", what[w], (long long)row->id,
                   (long long)row->lease_generation, rc[w] ? rb_strerror(rc[w]) : "ok");
    }
    int rc = rb_queue_heartbeat(q);
    printf("stale heartbeat: %s\n", rc ? rb_strerror(rc) : "ok");
}

/* The handler's fault: fail the first attempt of fail_pct% of rows. */
static int should_fail(const worker_opts *o, const rb_queue_row *row) {
    if (!o->fail_pct || row->attempts != 1) return 0;
    uint64_t h = rb_hash_xxh3.fn(row->idempotency_key, strlen(row->idempotency_key), 7);
    return h % 100 < o->fail_pct;
}

static void print_summary(const worker_opts *o, rb_queue *q, worker_stats *st,
                          uint64_t elapsed_ms) {
    if (st->n_claim_ns) qsort(st->claim_ns, st->n_claim_ns, sizeof *st->claim_ns, cmp_u64);
    double p50_us = (double)percentile(st->claim_ns, st->n_claim_ns, 0.50) / 1e3;
    double p99_us = (double)percentile(st->claim_ns, st->n_claim_ns, 0.99) / 1e3;
    double rows_per_s = elapsed_ms ? (double)st->n_completed * 1000.0 / (double)elapsed_ms : 0;
    const char *names[] = {
        "claims", "empty_claims", "rows_claimed", "max_claim_rows",     "completed", "failed",
        "lost",   "marked_dead",  "released",     "membership_changes", "reconnects"};
    uint64_t v[] = {st->n_claims,
                    st->n_empty_claims,
                    st->n_rows_claimed,
                    st->max_claim_rows,
                    st->n_completed,
                    st->n_failed,
                    st->n_lost,
                    st->n_marked_dead,
                    st->n_released,
                    st->n_membership_changes,
                    rb_queue_n_reconnects(q)};
    const char *mode = rb_claim_mode_name(o->cfg->mode);
    if (o->fmt == RB_FMT_JSON) {
        printf("{\"worker\": ");
        rb_json_string(stdout, rb_queue_worker_id(q), strlen(rb_queue_worker_id(q)));
        printf(", \"mode\": \"%s\", \"batch\": %u", mode, o->cfg->batch);
        for (size_t k = 0; k < 11; k++)
            printf(", \"%s\": %llu", names[k], (unsigned long long)v[k]);
        printf(", \"elapsed_ms\": %llu, \"rows_per_s\": %.1f, \"claim_p50_us\": %.1f, "
               "\"claim_p99_us\": %.1f}\n",
               (unsigned long long)elapsed_ms, rows_per_s, p50_us, p99_us);
    } else if (o->fmt == RB_FMT_CSV) {
        printf("worker,mode,batch");
        for (size_t k = 0; k < 11; k++)
            printf(",%s", names[k]);
        printf(",elapsed_ms,rows_per_s,claim_p50_us,claim_p99_us\n");
        rb_csv_field(stdout, rb_queue_worker_id(q), strlen(rb_queue_worker_id(q)));
        printf(",%s,%u", mode, o->cfg->batch);
        for (size_t k = 0; k < 11; k++)
            printf(",%llu", (unsigned long long)v[k]);
        printf(",%llu,%.1f,%.1f,%.1f\n", (unsigned long long)elapsed_ms, rows_per_s, p50_us,
               p99_us);
    } else {
        printf("worker %s mode=%s batch=%u", rb_queue_worker_id(q), mode, o->cfg->batch);
        for (size_t k = 0; k < 11; k++)
            printf(" %s=%llu", names[k], (unsigned long long)v[k]);
        printf(" elapsed_ms=%llu rows_per_s=%.1f claim_p50_us=%.1f claim_p99_us=%.1f\n",
               (unsigned long long)elapsed_ms, rows_per_s, p50_us, p99_us);
    }
    fflush(stdout);
}

/* The claim loop; returns an exit code. */
static int run_worker(worker_opts *o, rb_queue *q, worker_stats *st) {
    const char *cmd = "pg worker";
    int rc = rb_queue_register(q);
    if (rc == RB_EINVAL) return rb_cli_usage_error(cmd, "%s", rb_error_detail()); /* --id taken */
    if (!rc) rc = duties(o, q, st);
    if (rc) return rb_cli_fail(cmd, "%s", rb_error_detail());
    uint64_t start = mono_ms(), last_duties = start;
    rb_queue_batch b = {0};
    for (;;) {
        uint64_t now = mono_ms();
        if (stop_requested) {
            event(o, q, "stop signal: leaving");
            break;
        }
        if (o->duration_ms && now - start >= o->duration_ms) break;
        if (o->max_claims && st->n_claims >= o->max_claims) break;
        if (now - last_duties >= o->cfg->heartbeat_ms) {
            if ((rc = duties(o, q, st))) break;
            last_duties = now;
        }
        uint64_t t0 = mono_ns();
        if ((rc = rb_queue_claim(q, &b))) break;
        uint64_t claim_ns = mono_ns() - t0;
        if (b.n == 0) {
            st->n_empty_claims++;
            if (o->until_empty) {
                rb_queue_counts c;
                if ((rc = rb_queue_counts_get(q, &c))) break;
                if (c.n_pending == 0 && c.n_claimed == 0) break;
            }
            sleep_ms(o->poll_ms);
            continue;
        }
        if (st->n_claim_ns == st->cap_claim_ns) {
            size_t nc = st->cap_claim_ns ? st->cap_claim_ns * 2 : 1024;
            uint64_t *p = realloc(st->claim_ns, nc * sizeof *p);
            if (p) {
                st->claim_ns = p;
                st->cap_claim_ns = nc;
            }
        }
        if (st->n_claim_ns < st->cap_claim_ns) st->claim_ns[st->n_claim_ns++] = claim_ns;
        st->n_claims++;
        st->n_rows_claimed += b.n;
        if (b.n > st->max_claim_rows) st->max_claim_rows = b.n;
        if (o->exit_after_claim) {
            event(o, q, "fault: exiting with %zu claimed rows, no completion, no leave", b.n);
            rb_queue_batch_free(&b);
            rb_queue_abandon(q);
            return RB_EXIT_OK;
        }
        if (o->stall_after_claim_ms) {
            event(o, q, "fault: stalling %u ms holding %zu rows (lease %u ms)",
                  o->stall_after_claim_ms, b.n, o->cfg->lease_ms);
            sleep_ms(o->stall_after_claim_ms);
            if (o->stale_probe) {
                stale_probe(o, q, &b);
                rb_queue_batch_free(&b);
                return RB_EXIT_OK;
            }
        }
        for (size_t k = 0; k < b.n && !rc; k++) {
            const rb_queue_row *row = &b.rows[k];
            if (o->work_ms) sleep_ms(o->work_ms);
            int wrc;
            if (should_fail(o, row)) {
                wrc = rb_queue_fail(q, row, "injected failure", 50);
                if (!wrc) st->n_failed++;
            } else {
                wrc = rb_queue_complete(q, row, rb_queue_worker_id(q));
                if (!wrc) st->n_completed++;
            }
            if (wrc == RB_ELOST) {
                st->n_lost++;
                event(o, q, "%s", rb_error_detail());
            } else if (wrc) {
                rc = wrc;
            }
        }
        rb_queue_batch_free(&b);
        if (rc) break;
    }
    rb_queue_batch_free(&b);
    if (rc) return rb_cli_fail(cmd, "%s", rb_error_detail());
    print_summary(o, q, st, mono_ms() - start);
    return RB_EXIT_OK;
}

int rb_pg_cmd_worker(int argc, char **argv) {
    const char *cmd = "pg worker";
    rb_queue_config cfg;
    rb_pg_session_defaults(&cfg);
    worker_opts o = {.cfg = &cfg, .poll_ms = 20, .fmt = RB_FMT_TEXT};
    rb_cli_ring ring;
    rb_cli_ring_init(&ring);
    int rc = rb_pg_parse_options(cmd, worker_help,
                                 "\nring options (default: the queue's, set at migrate):\n", argc,
                                 argv, &cfg, &ring, worker_option, &o, NULL, &cfg.ring_override);
    if (rc >= 0) return rc;
    if (cfg.ring_override) {
        cfg.ring = ring.cfg;
        cfg.algo = ring.algo;
    }
    if (o.stale_probe && !o.stall_after_claim_ms)
        return rb_cli_usage_error(cmd, "--stale-probe needs --stall-after-claim-ms");
    if (!o.until_empty && !o.duration_ms && !o.max_claims)
        return rb_cli_usage_error(cmd, "give --until-empty, --duration-ms or --max-claims");
    if (rb_queue_config_validate(&cfg)) return rb_cli_usage_error(cmd, "%s", rb_error_detail());
    rb_queue *q;
    rc = rb_pg_open(cmd, &cfg, &q);
    if (rc) return rc;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    worker_stats st = {0};
    rc = run_worker(&o, q, &st);
    free(st.claim_ns);
    rb_queue_close(q);
    return rc;
}
