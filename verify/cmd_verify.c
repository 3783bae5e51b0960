/*
 * cmd_verify.c — `ringbench verify` (the verification sweep, the seed's
 * example, verification codes) and `ringbench vnodes` (the vnode
 * recommender). Measuring is in sweep.c, codes in codes.c, printing in
 * report.c; this file parses options, loops and checks the properties each
 * algorithm claims (rb_algo.flags).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "codes.h"
#include "commands.h"
#include "json_out.h"
#include "report.h"
#include "sweep.h"

#ifndef RB_CODES_FILE
#define RB_CODES_FILE "impls/verification_codes.txt"
#endif

/* ------------------------------------------------------------------------ */
/* Option values shared by both commands                                     */

/* A list of whole numbers: "a..b" (every value), "a,b,c", or a mix. */
typedef struct u32_list {
    uint32_t *v;
    size_t n;
} u32_list;

static void u32_list_free(u32_list *l) {
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

/* A whole number of item `k` (from 1) of list option `opt` in [min, max], or a usage error
 * "--eps item 2: '99999999999999999999' is out of range (0..10000)". 0 or -1. */
static int list_number(const char *cmd, const char *opt, size_t k, const char *tok, uint32_t min,
                       uint32_t max, uint32_t *out) {
    char what[64];
    snprintf(what, sizeof what, "%s item %zu", opt, k + 1);
    return rb_cli_u32_arg(cmd, what, tok, min, max, out);
}

/* One value of a list and the item (from 0) it came from. */
typedef struct list_value {
    uint32_t v;
    size_t item;
} list_value;

static int list_value_cmp(const void *a, const void *b) {
    const list_value *x = a, *y = b;
    if (x->v != y->v) return x->v < y->v ? -1 : 1;
    return x->item < y->item ? -1 : x->item > y->item;
}

/* The first value listed twice in l (item of each from 0), or -1 with none. */
static int list_duplicate(const uint32_t *v, const size_t *item, size_t n, uint32_t *dup,
                          size_t *first, size_t *second) {
    list_value *s = malloc((n ? n : 1) * sizeof *s);
    if (!s) return -2;
    for (size_t i = 0; i < n; i++)
        s[i] = (list_value){v[i], item[i]};
    qsort(s, n, sizeof *s, list_value_cmp);
    int found = -1;
    for (size_t i = 1; i < n && found < 0; i++)
        if (s[i].v == s[i - 1].v) {
            *dup = s[i].v, *first = s[i - 1].item, *second = s[i].item;
            found = 0;
        }
    free(s);
    return found;
}

/* Parse `spec` ("a..b" for every value, "a,b,c", or a mix) into *out with every value in
 * [min, max]. An empty item, a value that is not a whole number or out of range, a range
 * a..b with a > b and a value listed twice (also through a range) are usage errors naming
 * the item (from 1). Prints the error and returns -1 on bad input. */
static int parse_u32_list(const char *cmd, const char *opt, const char *spec, uint32_t min,
                          uint32_t max, u32_list *out) {
    rb_cli_list items;
    if (rb_cli_list_split(cmd, opt, spec, (size_t)-1, &items)) return -1;
    u32_list l = {0};
    size_t cap = 0, *from = NULL;
    int rc = 0;
    for (size_t k = 0; k < items.n && !rc; k++) {
        char *tok = items.items[k];
        uint32_t lo, hi;
        char *dots = strstr(tok, "..");
        if (dots) *dots = '\0';
        rc = list_number(cmd, opt, k, tok, min, max, &lo);
        if (!rc) rc = dots ? list_number(cmd, opt, k, dots + 2, min, max, &hi) : (hi = lo, 0);
        if (!rc && lo > hi) {
            rb_cli_usage_error(cmd, "%s item %zu: range %u..%u is empty (N1 > N2)", opt, k + 1, lo,
                               hi);
            rc = -1;
        }
        for (uint64_t x = lo; !rc && x <= hi; x++) {
            if (l.n == cap) {
                cap = cap ? 2 * cap : 16;
                uint32_t *grown = realloc(l.v, cap * sizeof *grown);
                size_t *grown_from = grown ? realloc(from, cap * sizeof *grown_from) : NULL;
                if (grown) l.v = grown;
                if (grown_from) from = grown_from;
                if (!grown || !grown_from) {
                    rc = -1;
                    rb_cli_usage_error(cmd, "out of memory");
                    break;
                }
            }
            from[l.n] = k;
            l.v[l.n++] = (uint32_t)x;
        }
    }
    uint32_t dup;
    size_t first, second;
    int d = rc ? -1 : list_duplicate(l.v, from, l.n, &dup, &first, &second);
    if (d == -2) rc = -1, rb_cli_usage_error(cmd, "out of memory");
    if (d == 0) { /* two items: a range never holds a value twice */
        rc = -1;
        rb_cli_usage_error(cmd, "%s: %u is listed twice (items %zu and %zu)", opt, dup, first + 1,
                           second + 1);
    }
    free(from);
    rb_cli_list_free(&items);
    if (rc) {
        free(l.v);
        return -1;
    }
    u32_list_free(out);
    *out = l;
    return 0;
}

/* Parse a comma list of registered names with `lookup` into out[0..*n): an empty item or a
 * name listed twice is a usage error naming the item. */
static int parse_names(const char *cmd, const char *opt, const char *spec,
                       const void *(*lookup)(const char *), const void **out, size_t max,
                       size_t *n) {
    rb_cli_list items;
    if (rb_cli_list_split(cmd, opt, spec, max, &items)) return -1;
    int rc = rb_cli_list_unique(cmd, opt, &items);
    *n = 0;
    for (size_t k = 0; k < items.n && !rc; k++) {
        const void *x = lookup(items.items[k]);
        if (!x)
            rc = -1, rb_cli_usage_error(cmd, "%s item %zu: %s", opt, k + 1, rb_error_detail());
        else
            out[(*n)++] = x;
    }
    rb_cli_list_free(&items);
    return rc;
}
static const void *lookup_algo(const char *s) { return rb_algo_by_name(s); }
static const void *lookup_hash(const char *s) { return rb_hash_by_name(s); }

/* The key set: read from a file (one key per line, bytes kept) or generated
 * as "order:0" .. "order:<n-1>" like the seed's partition keys. */
static int load_keys(const char *cmd, const char *path, uint64_t n_generated, rb_key_list *keys) {
    if (path) {
        FILE *f = fopen(path, "rb");
        if (!f) return rb_cli_usage_error(cmd, "--keys: cannot open '%s'", path);
        int rc = rb_key_list_read(f, keys);
        fclose(f);
        if (rc) return rb_cli_fail(cmd, "--keys: cannot read '%s'", path);
        if (keys->n == 0) {
            rb_key_list_free(keys);
            return rb_cli_usage_error(cmd, "--keys: '%s' holds no keys", path);
        }
        return 0;
    }
    memset(keys, 0, sizeof *keys);
    size_t n = (size_t)n_generated;
    keys->storage = malloc(n * 24 + 1);
    keys->keys = malloc(n * sizeof *keys->keys);
    keys->len = malloc(n * sizeof *keys->len);
    if (!keys->storage || !keys->keys || !keys->len) {
        rb_key_list_free(keys);
        return rb_cli_fail(cmd, "out of memory for %zu keys", n);
    }
    for (size_t i = 0; i < n; i++) {
        keys->keys[i] = keys->storage + i * 24;
        keys->len[i] = (size_t)snprintf(keys->keys[i], 24, "order:%zu", i);
    }
    keys->n = n;
    return 0;
}

/* Every key must be valid input of every selected hash (fnv1a32-js: UTF-8). */
static int check_keys(const char *cmd, const rb_key_list *keys, const rb_hash *const *hashes,
                      size_t n_hashes) {
    for (size_t h = 0; h < n_hashes; h++)
        for (size_t k = 0; k < keys->n; k++)
            if (rb_hash_check(hashes[h], keys->keys[k], keys->len[k]))
                return rb_cli_usage_error(cmd, "key %zu: %s", k + 1, rb_error_detail());
    return 0;
}

static int is_opt(const char *arg, const char *name) { return strcmp(arg, name) == 0; }

/* Whether `arg` is one of the NULL-terminated option names. */
static int is_one_of(const char *arg, const char *const *names) {
    while (*names)
        if (is_opt(arg, *names++)) return 1;
    return 0;
}

/* Seeds of the random memberships: first_seed, first_seed + 1, ... Each seeds
 * its own splitmix64 generator (rb_sweep_ids), so `--seed X --seeds 1`
 * reproduces the membership of seed X alone. */
static void note_seeds(const char *cmd, int quiet, json_t *doc, FILE *f, rb_format fmt,
                       uint64_t first, uint32_t n) {
    if (fmt == RB_FMT_JSON) {
        json_t *seeds = json_array();
        for (uint32_t s = 0; s < n; s++)
            rb_json_push(seeds, rb_json_u64(first + s));
        rb_json_set(doc, "seeds", seeds);
    } else if (fmt == RB_FMT_CSV) {
        /* csv holds only rows: the seeds go to stderr (with the progress: not with --quiet) */
        if (!quiet)
            fprintf(stderr, "ringbench %s: member-id seeds %llu..%llu\n", cmd,
                    (unsigned long long)first, (unsigned long long)(first + n - 1));
    } else {
        rb_report_note(f, fmt,
                       "member-id seeds: %llu..%llu (worker-<hex> ids from splitmix64; "
                       "`--seed S --seeds 1` reproduces seed S)",
                       (unsigned long long)first, (unsigned long long)(first + n - 1));
    }
}

/* The member-id seeds first .. first + n_blocks * n - 1 must not wrap past 2^64 - 1
 * (they would silently become 0, 1, ...); else a usage error naming both counts
 * (n_blocks 0: the command has no --blocks). */
static int check_seed_range(const char *cmd, uint64_t first, uint32_t n_blocks, uint32_t n) {
    uint64_t total = (uint64_t)(n_blocks ? n_blocks : 1) * n;
    if (first <= UINT64_MAX - (total - 1)) return 0;
    if (n_blocks)
        return rb_cli_usage_error(cmd,
                                  "--seed %llu with --blocks %u x --seeds %u goes past the largest "
                                  "seed 18446744073709551615",
                                  (unsigned long long)first, n_blocks, n);
    return rb_cli_usage_error(cmd,
                              "--seed %llu with --seeds %u goes past the largest seed "
                              "18446744073709551615",
                              (unsigned long long)first, n);
}

/* Members for seeds first .. first+n_seeds-1, each a draw of `n` ids. */
typedef struct memberships {
    char *ids;
    rb_member *members; /* n_seeds rows of n */
    size_t n, n_seeds;
} memberships;

static int memberships_make(memberships *m, uint64_t first, size_t n_seeds, size_t n) {
    m->n = n;
    m->n_seeds = n_seeds;
    m->ids = malloc(n_seeds * n * RB_SWEEP_ID_BYTES);
    m->members = malloc(n_seeds * n * sizeof *m->members);
    if (!m->ids || !m->members) {
        free(m->ids), free(m->members);
        return rb_set_error(RB_ENOMEM, "out of memory for %zu memberships of %zu", n_seeds, n);
    }
    for (size_t s = 0; s < n_seeds; s++)
        rb_sweep_ids(first + s, n, m->ids + s * n * RB_SWEEP_ID_BYTES, m->members + s * n);
    return 0;
}

static void memberships_free(memberships *m) {
    free(m->ids);
    free(m->members);
}

/* ------------------------------------------------------------------------ */
/* ringbench verify                                                          */

static const char verify_help[] =
    "usage: ringbench verify [options]            the verification sweep\n"
    "       ringbench verify --seed-example       the seed's 3 -> 4 workers headline\n"
    "       ringbench verify --codes [--update]   check (or rewrite) the verification codes\n"
    "\n"
    "For every algorithm x hash x N x V: movement on adding a member and on removing\n"
    "the last and a middle member (over buckets and keys, as a ratio to the ideal\n"
    "1/(N+1) or 1/N), monotonicity violations, load spread, and agreement between\n"
    "algorithms that share a placement rule. Mean and worst over --seeds random\n"
    "memberships of worker-<hex> ids. Exit 1 when an algorithm breaks a property\n"
    "it claims (`ringbench list --format json` shows them): a monotone algorithm\n"
    "with violations, jump with violations on add/remove last, an order-free one\n"
    "whose owners change when the members are listed in reverse, a mean movement\n"
    "above its declared bound, a disagreement. modn (control) is expected to\n"
    "violate; nothing is reported for a property an algorithm does not claim.\n"
    "\n"
    "options:\n"
    "  --algo A[,A...]      algorithms (default: every registered one)\n"
    "  --members LIST       N values: N1..N2 and/or a,b,c (default 2..64)\n"
    "  --vnodes LIST        V values (default 1,2,4,...,1024); measured once per N for\n"
    "                       algorithms without vnodes\n"
    "  --hash H[,H...]      ring and bucket hash (default fnv1a32,xxh3)\n"
    "  --buckets B          buckets (default 1024)\n"
    "  --bucket-hash H      key -> bucket hash (default: the --hash of each row)\n"
    "  --table-source A     algorithm that fills `table` (default binary)\n"
    "  --param NAME=VALUE   a parameter of the algorithms that declare it (repeatable;\n"
    "                       `ringbench list`); recorded in each row's params\n"
    "  --keys FILE          keys, one per line (default: generated order:0 ..)\n"
    "  --n-keys K           generated keys (default 100000)\n"
    "  --seeds K            random memberships per case (default 5)\n"
    "  --seed S             first seed (default 1); seeds S .. S+K-1\n"
    "  --format F           text, json, csv or md (default text)\n"
    "  --quiet              no progress on stderr\n"
    "  --seed-example       print the seed's example (3 -> 4 workers, B 1024, V 128,\n"
    "                       fnv1a32 unless --hash) for every algorithm\n"
    "  --codes              recompute the verification codes and compare them with\n"
    "                       the codes file; exit 1 on a mismatch or a missing code\n"
    "  --update             with --codes: rewrite the codes file\n"
    "  --codes-file PATH    (default " RB_CODES_FILE ")\n";

#define MAX_NAMES 64

typedef struct verify_opts {
    const rb_algo *algos[MAX_NAMES];
    size_t n_algos;
    const rb_hash *hashes[MAX_NAMES];
    size_t n_hashes;
    u32_list members, vnodes;
    rb_cli_ring ring; /* --buckets, --bucket-hash, --table-source */
    const char *keys_path;
    uint64_t n_keys;
    uint32_t n_seeds;
    uint64_t first_seed;
    rb_format fmt;
    int quiet, codes, update, seed_example, hash_given;
    unsigned given; /* bit k: verify_value_opts[k] was given */
    const char *codes_file;
} verify_opts;

/* Movement of one change, accumulated over seeds. */
typedef struct change_acc {
    double sum_ratio, worst_ratio, sum_key_ratio, worst_key_ratio, sum_fraction;
    uint64_t worst_violations, worst_key_violations;
} change_acc;

static void change_add(change_acc *a, const rb_movement *m) {
    double r = m->moved_bucket_fraction / m->ideal_fraction;
    double kr = m->moved_key_fraction / m->ideal_fraction;
    a->sum_ratio += r;
    a->sum_fraction += m->moved_bucket_fraction;
    a->sum_key_ratio += kr;
    if (r > a->worst_ratio) a->worst_ratio = r;
    if (kr > a->worst_key_ratio) a->worst_key_ratio = kr;
    if (m->n_violating_buckets > a->worst_violations) a->worst_violations = m->n_violating_buckets;
    if (m->n_violating_keys > a->worst_key_violations)
        a->worst_key_violations = m->n_violating_keys;
}

/* Spread accumulated over seeds. */
typedef struct spread_acc {
    double sum_p2m, worst_p2m, worst_min, sum_cv;
} spread_acc;

static void spread_add(spread_acc *a, const rb_spread *s, int first) {
    a->sum_p2m += s->peak_to_mean;
    a->sum_cv += s->cv;
    if (first || s->peak_to_mean > a->worst_p2m) a->worst_p2m = s->peak_to_mean;
    if (first || s->min_to_mean < a->worst_min) a->worst_min = s->min_to_mean;
}

static const rb_col verify_cols[] = {
    {"algo", "algo", 10, RB_COL_STR},
    {"hash", "hash", 7, RB_COL_STR},
    {"n_members", "N", 3, RB_COL_U64},
    {"n_vnodes", "V", 5, RB_COL_U64},
    {"add_ratio_mean", "add/ideal", 9, RB_COL_F2},
    {"add_ratio_worst", "worst", 6, RB_COL_F2},
    {"add_violations_worst", "viol", 5, RB_COL_U64},
    {"remove_last_ratio_mean", "rmlast/ideal", 12, RB_COL_F2},
    {"remove_last_ratio_worst", "worst", 6, RB_COL_F2},
    {"remove_last_violations_worst", "viol", 5, RB_COL_U64},
    {"remove_middle_ratio_mean", "rmmid/ideal", 11, RB_COL_F2},
    {"remove_middle_ratio_worst", "worst", 6, RB_COL_F2},
    {"remove_middle_violations_worst", "viol", 5, RB_COL_U64},
    {"add_key_ratio_mean", "keys add/id", 11, RB_COL_F2},
    {"bucket_peak_to_mean_mean", "p2m", 6, RB_COL_F3},
    {"bucket_peak_to_mean_worst", "worst", 6, RB_COL_F3},
    {"bucket_min_to_mean_worst", "min/mean", 8, RB_COL_F3},
    {"bucket_cv_mean", "cv", 6, RB_COL_F3},
    {"integer_floor", "floor", 6, RB_COL_F3},
    {"bucket_sampling_floor_mean", "samp", 6, RB_COL_F3},
    {"key_peak_to_mean_mean", "key p2m", 7, RB_COL_F3},
    {"key_peak_to_mean_worst", "worst", 6, RB_COL_F3},
    /* csv/json only */
    {"key_min_to_mean_worst", "", 0, RB_COL_F3},
    {"key_cv_mean", "", 0, RB_COL_F3},
    {"add_ideal_fraction", "", 0, RB_COL_F4},
    {"add_moved_fraction_mean", "", 0, RB_COL_F4},
    {"remove_ideal_fraction", "", 0, RB_COL_F4},
    {"remove_last_moved_fraction_mean", "", 0, RB_COL_F4},
    {"remove_middle_moved_fraction_mean", "", 0, RB_COL_F4},
    {"add_key_ratio_worst", "", 0, RB_COL_F2},
    {"remove_last_key_ratio_mean", "", 0, RB_COL_F2},
    {"remove_middle_key_ratio_mean", "", 0, RB_COL_F2},
    {"add_key_violations_worst", "", 0, RB_COL_U64},
    {"remove_last_key_violations_worst", "", 0, RB_COL_U64},
    {"remove_middle_key_violations_worst", "", 0, RB_COL_U64},
    {"n_buckets", "", 0, RB_COL_U64},
    {"n_keys", "", 0, RB_COL_U64},
    {"n_seeds", "", 0, RB_COL_U64},
    {"params", "", 0, RB_COL_STR},         /* the algorithm's parameters, name=value,... */
    {"properties", "", 0, RB_COL_STR},     /* what it claims (rb_algo_flags), checked here */
    {"movement_bound", "", 0, RB_COL_F2},  /* declared, x ideal; empty when none */
    {"movement_excess", "", 0, RB_COL_F4}, /* declared extra fraction of all buckets */
};
#define N_VERIFY_COLS (sizeof verify_cols / sizeof verify_cols[0])

/* Property failures: printed to stderr as they happen (the first few), counted. */
typedef struct failures {
    uint64_t n;
} failures;

static void report_failure(failures *f, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void report_failure(failures *f, const char *fmt, ...) {
    if (f->n++ < 20) {
        va_list ap;
        va_start(ap, fmt);
        fputs("ringbench verify: PROPERTY FAILED: ", stderr);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
}

/* Whether `flags` claim monotonicity (and so the movement bound) for change k:
 * every change for RB_ALGO_MONOTONE, add and remove-last otherwise (jump's
 * end of the list; a non-monotone algorithm's declared bound, e.g. Maglev). */
static int claims_change(unsigned flags, rb_change_kind k) {
    return (flags & RB_ALGO_MONOTONE) || k != RB_CHANGE_REMOVE_MIDDLE;
}

/* Check the monotonicity an algorithm claims for one measured change. */
static void check_claims(failures *f, const rb_algo *a, unsigned flags, const rb_hash *h,
                         uint32_t n, uint32_t v, uint64_t seed, rb_change_kind k,
                         const rb_movement *m) {
    int claims = (flags & (RB_ALGO_MONOTONE | RB_ALGO_MONOTONE_LAST)) && claims_change(flags, k);
    if (claims && m->n_violating_buckets)
        report_failure(f,
                       "algo %s hash %s N %u V %u seed %llu %s: %llu buckets violate "
                       "monotonicity (expected 0)",
                       a->name, h->name, n, v, (unsigned long long)seed, rb_change_name(k),
                       (unsigned long long)m->n_violating_buckets);
}

/* The declared movement bound (rb_algo.movement_bound, movement_excess)
 * against the mean moved fraction over K seeds: allowed is bound x ideal +
 * excess, plus three standard
 * deviations of a mean of K binomial(B, ideal) fractions, so a small B or few
 * seeds do not fail an algorithm whose expectation is within the bound. */
static void check_bound(failures *f, const rb_algo *a, unsigned flags, const rb_config *cfg,
                        uint32_t n, const change_acc *ch, int has_remove, double K) {
    if (a->movement_bound <= 0) return;
    for (int k = 0; k < 3; k++) {
        if ((k && !has_remove) || !claims_change(flags, (rb_change_kind)k)) continue;
        double ideal = k == RB_CHANGE_ADD ? 1.0 / (n + 1) : 1.0 / n;
        double mean = ch[k].sum_fraction / K;
        double slack = 3 * sqrt(ideal * (1 - ideal) / (cfg->n_buckets * K));
        if (mean > a->movement_bound * ideal + a->movement_excess + slack)
            report_failure(f,
                           "algo %s hash %s N %u V %u %s: mean moved fraction %.4f exceeds the "
                           "declared bound %.2f x ideal %.4f + %.4f (+ %.4f sampling slack)",
                           a->name, cfg->ring_hash->name, n, cfg->n_vnodes,
                           rb_change_name((rb_change_kind)k), mean, a->movement_bound, ideal,
                           a->movement_excess, slack);
    }
}

/* An order-free claim (RB_ALGO_ORDER_FREE): the bucket table of the members
 * listed in reverse equals `base` (mapped back to the original indices). */
static int check_order_free(failures *f, const rb_algo *a, const rb_config *cfg, const rb_member *m,
                            uint32_t n, uint64_t seed, const uint32_t *base, uint32_t *scratch) {
    rb_member *rev = malloc(n * sizeof *rev);
    if (!rev) return rb_set_error(RB_ENOMEM, "out of memory for %u members", n);
    for (uint32_t i = 0; i < n; i++)
        rev[i] = m[n - 1 - i];
    int rc = rb_sweep_table(a, cfg, rev, n, scratch);
    free(rev);
    if (rc) return rc;
    uint64_t bad = 0;
    for (uint32_t b = 0; b < cfg->n_buckets; b++)
        bad += n - 1 - scratch[b] != base[b];
    if (bad)
        report_failure(f,
                       "algo %s hash %s N %u V %u seed %llu: claims order-free, yet %llu buckets "
                       "change owner when the members are listed in reverse (expected 0)",
                       a->name, cfg->ring_hash->name, n, cfg->n_vnodes, (unsigned long long)seed,
                       (unsigned long long)bad);
    return 0;
}

/* Measure one (algo, hash, N, V) row over the seeds and print it. */
static int verify_row(const verify_opts *o, rb_report *rep, const rb_algo *a, const rb_config *cfg,
                      const memberships *ms, uint32_t n, const uint32_t *kpb, uint64_t n_keys,
                      uint32_t *scratch, failures *fails, int uses_vnodes, double sampling) {
    change_acc ch[3] = {{0}};
    spread_acc bs = {0}, ks = {0};
    int has_remove = 0;
    unsigned flags = rb_algo_flags(a, cfg);
    for (size_t s = 0; s < ms->n_seeds; s++) {
        rb_case c;
        const rb_member *m = ms->members + s * ms->n;
        int rc = rb_sweep_case(a, cfg, m, n, kpb, n_keys, scratch, &c);
        if (!rc && (flags & RB_ALGO_ORDER_FREE)) /* scratch[0..B) holds the base table */
            rc = check_order_free(fails, a, cfg, m, n, o->first_seed + s, scratch,
                                  scratch + cfg->n_buckets);
        if (rc) return rc;
        has_remove = c.has_remove;
        for (int k = 0; k < 3; k++) {
            if (k && !c.has_remove) continue;
            change_add(&ch[k], &c.change[k]);
            check_claims(fails, a, flags, cfg->ring_hash, n, cfg->n_vnodes, o->first_seed + s,
                         (rb_change_kind)k, &c.change[k]);
        }
        spread_add(&bs, &c.bucket_spread, s == 0);
        spread_add(&ks, &c.key_spread, s == 0);
    }
    /* a control must be caught: a verifier that sees no violations of modn
     * cannot fail */
    check_bound(fails, a, flags, cfg, n, ch, has_remove, (double)ms->n_seeds);
    if ((flags & RB_ALGO_CONTROL) && n >= 2 && ch[RB_CHANGE_ADD].worst_violations == 0)
        report_failure(fails,
                       "control %s hash %s N %u: no monotonicity violation seen on add in %zu "
                       "seeds (expected some: the verifier must be able to fail)",
                       a->name, cfg->ring_hash->name, n, ms->n_seeds);
    double K = (double)ms->n_seeds, none = NAN;
    char params[256], props[128];
    rb_params_format(a, cfg, params, sizeof params);
    rb_algo_flags_format(flags, props, sizeof props);
    double rm_ideal = 1.0 / n;
#define RM(x) (has_remove ? (x) : none)
#define RMU(x) (has_remove ? (uint64_t)(x) : RB_CELL_NONE)
    rb_cell row[N_VERIFY_COLS] = {
        {.s = a->name},
        {.s = cfg->ring_hash->name},
        {.u = n},
        {.u = uses_vnodes ? cfg->n_vnodes : RB_CELL_NONE},
        {.d = ch[0].sum_ratio / K},
        {.d = ch[0].worst_ratio},
        {.u = ch[0].worst_violations},
        {.d = RM(ch[1].sum_ratio / K)},
        {.d = RM(ch[1].worst_ratio)},
        {.u = RMU(ch[1].worst_violations)},
        {.d = RM(ch[2].sum_ratio / K)},
        {.d = RM(ch[2].worst_ratio)},
        {.u = RMU(ch[2].worst_violations)},
        {.d = ch[0].sum_key_ratio / K},
        {.d = bs.sum_p2m / K},
        {.d = bs.worst_p2m},
        {.d = bs.worst_min},
        {.d = bs.sum_cv / K},
        {.d = rb_integer_floor(cfg->n_buckets, n)},
        {.d = sampling},
        {.d = ks.sum_p2m / K},
        {.d = ks.worst_p2m},
        {.d = ks.worst_min},
        {.d = ks.sum_cv / K},
        {.d = 1.0 / (n + 1)},
        {.d = ch[0].sum_fraction / K},
        {.d = RM(rm_ideal)},
        {.d = RM(ch[1].sum_fraction / K)},
        {.d = RM(ch[2].sum_fraction / K)},
        {.d = ch[0].worst_key_ratio},
        {.d = RM(ch[1].sum_key_ratio / K)},
        {.d = RM(ch[2].sum_key_ratio / K)},
        {.u = ch[0].worst_key_violations},
        {.u = RMU(ch[1].worst_key_violations)},
        {.u = RMU(ch[2].worst_key_violations)},
        {.u = cfg->n_buckets},
        {.u = n_keys},
        {.u = ms->n_seeds},
        {.s = params},
        {.s = props},
        {.d = a->movement_bound > 0 ? a->movement_bound : none},
        {.d = a->movement_bound > 0 ? a->movement_excess : none},
    };
#undef RM
#undef RMU
    rb_report_row(rep, row);
    fflush(rep->f);
    return 0;
}

/* Agreement totals per group. */
typedef struct agreement_acc {
    uint64_t n_compared, n_disagreeing_memberships, n_disagreeing_buckets;
} agreement_acc;

/* Whether any algorithm of the group is selected (agreement runs only then). */
static int group_selected(const verify_opts *o, const rb_agreement_group *g) {
    for (size_t v = 0; v < g->n_variants; v++)
        for (size_t a = 0; a < o->n_algos; a++)
            if (strcmp(o->algos[a]->name, g->variants[v].algo) == 0) return 1;
    return 0;
}

static int verify_agreement(const verify_opts *o, const rb_config *cfg, const memberships *ms,
                            uint32_t n, uint32_t *scratch, agreement_acc *acc, failures *fails) {
    for (size_t g = 0; g < rb_agreement_group_count(); g++) {
        const rb_agreement_group *grp = rb_agreement_group_at(g);
        if (!group_selected(o, grp)) continue;
        for (size_t s = 0; s < ms->n_seeds; s++) {
            uint64_t bad;
            size_t which;
            int rc =
                rb_sweep_agreement(grp, cfg, ms->members + s * ms->n, n, scratch, &bad, &which);
            if (rc) return rc;
            acc[g].n_compared++;
            if (!bad) continue;
            acc[g].n_disagreeing_memberships++;
            acc[g].n_disagreeing_buckets += bad;
            report_failure(fails,
                           "agreement (%s): %s%s%s differs from %s on %llu buckets (hash %s N %u "
                           "V %u seed %llu)",
                           grp->rule, grp->variants[which].algo,
                           grp->variants[which].table_source ? " from " : "",
                           grp->variants[which].table_source ? grp->variants[which].table_source
                                                             : "",
                           grp->variants[0].algo, (unsigned long long)bad, cfg->ring_hash->name, n,
                           cfg->n_vnodes, (unsigned long long)(o->first_seed + s));
        }
    }
    return 0;
}

/* The agreement groups: appended to `out` (json), or notes (text, md) / stderr lines (csv). */
static void print_agreement(const verify_opts *o, const agreement_acc *acc, json_t *out) {
    FILE *f = stdout;
    for (size_t g = 0; g < rb_agreement_group_count(); g++) {
        const rb_agreement_group *grp = rb_agreement_group_at(g);
        char names[256] = "";
        for (size_t v = 0; v < grp->n_variants; v++) {
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%s%s%s", v ? ", " : "",
                     grp->variants[v].algo, grp->variants[v].table_source ? " from " : "",
                     grp->variants[v].table_source ? grp->variants[v].table_source : "");
        }
        if (o->fmt == RB_FMT_JSON) {
            json_t *x = json_object();
            rb_json_set(x, "rule", rb_json_str(grp->rule));
            rb_json_set(x, "variants", rb_json_str(names));
            rb_json_set(x, "n_memberships_compared", rb_json_u64(acc[g].n_compared));
            rb_json_set(x, "n_disagreeing_memberships",
                        rb_json_u64(acc[g].n_disagreeing_memberships));
            rb_json_set(x, "n_disagreeing_buckets", rb_json_u64(acc[g].n_disagreeing_buckets));
            rb_json_push(out, x);
        } else if (o->fmt != RB_FMT_CSV) {
            rb_report_note(f, o->fmt,
                           "agreement, %s [%s]: %llu memberships compared, %llu disagree (%llu "
                           "buckets)",
                           grp->rule, names, (unsigned long long)acc[g].n_compared,
                           (unsigned long long)acc[g].n_disagreeing_memberships,
                           (unsigned long long)acc[g].n_disagreeing_buckets);
        } else {
            fprintf(stderr, "ringbench verify: agreement, %s [%s]: %llu compared, %llu disagree\n",
                    grp->rule, names, (unsigned long long)acc[g].n_compared,
                    (unsigned long long)acc[g].n_disagreeing_memberships);
        }
    }
}

/* Largest value of a list. */
static uint32_t list_max(const u32_list *l) {
    uint32_t m = 0;
    for (size_t i = 0; i < l->n; i++)
        if (l->v[i] > m) m = l->v[i];
    return m;
}

/* N <= B for every N, and (N+1) x V within RB_MAX_POINTS (the add builds
 * N+1 members); else a usage error. */
static int check_sizes(const char *cmd, const u32_list *members, uint32_t max_vnodes, uint32_t B) {
    uint32_t n = list_max(members);
    if (n > B) return rb_cli_usage_error(cmd, "--members: N %u is larger than B %u buckets", n, B);
    if ((uint64_t)(n + 1) * max_vnodes > RB_MAX_POINTS)
        return rb_cli_usage_error(cmd, "(N+1) x V = %u x %u vnodes exceeds the limit of %u points",
                                  n + 1, max_vnodes, RB_MAX_POINTS);
    return 0;
}

static int run_sweep(const verify_opts *o) {
    const char *cmd = "verify";
    int size_rc = check_sizes(cmd, &o->members, list_max(&o->vnodes), o->ring.cfg.n_buckets);
    if (size_rc) return size_rc;
    rb_key_list keys;
    int rc = load_keys(cmd, o->keys_path, o->n_keys, &keys);
    if (rc) return rc;
    /* keys meet only the bucket hash: the ring hash, or --bucket-hash */
    const rb_hash *const *key_hashes =
        o->ring.bucket_hash_set ? &o->ring.cfg.bucket_hash : o->hashes;
    if ((rc = check_keys(cmd, &keys, key_hashes, o->ring.bucket_hash_set ? 1 : o->n_hashes))) {
        rb_key_list_free(&keys);
        return rc;
    }
    uint32_t B = o->ring.cfg.n_buckets;
    uint32_t *kpb = malloc((size_t)B * sizeof *kpb),
             *scratch = malloc(2 * (size_t)B * sizeof *scratch);
    uint64_t *pos = malloc((size_t)B * sizeof *pos);
    /* one accumulator per agreement group: sized from the registry, which grows */
    agreement_acc *agree = calloc(rb_agreement_group_count() + 1, sizeof *agree);
    if (!kpb || !scratch || !pos || !agree) {
        free(kpb), free(scratch), free(pos), free(agree), rb_key_list_free(&keys);
        return rb_cli_fail(cmd, "out of memory for %u buckets", B);
    }
    FILE *f = stdout;
    json_t *doc = o->fmt == RB_FMT_JSON ? json_object() : NULL;
    if (doc) {
        rb_json_set(doc, "command", rb_json_str("verify"));
        rb_json_set(doc, "meta", rb_report_json_meta());
        rb_json_set(doc, "n_buckets", rb_json_u64(B));
        rb_json_set(doc, "n_keys", rb_json_u64(keys.n));
        rb_json_set(doc, "keys", rb_json_str(o->keys_path ? o->keys_path : "generated order:<i>"));
    } else {
        rb_report_note(f, o->fmt,
                       "ringbench verify: B %u buckets, %zu keys (%s), bucket hash %s, table "
                       "from %s, hash seed %llu",
                       B, keys.n, o->keys_path ? o->keys_path : "generated order:<i>",
                       o->ring.bucket_hash_set ? o->ring.cfg.bucket_hash->name : "= ring hash",
                       o->ring.cfg.table_source, (unsigned long long)o->ring.cfg.seed);
        rb_report_note(f, o->fmt,
                       "ratios are moved fraction / ideal (1/(N+1) add, 1/N remove); viol = "
                       "worst monotonicity violations (buckets) over seeds");
        rb_report_note(f, o->fmt,
                       "p2m = bucket peak-to-mean; floor = ceil(B/N)/(B/N); samp = sampling "
                       "floor (each bucket to a uniformly random member, mean over seeds)");
    }
    note_seeds("verify", o->quiet, doc, f, o->fmt, o->first_seed, o->n_seeds);
    rb_report rep;
    rb_report_begin(&rep, f, o->fmt, verify_cols, N_VERIFY_COLS);

    failures fails = {0};
    uint64_t t0 = rb_now_ns();
    size_t step = 0, n_steps = o->n_hashes * o->members.n;
    for (size_t h = 0; h < o->n_hashes && !rc; h++) {
        rb_config cfg = o->ring.cfg; /* B, table_source, hash seed */
        cfg.ring_hash = o->hashes[h];
        if (!o->ring.bucket_hash_set) cfg.bucket_hash = o->hashes[h];
        rb_keys_per_bucket(&cfg, keys.keys, keys.len, keys.n, kpb);
        rb_bucket_positions(&cfg, pos);
        for (size_t mi = 0; mi < o->members.n && !rc; mi++) {
            uint32_t n = o->members.v[mi];
            double sampling = 0;
            for (uint32_t s = 0; s < o->n_seeds; s++)
                sampling += rb_sampling_peak_to_mean(pos, B, n, o->first_seed + s, NULL);
            sampling /= o->n_seeds;
            if (!o->quiet)
                fprintf(stderr, "ringbench verify: [%zu/%zu] hash %s N %u (%.1f s)\n", ++step,
                        n_steps, o->hashes[h]->name, n, (double)(rb_now_ns() - t0) / 1e9);
            memberships ms;
            if ((rc = memberships_make(&ms, o->first_seed, o->n_seeds, (size_t)n + 1))) break;
            for (size_t vi = 0; vi < o->vnodes.n && !rc; vi++) {
                cfg.n_vnodes = o->vnodes.v[vi];
                rc = verify_agreement(o, &cfg, &ms, n, scratch, agree, &fails);
                for (size_t a = 0; a < o->n_algos && !rc; a++) {
                    int uses = (rb_algo_flags(o->algos[a], &cfg) & RB_ALGO_USES_VNODES) != 0;
                    if (!uses && vi > 0) continue; /* V does not change its mapping */
                    rc = verify_row(o, &rep, o->algos[a], &cfg, &ms, n, kpb, keys.n, scratch,
                                    &fails, uses, sampling);
                }
            }
            memberships_free(&ms);
        }
    }
    double elapsed_s = (double)(rb_now_ns() - t0) / 1e9;
    json_t *rows = rb_report_end(&rep), *agreement = doc ? json_array() : NULL;
    if (!rc) print_agreement(o, agree, agreement);
    int out_rc = 0;
    if (doc) {
        rb_json_set(doc, "rows", rows);
        rb_json_set(doc, "agreement", agreement);
        rb_json_set(doc, "n_property_failures", rb_json_u64(fails.n));
        rb_json_set(doc, "elapsed_s", rb_json_fixed(elapsed_s, 3));
        out_rc = rb_json_write_stdout(cmd, doc, RB_JSON_TOP_LINES);
    } else {
        rb_report_note(f, o->fmt, "property failures: %llu; elapsed %.1f s",
                       (unsigned long long)fails.n, elapsed_s);
    }
    if (!o->quiet) fprintf(stderr, "ringbench verify: done in %.1f s\n", elapsed_s);
    free(kpb), free(scratch), free(pos), free(agree), rb_key_list_free(&keys);
    if (rc) return rb_cli_fail(cmd, "%s", rb_error_detail());
    if (out_rc) return out_rc;
    if (fails.n)
        return rb_cli_fail(cmd, "%llu property failures (see the lines above)",
                           (unsigned long long)fails.n);
    return RB_EXIT_OK;
}

static const rb_col seed_cols[] = {
    {"algo", "algo", 10, RB_COL_STR},
    {"hash", "hash", 8, RB_COL_STR},
    {"moved_buckets", "moved (worker-1..3 +worker-4)", 29, RB_COL_U64},
    {"ideal_buckets", "ideal", 5, RB_COL_U64},
    {"ratio", "moved/ideal", 11, RB_COL_F2},
    {"violating_buckets", "not to new", 10, RB_COL_U64},
    {"random_moved_mean", "random ids: mean", 16, RB_COL_F2},
    {"random_moved_worst", "worst", 5, RB_COL_U64},
    {"n_seeds", "", 0, RB_COL_U64},
};

static int run_seed_example(const verify_opts *o) {
    const rb_hash *h = o->hash_given ? o->hashes[0] : &rb_hash_fnv1a32;
    FILE *f = stdout;
    json_t *doc = o->fmt == RB_FMT_JSON ? json_object() : NULL;
    if (doc) {
        rb_json_set(doc, "command", rb_json_str("verify --seed-example"));
        rb_json_set(doc, "meta", rb_report_json_meta());
        rb_json_set(doc, "n_members_before", rb_json_u64(RB_SEED_EXAMPLE_N));
        rb_json_set(doc, "n_buckets", rb_json_u64(RB_SEED_EXAMPLE_BUCKETS));
        rb_json_set(doc, "n_vnodes", rb_json_u64(RB_SEED_EXAMPLE_VNODES));
    } else {
        rb_report_note(f, o->fmt,
                       "the seed's example: %u -> %u workers, %u buckets, %u vnodes, hash %s; "
                       "ideal %u moved buckets",
                       RB_SEED_EXAMPLE_N, RB_SEED_EXAMPLE_N + 1, RB_SEED_EXAMPLE_BUCKETS,
                       RB_SEED_EXAMPLE_VNODES, h->name,
                       RB_SEED_EXAMPLE_BUCKETS / (RB_SEED_EXAMPLE_N + 1));
    }
    note_seeds("verify", o->quiet, doc, f, o->fmt, o->first_seed, o->n_seeds);
    rb_report rep;
    rb_report_begin(&rep, f, o->fmt, seed_cols, sizeof seed_cols / sizeof seed_cols[0]);
    for (size_t a = 0; a < o->n_algos; a++) {
        rb_seed_example ex;
        if (rb_seed_example_run(o->algos[a], h, o->n_seeds, o->first_seed, &ex)) {
            json_decref(rb_report_end(&rep));
            json_decref(doc);
            return rb_cli_fail("verify", "%s", rb_error_detail());
        }
        rb_cell row[] = {{.s = o->algos[a]->name},
                         {.s = h->name},
                         {.u = ex.n_moved_buckets},
                         {.u = ex.n_ideal_buckets},
                         {.d = (double)ex.n_moved_buckets / (double)ex.n_ideal_buckets},
                         {.u = ex.n_violating_buckets},
                         {.d = ex.mean_moved_buckets},
                         {.u = ex.worst_moved_buckets},
                         {.u = ex.n_seeds}};
        rb_report_row(&rep, row);
    }
    json_t *rows = rb_report_end(&rep);
    if (!doc) return RB_EXIT_OK;
    rb_json_set(doc, "rows", rows);
    return rb_json_write_stdout("verify", doc, RB_JSON_TOP_LINES);
}

static const rb_col code_cols[] = {
    {"algo", "algo", 10, RB_COL_STR},         {"hash", "hash", 10, RB_COL_STR},
    {"expected", "expected", 18, RB_COL_STR}, {"got", "got", 18, RB_COL_STR},
    {"status", "status", 8, RB_COL_STR},
};

/* Write every (registered algorithm, registered hash) code to `path`. */
static int write_codes(const char *path, const uint64_t *codes) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) return rb_cli_fail("verify", "cannot write %s", tmp);
    fprintf(f,
            "# ringbench verification codes, procedure version %d (verify/codes.h,\n"
            "# verify/README.md). Generated by `ringbench verify --codes --update`:\n"
            "# review every changed line -- a changed code is a changed mapping.\n"
            "# algo hash code\n",
            RB_CODES_VERSION);
    for (size_t a = 0; a < rb_algo_count(); a++)
        for (size_t h = 0; h < rb_hash_count(); h++)
            fprintf(f, "%s %s 0x%016llx\n", rb_algo_at(a)->name, rb_hash_at(h)->name,
                    (unsigned long long)codes[a * rb_hash_count() + h]);
    if (fclose(f) || rename(tmp, path)) return rb_cli_fail("verify", "cannot write %s", path);
    return RB_EXIT_OK;
}

static int run_codes(const verify_opts *o) {
    size_t n_algos = rb_algo_count(), n_hashes = rb_hash_count();
    uint64_t *got = malloc(n_algos * n_hashes * sizeof *got);
    if (!got) return rb_cli_fail("verify", "out of memory");
    for (size_t a = 0; a < n_algos; a++)
        for (size_t h = 0; h < n_hashes; h++)
            if (rb_verification_code(rb_algo_at(a), rb_hash_at(h), &got[a * n_hashes + h])) {
                free(got);
                return rb_cli_fail("verify", "%s: %s", rb_algo_at(a)->name, rb_error_detail());
            }
    if (o->update) {
        int rc = write_codes(o->codes_file, got);
        free(got);
        if (!rc)
            fprintf(stderr, "ringbench verify: wrote %zu codes to %s; review the diff\n",
                    n_algos * n_hashes, o->codes_file);
        return rc;
    }
    rb_code_entry *expected;
    size_t n_expected;
    int load = rb_codes_load(o->codes_file, &expected, &n_expected);
    if (load) { /* a file that cannot be read is bad input (exit 2, as --keys); bad lines, 1 */
        free(got);
        return load == RB_EIO ? rb_cli_usage_error("verify", "%s", rb_error_detail())
                              : rb_cli_fail("verify", "%s", rb_error_detail());
    }
    FILE *f = stdout;
    rb_report rep;
    rb_report_begin(&rep, f, o->fmt, code_cols, sizeof code_cols / sizeof code_cols[0]);
    size_t n_bad = 0;
    for (size_t a = 0; a < n_algos; a++) {
        for (size_t h = 0; h < n_hashes; h++) {
            const char *an = rb_algo_at(a)->name, *hn = rb_hash_at(h)->name;
            const rb_code_entry *e = rb_codes_find(expected, n_expected, an, hn);
            char exp_s[24] = "-", got_s[24];
            snprintf(got_s, sizeof got_s, "0x%016llx", (unsigned long long)got[a * n_hashes + h]);
            const char *status = "ok";
            if (!e) {
                status = "MISSING";
                fprintf(stderr,
                        "ringbench verify: no verification code for %s (hash %s) in %s: run "
                        "`ringbench verify --codes --update` and review\n",
                        an, hn, o->codes_file);
            } else {
                snprintf(exp_s, sizeof exp_s, "0x%016llx", (unsigned long long)e->code);
                if (e->code != got[a * n_hashes + h]) {
                    status = "MISMATCH";
                    fprintf(stderr,
                            "ringbench verify: verification code mismatch: algo %s hash %s "
                            "expected %s got %s (the mapping changed)\n",
                            an, hn, exp_s, got_s);
                }
            }
            n_bad += strcmp(status, "ok") != 0;
            rb_cell row[] = {{.s = an}, {.s = hn}, {.s = exp_s}, {.s = got_s}, {.s = status}};
            rb_report_row(&rep, row);
        }
    }
    json_t *rows = rb_report_end(&rep);
    free(got);
    free(expected);
    if (o->fmt == RB_FMT_JSON) {
        json_t *doc = json_object();
        rb_json_set(doc, "command", rb_json_str("verify --codes"));
        rb_json_set(doc, "rows", rows);
        rb_json_set(doc, "n_failed", rb_json_u64(n_bad));
        int out_rc = rb_json_write_stdout("verify", doc, RB_JSON_TOP_LINES);
        if (out_rc) return out_rc;
    }
    if (n_bad) return rb_cli_fail("verify", "%zu verification codes failed", n_bad);
    return RB_EXIT_OK;
}

static int set_default_list(u32_list *l, const uint32_t *v, size_t n) {
    l->v = malloc(n * sizeof *l->v);
    if (!l->v) return -1;
    memcpy(l->v, v, n * sizeof *v);
    l->n = n;
    return 0;
}

/* Options of `verify` with a value that verify_option handles itself (verify_opts.given bits). */
static const char *const verify_value_opts[] = {"--algo",       "--hash",   "--members", "--vnodes",
                                                "--keys",       "--n-keys", "--seeds",   "--seed",
                                                "--codes-file", NULL};
enum {
    V_ALGO = 1u << 0,
    V_HASH = 1u << 1,
    V_SEEDS = 1u << 6,
    V_SEED = 1u << 7,
    V_CODES_FILE = 1u << 8
};

/* Print a usage error and return -1 (the rb_cli_opt_fn convention). */
#define OPT_ERROR(...) (rb_cli_usage_error(__VA_ARGS__), -1)

/* rb_cli_opt_fn of `verify`: its own options, then the shared ring options
 * (--buckets, --bucket-hash, --table-source; --algo and --hash are lists
 * here, --seed is the member-id seed). */
static int verify_option(const char *cmd, void *ctx, int argc, char **argv, int *i) {
    verify_opts *o = ctx;
    const char *arg = argv[*i], *v;
    int *flag = is_opt(arg, "--quiet")          ? &o->quiet
                : is_opt(arg, "--codes")        ? &o->codes
                : is_opt(arg, "--update")       ? &o->update
                : is_opt(arg, "--seed-example") ? &o->seed_example
                                                : NULL;
    if (flag) return *flag = 1;
    int fmt = rb_cli_format_option(cmd, 1, &o->fmt, argc, argv, i);
    if (fmt) return fmt;
    if (!is_one_of(arg, verify_value_opts)) return rb_cli_ring_option(cmd, &o->ring, argc, argv, i);
    if (!(v = rb_cli_opt_value(cmd, argc, argv, i))) return -1;
    for (unsigned k = 0; verify_value_opts[k]; k++)
        if (is_opt(arg, verify_value_opts[k])) o->given |= 1u << k;
    if (is_opt(arg, "--algo"))
        return parse_names(cmd, arg, v, lookup_algo, (const void **)o->algos, MAX_NAMES,
                           &o->n_algos)
                   ? -1
                   : 1;
    if (is_opt(arg, "--hash")) {
        o->hash_given = 1;
        return parse_names(cmd, arg, v, lookup_hash, (const void **)o->hashes, MAX_NAMES,
                           &o->n_hashes)
                   ? -1
                   : 1;
    }
    if (is_opt(arg, "--members"))
        return parse_u32_list(cmd, arg, v, 1, RB_MAX_MEMBERS - 1, &o->members) ? -1 : 1;
    if (is_opt(arg, "--vnodes"))
        return parse_u32_list(cmd, arg, v, 1, RB_MAX_POINTS, &o->vnodes) ? -1 : 1;
    if (is_opt(arg, "--keys")) {
        o->keys_path = v;
        return 1;
    }
    if (is_opt(arg, "--codes-file")) {
        o->codes_file = v;
        return 1;
    }
    if (is_opt(arg, "--n-keys")) {
        uint32_t k;
        if (rb_cli_u32_arg(cmd, arg, v, 1, 100000000u, &k)) return -1;
        o->n_keys = k;
        return 1;
    }
    if (is_opt(arg, "--seeds")) return rb_cli_u32_arg(cmd, arg, v, 1, 100000, &o->n_seeds) ? -1 : 1;
    /* --seed */
    return rb_cli_u64_arg(cmd, arg, v, 0, UINT64_MAX, &o->first_seed) ? -1 : 1;
}

/* A run that reads only the options in `reads` (verify_value_opts bits; no ring option) refuses
 * the others, which it would ignore: 0, or -1 after the message (`what`: the run, `why`: what
 * fixes its case). */
static int refuse_unread(const char *cmd, const verify_opts *o, unsigned reads, const char *what,
                         const char *why) {
    const char *name = NULL;
    for (unsigned k = 0; !name && verify_value_opts[k]; k++)
        if ((o->given & ~reads) & (1u << k)) name = verify_value_opts[k];
    if (!name && o->ring.given) name = rb_cli_ring_option_name(o->ring.given);
    if (!name) return 0;
    rb_cli_usage_error(cmd, "%s does not read %s: %s", what, name, why);
    return -1;
}

/* Parse the options of `verify`. Returns RB_CLI_CONTINUE to go on, else an
 * exit code. */
static int parse_verify(int argc, char **argv, verify_opts *o) {
    const char *cmd = "verify";
    static const char *const help[] = {verify_help, NULL};
    int n_pos, rc = rb_cli_parse_args(cmd, help, verify_option, o, argc, argv, &n_pos);
    if (rc != RB_CLI_CONTINUE) return rc;
    if (n_pos) return rb_cli_usage_error(cmd, "unexpected argument '%s'", argv[1]);
    if (o->update && !o->codes) return rb_cli_usage_error(cmd, "--update needs --codes");
    if ((o->given & V_CODES_FILE) && !o->codes) /* a sweep would ignore it (helper-72) */
        return rb_cli_usage_error(cmd, "--codes-file needs --codes");
    if (o->codes && o->seed_example)
        return rb_cli_usage_error(cmd, "--codes and --seed-example are separate runs");
    if (o->seed_example && o->n_hashes > 1)
        return rb_cli_usage_error(cmd, "--seed-example takes one --hash, got %zu", o->n_hashes);
    if (o->seed_example &&
        refuse_unread(cmd, o, V_ALGO | V_HASH | V_SEEDS | V_SEED, "--seed-example",
                      "its case is fixed (3 -> 4 members, B 1024, V 128)"))
        return RB_EXIT_USAGE;
    if (o->codes && refuse_unread(cmd, o, V_CODES_FILE, "--codes",
                                  "the codes cover every algorithm and hash on fixed cases"))
        return RB_EXIT_USAGE;
    if (check_seed_range(cmd, o->first_seed, 0, o->n_seeds)) return RB_EXIT_USAGE;
    return RB_CLI_CONTINUE;
}

int rb_cmd_verify(int argc, char **argv) {
    verify_opts o = {.n_keys = 100000,
                     .n_seeds = 5,
                     .first_seed = 1,
                     .fmt = RB_FMT_TEXT,
                     .codes_file = RB_CODES_FILE};
    rb_cli_ring_init(&o.ring);
    int rc = parse_verify(argc, argv, &o);
    if (rc == RB_CLI_CONTINUE) {
        if (!o.n_algos)
            for (size_t a = 0; a < rb_algo_count() && a < MAX_NAMES; a++)
                o.algos[o.n_algos++] = rb_algo_at(a);
        if (!o.n_hashes) {
            o.hashes[o.n_hashes++] = &rb_hash_fnv1a32;
            o.hashes[o.n_hashes++] = &rb_hash_xxh3;
        }
        /* defaults: N = 2..64, V = 1, 2, 4, ..., 1024 */
        uint32_t pow2[11], all_n[63];
        for (int i = 0; i < 11; i++)
            pow2[i] = 1u << i;
        for (int i = 0; i < 63; i++)
            all_n[i] = (uint32_t)i + 2;
        if (rb_cli_ring_check_params("verify", &o.ring, o.algos, o.n_algos))
            rc = RB_EXIT_USAGE;
        else if ((!o.members.n && set_default_list(&o.members, all_n, 63)) ||
                 (!o.vnodes.n && set_default_list(&o.vnodes, pow2, 11)))
            rc = rb_cli_fail("verify", "out of memory");
        else if (o.codes)
            rc = run_codes(&o);
        else if (o.seed_example)
            rc = run_seed_example(&o);
        else
            rc = run_sweep(&o);
    }
    u32_list_free(&o.members);
    u32_list_free(&o.vnodes);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* ringbench vnodes                                                          */

static const char vnodes_help[] =
    "usage: ringbench vnodes --members N1..N2 [options]\n"
    "\n"
    "For each candidate V (powers of two 1 .. --max-vnodes) print the worst\n"
    "peak-to-mean load over every N in the range and every seed, the movement on\n"
    "adding a member as a ratio to the ideal 1/(N+1), the build time of one ring\n"
    "and the bytes held per member (both measured at N2), then recommend a V.\n"
    "The load is buckets per member, or keys per member with --keys.\n"
    "\n"
    "The recommendation must survive reseeding, so the memberships come in\n"
    "--blocks independent seed blocks of --seeds each (block b: seeds S + b*K ..\n"
    "S + b*K + K-1). Each block alone would choose the smallest V from which on\n"
    "(that V and every larger candidate) at least the --quantile share of its\n"
    "memberships (every N x --seeds) meets the target peak-to-mean; the command\n"
    "prints each block's choice, recommends the V every block meets (the largest\n"
    "of the choices), its margin (the smallest share of any block at that V minus\n"
    "the quantile) and whether the blocks agree. --quantile 1 asks for the worst\n"
    "case, which sits on the sampling floor and does not survive reseeding. The\n"
    "defaults (3 blocks of 100, quantile 0.95) make the blocks agree for the\n"
    "published parameters (ctest verify.vnodes_blocks_agree).\n"
    "\n"
    "Two floors bound what any V can reach: the integer floor ceil(B/N)/(B/N), and\n"
    "the sampling floor, the peak-to-mean when every bucket goes to a uniformly\n"
    "random member (what a ring tends to as V grows; hashed buckets never split\n"
    "evenly). When the target is below either, the command says so and which B\n"
    "would be needed.\n"
    "\n"
    "Beside V, bounded loads (Mirrokni, Thorup, Zadimoghaddam, SODA 2018;\n"
    "algorithm `bounded` over --algo at --bounded-vnodes) cap every member at\n"
    "ceil((1+eps)B/N) buckets: for each eps a row gives the worst bucket\n"
    "peak-to-mean over the same memberships (all blocks), that cap over B/N,\n"
    "and the movement on add and on removing a member against the ideal; the\n"
    "command names the largest listed eps that meets the target (the cheapest\n"
    "in movement: a smaller eps caps lower). Needs a positional --algo; in csv\n"
    "only the V table is printed.\n"
    "\n"
    "options:\n"
    "  --members N1..N2     member counts (or a list a,b,c), required\n"
    "  --algo A             algorithm (default binary)\n"
    "  --buckets B          buckets (default 1024)\n"
    "  --hash H             ring hash, and bucket hash unless --bucket-hash (default xxh3)\n"
    "  --bucket-hash H      key -> bucket hash\n"
    "  --table-source A     algorithm that fills `table` (default binary)\n"
    "  --target-peak T      target peak-to-mean, 1 .. 1048576 (default 1.10)\n"
    "  --keys FILE          measure key load over these keys (one per line)\n"
    "  --seeds K            random memberships per N in each seed block (default 100)\n"
    "  --blocks K           independent seed blocks (default 3, at most 16)\n"
    "  --quantile Q         share of memberships that must meet the target, 1e-6 .. 1\n"
    "                       (default 0.95)\n"
    "  --seed S             first seed (default 1)\n"
    "  --max-vnodes V       largest candidate (default 4096)\n"
    "  --eps LIST           bounded-loads eps values in percent (default 5,10,25,35 and\n"
    "                       the largest eps whose capacity meets the target at every N)\n"
    "  --bounded-vnodes V   V of the source ring under bounded loads (default 1)\n"
    "  --format F           text, json, csv or md (default text)\n"
    "  --quiet              no progress on stderr\n";

static const rb_col vnodes_cols[] = {
    {"n_vnodes", "V", 5, RB_COL_U64},
    {"peak_to_mean_worst", "worst p2m", 9, RB_COL_F3},
    {"worst_at_n_members", "at N", 4, RB_COL_U64},
    {"peak_to_mean_mean", "mean p2m", 8, RB_COL_F3},
    {"bucket_peak_to_mean_worst", "bucket p2m", 10, RB_COL_F3},
    {"add_ratio_mean", "add/ideal", 9, RB_COL_F2},
    {"add_ratio_worst", "worst", 6, RB_COL_F2},
    {"build_us_median", "build us", 9, RB_COL_F2},
    {"bytes_per_member", "bytes/member", 12, RB_COL_U64},
    {"meets_target", "meets", 5, RB_COL_STR},
    {"blocks_meeting", "blocks meeting", 14, RB_COL_U64},
    {"build_at_n_members", "", 0, RB_COL_U64},
};

/* Median build time (ns) of `reps` builds of the membership, and bytes held. */
static int time_builds(const rb_algo *a, const rb_config *cfg, const rb_member *m, size_t n,
                       double *ns_median, size_t *bytes) {
    enum { REPS = 5 };
    double t[REPS];
    for (int r = 0; r < REPS; r++) {
        rb_ring *ring;
        uint64_t t0 = rb_now_ns();
        int rc = rb_ring_build(a, cfg, m, n, &ring);
        t[r] = (double)(rb_now_ns() - t0);
        if (rc) return rc;
        *bytes = rb_ring_bytes_held(ring);
        rb_ring_destroy(ring);
    }
    for (int i = 1; i < REPS; i++)
        for (int j = i; j > 0 && t[j - 1] > t[j]; j--) {
            double x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    *ns_median = t[rb_nearest_rank(REPS, 50)]; /* the one percentile definition */
    return 0;
}

/* Smallest B' >= B whose integer floor is <= target for every N in the list
 * (0 when none up to RB_MAX_BUCKETS). */
static uint32_t buckets_needed(uint32_t B, const u32_list *ns, double target) {
    for (uint64_t b = B; b <= RB_MAX_BUCKETS; b++) {
        size_t i = 0;
        while (i < ns->n && rb_integer_floor((uint32_t)b, ns->v[i]) <= target + 1e-12)
            i++;
        if (i == ns->n) return (uint32_t)b;
    }
    return 0;
}

enum { VNODES_MAX_CANDIDATES = 17, VNODES_MAX_BLOCKS = 16 }; /* V = 1 .. 65536 */
enum { VNODES_MAX_EPS = 16 };                                /* --eps values */

struct vnodes_opts;
static double sampling_worst(const struct vnodes_opts *o, const rb_key_list *keys, uint32_t B,
                             uint32_t *worst_n);

typedef struct vnodes_opts {
    rb_cli_ring ring;    /* --algo --hash --buckets --bucket-hash --table-source */
    const rb_algo *algo; /* ring.algo, or binary */
    const rb_hash *hash;
    u32_list members, eps; /* eps: --eps, in percent */
    uint32_t n_buckets, n_seeds, n_blocks, max_vnodes, bounded_vnodes;
    uint64_t first_seed;
    double target, quantile; /* peak-to-mean target; share of memberships that must meet it */
    const char *keys_path;
    rb_format fmt;
    int quiet;
    int eps_given, bounded_vnodes_given; /* --eps, --bounded-vnodes given */
} vnodes_opts;

/* Options of `vnodes` with a value that vnodes_option handles itself. */
static const char *const vnodes_value_opts[] = {
    "--members",  "--target-peak", "--keys",   "--seeds", "--seed",           "--blocks",
    "--quantile", "--max-vnodes",  "--vnodes", "--eps",   "--bounded-vnodes", NULL};

/* Worst rb_sampling_peak_to_mean over the N list and the seeds with B
 * buckets (keys re-bucketed at B when given); -1 when out of memory. */
static double sampling_worst(const vnodes_opts *o, const rb_key_list *keys, uint32_t B,
                             uint32_t *worst_n) {
    rb_config cfg = o->ring.cfg;
    cfg.n_buckets = B;
    uint64_t *pos = malloc((size_t)B * sizeof *pos);
    uint32_t *kpb = o->keys_path ? malloc((size_t)B * sizeof *kpb) : NULL;
    double worst = 0;
    if (!pos || (o->keys_path && !kpb)) {
        worst = -1;
    } else {
        rb_bucket_positions(&cfg, pos);
        if (kpb) rb_keys_per_bucket(&cfg, keys->keys, keys->len, keys->n, kpb);
        for (size_t i = 0; i < o->members.n; i++)
            for (uint32_t s = 0; s < o->n_seeds; s++) {
                double p =
                    rb_sampling_peak_to_mean(pos, B, o->members.v[i], o->first_seed + s, kpb);
                if (p > worst) worst = p, *worst_n = o->members.v[i];
            }
    }
    free(pos), free(kpb);
    return worst;
}

/* Smallest B * 2^k (k >= 1, up to 2^22 buckets) whose sampling floor and
 * integer floor both meet the target for every N; 0 when none. */
static uint32_t buckets_for_target(const vnodes_opts *o, const rb_key_list *keys, uint32_t B) {
    for (uint64_t b = 2 * (uint64_t)B; b <= (1u << 22); b *= 2) {
        uint32_t at;
        double w = sampling_worst(o, keys, (uint32_t)b, &at);
        if (w < 0) return 0;
        int ok = w <= o->target;
        for (size_t i = 0; ok && i < o->members.n; i++)
            ok = rb_integer_floor((uint32_t)b, o->members.v[i]) <= o->target + 1e-12;
        if (ok) return (uint32_t)b;
    }
    return 0;
}

/* rb_cli_opt_fn of `vnodes`: its own options, then the shared ring options
 * (--algo, --hash, --buckets, --bucket-hash, --table-source). */
static int vnodes_option(const char *cmd, void *ctx, int argc, char **argv, int *i) {
    vnodes_opts *o = ctx;
    const char *arg = argv[*i], *v;
    if (is_opt(arg, "--quiet")) return o->quiet = 1;
    int fmt = rb_cli_format_option(cmd, 1, &o->fmt, argc, argv, i);
    if (fmt) return fmt;
    if (!is_one_of(arg, vnodes_value_opts)) return rb_cli_ring_option(cmd, &o->ring, argc, argv, i);
    if (!(v = rb_cli_opt_value(cmd, argc, argv, i))) return -1;
    if (is_opt(arg, "--members"))
        return parse_u32_list(cmd, arg, v, 1, RB_MAX_MEMBERS - 1, &o->members) ? -1 : 1;
    if (is_opt(arg, "--target-peak"))
        /* peak-to-mean is never below 1, nor above the member count */
        return rb_cli_double_arg(cmd, arg, v, 1, RB_MAX_MEMBERS, &o->target) ? -1 : 1;
    if (is_opt(arg, "--keys")) {
        o->keys_path = v;
        return 1;
    }
    if (is_opt(arg, "--seeds")) return rb_cli_u32_arg(cmd, arg, v, 1, 100000, &o->n_seeds) ? -1 : 1;
    if (is_opt(arg, "--seed"))
        return rb_cli_u64_arg(cmd, arg, v, 0, UINT64_MAX, &o->first_seed) ? -1 : 1;
    if (is_opt(arg, "--quantile"))
        /* above 0: below 1e-6 (a share of at most 100,000 seeds) is the minimum anyway */
        return rb_cli_double_arg(cmd, arg, v, 1e-6, 1, &o->quantile) ? -1 : 1;
    if (is_opt(arg, "--blocks"))
        return rb_cli_u32_arg(cmd, arg, v, 1, VNODES_MAX_BLOCKS, &o->n_blocks) ? -1 : 1;
    if (is_opt(arg, "--max-vnodes"))
        return rb_cli_u32_arg(cmd, arg, v, 1, 65536, &o->max_vnodes) ? -1 : 1;
    if (is_opt(arg, "--eps")) {
        o->eps_given = 1;
        return parse_u32_list(cmd, arg, v, 0, 10000, &o->eps) ? -1
               : o->eps.n > VNODES_MAX_EPS
                   ? OPT_ERROR(cmd, "--eps takes at most %d values, got %zu", VNODES_MAX_EPS,
                               o->eps.n)
                   : 1;
    }
    if (is_opt(arg, "--bounded-vnodes")) {
        o->bounded_vnodes_given = 1;
        return rb_cli_u32_arg(cmd, arg, v, 1, 65536, &o->bounded_vnodes) ? -1 : 1;
    }
    /* --vnodes */
    return OPT_ERROR(cmd, "--vnodes is what this command chooses; use --max-vnodes");
}

static int parse_vnodes(int argc, char **argv, vnodes_opts *o) {
    const char *cmd = "vnodes";
    static const char *const help[] = {vnodes_help, NULL};
    int n_pos, rc = rb_cli_parse_args(cmd, help, vnodes_option, o, argc, argv, &n_pos);
    if (rc != RB_CLI_CONTINUE) return rc;
    if (n_pos) return rb_cli_usage_error(cmd, "unexpected argument '%s'", argv[1]);
    if (!o->members.n) return rb_cli_usage_error(cmd, "--members N1..N2 is required");
    if (o->ring.algo) o->algo = o->ring.algo;
    if (rb_cli_ring_check_params(cmd, &o->ring, &o->algo, 1)) return RB_EXIT_USAGE;
    /* the bounded-loads options do something only where that section is measured */
    const char *bounded_opt = o->eps_given              ? "--eps"
                              : o->bounded_vnodes_given ? "--bounded-vnodes"
                                                        : NULL;
    if (bounded_opt && !o->algo->owner_position)
        return rb_cli_usage_error(cmd,
                                  "%s does not apply to --algo %s: bounded loads need a source "
                                  "with ring positions (e.g. binary)",
                                  bounded_opt, o->algo->name);
    if (o->bounded_vnodes_given && !(rb_algo_flags(o->algo, &o->ring.cfg) & RB_ALGO_USES_VNODES))
        return rb_cli_usage_error(
            cmd, "--bounded-vnodes does not apply to --algo %s: it has no vnodes", o->algo->name);
    if (bounded_opt && o->fmt == RB_FMT_CSV)
        return rb_cli_usage_error(cmd,
                                  "%s does not apply to --format csv (it prints the V table "
                                  "only; use text, md or json)",
                                  bounded_opt);
    o->hash = o->ring.cfg.ring_hash;
    o->n_buckets = o->ring.cfg.n_buckets;
    uint32_t v_max = 1;
    while (v_max * 2 <= o->max_vnodes)
        v_max *= 2; /* the largest candidate */
    int size_rc = check_sizes(cmd, &o->members, v_max, o->n_buckets);
    if (!size_rc) size_rc = check_seed_range(cmd, o->first_seed, o->n_blocks, o->n_seeds);
    return size_rc ? size_rc : RB_CLI_CONTINUE;
}

/* One candidate V: spreads and movement over every N and seed. */
typedef struct vnodes_row {
    double worst_p2m, sum_p2m, worst_bucket_p2m, sum_ratio, worst_ratio;
    uint32_t worst_n;
    uint64_t n_cases, n_meeting; /* memberships, and those whose peak-to-mean meets the target */
} vnodes_row;

/* Fold one block's row into the row over every block. */
static void vnodes_row_merge(vnodes_row *all, const vnodes_row *r) {
    if (r->worst_p2m > all->worst_p2m) all->worst_p2m = r->worst_p2m, all->worst_n = r->worst_n;
    if (r->worst_bucket_p2m > all->worst_bucket_p2m) all->worst_bucket_p2m = r->worst_bucket_p2m;
    if (r->worst_ratio > all->worst_ratio) all->worst_ratio = r->worst_ratio;
    all->sum_p2m += r->sum_p2m;
    all->sum_ratio += r->sum_ratio;
    all->n_cases += r->n_cases;
    all->n_meeting += r->n_meeting;
}

/* Measure V = cfg->n_vnodes over every N and the n_seeds memberships from
 * first_seed (one seed block) into row. */
static int vnodes_measure(const vnodes_opts *o, const rb_config *cfg, const uint32_t *kpb,
                          uint64_t n_keys, uint64_t first_seed, uint32_t *scratch,
                          vnodes_row *row) {
    memset(row, 0, sizeof *row);
    uint32_t B = cfg->n_buckets;
    for (size_t i = 0; i < o->members.n; i++) {
        uint32_t n = o->members.v[i];
        memberships ms;
        int rc = memberships_make(&ms, first_seed, o->n_seeds, (size_t)n + 1);
        if (rc) return rc;
        for (size_t s = 0; s < o->n_seeds && !rc; s++) {
            const rb_member *m = ms.members + s * ms.n;
            if ((rc = rb_sweep_table(o->algo, cfg, m, n, scratch))) break;
            if ((rc = rb_sweep_table(o->algo, cfg, m, n + 1, scratch + B))) break;
            rb_spread bs, ks;
            rb_sweep_spread(scratch, B, m, n, NULL, &bs);
            double p2m = bs.peak_to_mean;
            if (kpb) {
                rb_sweep_spread(scratch, B, m, n, kpb, &ks);
                p2m = ks.peak_to_mean;
            }
            rb_movement mv;
            rb_sweep_movement(scratch, scratch + B, B, n, RB_CHANGE_ADD, kpb, n_keys, &mv);
            double ratio =
                (kpb ? mv.moved_key_fraction : mv.moved_bucket_fraction) / mv.ideal_fraction;
            row->sum_p2m += p2m;
            row->sum_ratio += ratio;
            row->n_cases++;
            row->n_meeting += p2m <= o->target;
            if (p2m > row->worst_p2m) {
                row->worst_p2m = p2m;
                row->worst_n = n;
            }
            if (bs.peak_to_mean > row->worst_bucket_p2m) row->worst_bucket_p2m = bs.peak_to_mean;
            if (ratio > row->worst_ratio) row->worst_ratio = ratio;
        }
        memberships_free(&ms);
        if (rc) return rc;
    }
    return 0;
}

/* --- the recommendation (issue 14: it must survive reseeding) ------------ */

/* Each seed block at each candidate V: block b holds seeds first_seed +
 * b * n_seeds .. + n_seeds - 1; share = the fraction of its memberships
 * (every N x n_seeds) whose peak-to-mean meets the target. */
typedef struct vnodes_blocks {
    uint32_t n_v, n_blocks;
    uint32_t v[VNODES_MAX_CANDIDATES];
    double worst[VNODES_MAX_BLOCKS][VNODES_MAX_CANDIDATES];
    double share[VNODES_MAX_BLOCKS][VNODES_MAX_CANDIDATES];
} vnodes_blocks;

/* Index of the smallest candidate from which on (it and every larger one)
 * share[] >= quantile; -1 when none. A single lucky V below a miss is not a
 * recommendation. */
static int vnodes_choose(const double *share, uint32_t n_v, double quantile) {
    int chosen = -1;
    for (uint32_t i = 0; i < n_v; i++) {
        if (share[i] < quantile - 1e-12)
            chosen = -1;
        else if (chosen < 0)
            chosen = (int)i;
    }
    return chosen;
}

/* The recommendation over the blocks: the V every block meets from there
 * on (the largest of the blocks' choices), its margin (the smallest share
 * of any block at that V minus the quantile), and whether every block chose
 * the same V. */
typedef struct vnodes_pick {
    int chosen[VNODES_MAX_BLOCKS]; /* candidate index per block, -1: none */
    int rec;                       /* candidate index, -1 when some block has no choice */
    double margin;
    int agree;
} vnodes_pick;

static vnodes_pick vnodes_recommend(const vnodes_blocks *bl, double quantile) {
    vnodes_pick p = {.rec = -1, .agree = 1};
    int all = 1;
    for (uint32_t b = 0; b < bl->n_blocks; b++) {
        p.chosen[b] = vnodes_choose(bl->share[b], bl->n_v, quantile);
        if (p.chosen[b] < 0) all = 0;
        if (p.chosen[b] > p.rec) p.rec = p.chosen[b];
        if (p.chosen[b] != p.chosen[0]) p.agree = 0;
    }
    if (!all) p.rec = -1;
    if (p.rec >= 0) {
        double lo = 1;
        for (uint32_t b = 0; b < bl->n_blocks; b++)
            if (bl->share[b][p.rec] < lo) lo = bl->share[b][p.rec];
        p.margin = lo - quantile;
    }
    return p;
}

/* "256, 512, 1024" or "none" per block into buf. */
static void vnodes_block_choices(const vnodes_blocks *bl, const vnodes_pick *p, char *buf,
                                 size_t size) {
    size_t w = 0;
    buf[0] = 0;
    for (uint32_t b = 0; b < bl->n_blocks && w < size; b++) {
        int k = p->chosen[b] >= 0
                    ? snprintf(buf + w, size - w, "%s%u", b ? ", " : "", bl->v[p->chosen[b]])
                    : snprintf(buf + w, size - w, "%snone", b ? ", " : "");
        if (k < 0) break;
        w += (size_t)k;
    }
}

/* The recommendation sentence into verdict. */
static void vnodes_verdict(const vnodes_opts *o, const vnodes_blocks *bl, const vnodes_pick *p,
                           const char *members_desc, double best_p2m, uint32_t best_v,
                           char *verdict, size_t size) {
    char choices[256];
    vnodes_block_choices(bl, p, choices, sizeof choices);
    if (p->rec >= 0)
        snprintf(verdict, size,
                 "recommended V = %u: in every one of %u seed blocks (%u memberships for each N "
                 "in %s) at least %.1f%% of the memberships meet peak-to-mean %.3f from this V "
                 "on (and every larger candidate); margin %+.1f points (the smallest share of "
                 "any block at V = %u, %.1f%%, minus %.1f%%); the blocks alone would choose V = "
                 "%s (%s)",
                 bl->v[p->rec], bl->n_blocks, o->n_seeds, members_desc, o->quantile * 100,
                 o->target, p->margin * 100, bl->v[p->rec], (p->margin + o->quantile) * 100,
                 o->quantile * 100, choices, p->agree ? "they agree" : "they disagree");
    else
        snprintf(verdict, size,
                 "no V up to %u has %.1f%% of the memberships meet %.3f for every N in %s in "
                 "every seed block (block choices: %s); the lowest worst peak-to-mean is %.3f at "
                 "V = %u",
                 o->max_vnodes, o->quantile * 100, o->target, members_desc, choices, best_p2m,
                 best_v);
}

/* JSON fields of the blocks and the pick (after "rows"). */
static void vnodes_json_blocks(json_t *doc, const vnodes_opts *o, const vnodes_blocks *bl,
                               const vnodes_pick *p) {
    rb_json_set(doc, "quantile", rb_json_sig(o->quantile, 6));
    rb_json_set(doc, "n_blocks", rb_json_u64(bl->n_blocks));
    rb_json_set(doc, "seeds_per_block", rb_json_u64(o->n_seeds));
    json_t *blocks = json_array();
    for (uint32_t b = 0; b < bl->n_blocks; b++) {
        json_t *x = json_object(), *worst = json_array(), *share = json_array();
        rb_json_set(x, "first_seed", rb_json_u64(o->first_seed + (uint64_t)b * o->n_seeds));
        rb_json_set(x, "n_seeds", rb_json_u64(o->n_seeds));
        int c = p->chosen[b];
        rb_json_set(x, "recommended_vnodes", c >= 0 ? rb_json_u64(bl->v[c]) : json_null());
        rb_json_set(x, "margin",
                    c >= 0 ? rb_json_sig(bl->share[b][c] - o->quantile, 6) : json_null());
        for (uint32_t i = 0; i < bl->n_v; i++) {
            rb_json_push(worst, rb_json_sig(bl->worst[b][i], 6));
            rb_json_push(share, rb_json_sig(bl->share[b][i], 6));
        }
        rb_json_set(x, "peak_to_mean_worst", worst);
        rb_json_set(x, "share_meeting", share);
        rb_json_push(blocks, x);
    }
    rb_json_set(doc, "blocks", blocks);
    rb_json_set(doc, "blocks_agree", json_boolean(p->agree));
    rb_json_set(doc, "recommended_margin", p->rec >= 0 ? rb_json_sig(p->margin, 6) : json_null());
}

/* The two floors and their notes (see vnodes_help). */
typedef struct vnodes_floors {
    double integer, sampling;
    uint32_t integer_n, sampling_n, need_b, need_b_sampling;
    char floor_note[512], sampling_note[768];
} vnodes_floors;

static int vnodes_floors_measure(const vnodes_opts *o, const rb_key_list *keys, vnodes_floors *fl) {
    uint32_t B = o->n_buckets;
    memset(fl, 0, sizeof *fl);
    for (size_t i = 0; i < o->members.n; i++) {
        double x = rb_integer_floor(B, o->members.v[i]);
        if (x > fl->integer) fl->integer = x, fl->integer_n = o->members.v[i];
    }
    fl->sampling = sampling_worst(o, keys, B, &fl->sampling_n);
    if (fl->sampling < 0) return -1;
    if (o->target < fl->sampling) {
        fl->need_b_sampling = buckets_for_target(o, keys, B);
        int w =
            snprintf(fl->sampling_note, sizeof fl->sampling_note,
                     "target %.3f is below the sampling floor %.3f (N %u, the worst membership): "
                     "with %u hashed buckets even V -> infinity leaves about that spread, so no V "
                     "is expected to bring every membership to the target (the recommendation "
                     "asks only the quantile %.3f of them)",
                     o->target, fl->sampling, fl->sampling_n, B, o->quantile);
        if (w > 0 && fl->need_b_sampling)
            snprintf(fl->sampling_note + w, sizeof fl->sampling_note - (size_t)w,
                     "; measured by doubling B: B = %u brings both floors under the target",
                     fl->need_b_sampling);
        else if (w > 0)
            snprintf(fl->sampling_note + w, sizeof fl->sampling_note - (size_t)w,
                     "; no B up to 4194304 brings it under the target");
    }
    if (o->target < fl->integer) {
        fl->need_b = buckets_needed(B, &o->members, o->target);
        int w = snprintf(fl->floor_note, sizeof fl->floor_note,
                         "target %.3f is below the integer floor ceil(B/N)/(B/N) = %.4f at N %u "
                         "with B %u: no V reaches it for bucket load",
                         o->target, fl->integer, fl->integer_n, B);
        if (fl->need_b && w > 0)
            snprintf(fl->floor_note + w, sizeof fl->floor_note - (size_t)w,
                     "; B >= %u would be needed for every N in the range", fl->need_b);
    }
    return 0;
}

/* Header lines (text/md notes, or the opening JSON fields). */
static void vnodes_header(json_t *doc, FILE *f, const vnodes_opts *o, const rb_config *cfg,
                          const rb_key_list *keys, const char *members_desc, uint32_t n_max) {
    const char *load = o->keys_path ? "keys per member" : "buckets per member";
    if (doc) {
        rb_json_set(doc, "command", rb_json_str("vnodes"));
        rb_json_set(doc, "meta", rb_report_json_meta());
        rb_json_set(doc, "algo", rb_json_str(o->algo->name));
        rb_json_set(doc, "hash", rb_json_str(o->hash->name));
        rb_json_set(doc, "n_buckets", rb_json_u64(o->n_buckets));
        rb_json_set(doc, "members", rb_json_str(members_desc));
        rb_json_set(doc, "target_peak", rb_json_sig(o->target, 6));
        rb_json_set(doc, "load", rb_json_str(load));
        rb_json_set(doc, "n_keys", rb_json_u64(keys->n));
    } else {
        rb_report_note(f, o->fmt,
                       "ringbench vnodes: algo %s, hash %s, bucket hash %s, B %u, N %s, target "
                       "peak-to-mean %.3f (%s)",
                       o->algo->name, o->hash->name, cfg->bucket_hash->name, o->n_buckets,
                       members_desc, o->target, load);
        if (o->keys_path) rb_report_note(f, o->fmt, "keys: %s (%zu keys)", o->keys_path, keys->n);
        rb_report_note(f, o->fmt,
                       "worst/mean p2m over every N and seed of %u seed blocks of %u; add/ideal "
                       "= moved on adding one member / (1/(N+1)); build and bytes at N %u; "
                       "meets = the worst p2m meets the target; blocks meeting = seed blocks in "
                       "which at least %.1f%% of the memberships meet it",
                       o->n_blocks, o->n_seeds, n_max, o->quantile * 100);
    }
    note_seeds("vnodes", o->quiet, doc, f, o->fmt, o->first_seed, o->n_seeds * o->n_blocks);
}

/* Build time and bytes held per member at N n_max, seed first_seed. */
static int vnodes_build_cost(const vnodes_opts *o, const rb_config *cfg, uint32_t n_max, double *ns,
                             size_t *bytes) {
    rb_member *m = malloc(n_max * sizeof *m);
    char *idbuf = malloc((size_t)n_max * RB_SWEEP_ID_BYTES);
    int rc = (!m || !idbuf) ? rb_set_error(RB_ENOMEM, "out of memory") : 0;
    if (!rc) {
        rb_sweep_ids(o->first_seed, n_max, idbuf, m);
        rc = time_builds(o->algo, cfg, m, n_max, ns, bytes);
    }
    free(m), free(idbuf);
    return rc;
}

/* Whether V changes the mapping of the chosen algorithm (rb_algo_flags). */
static int vnodes_uses(const vnodes_opts *o) {
    return (rb_algo_flags(o->algo, &o->ring.cfg) & RB_ALGO_USES_VNODES) != 0;
}

/* The table: one row per candidate V over every block; fills bl. */
static int vnodes_rows(const vnodes_opts *o, rb_config *cfg, const uint32_t *kpb, size_t n_keys,
                       uint32_t *scratch, uint32_t n_max, FILE *f, json_t *doc, vnodes_blocks *bl,
                       double *best_p2m, uint32_t *best_v) {
    int uses = vnodes_uses(o), rc = 0;
    rb_report rep;
    rb_report_begin(&rep, f, o->fmt, vnodes_cols, sizeof vnodes_cols / sizeof vnodes_cols[0]);
    memset(bl, 0, sizeof *bl);
    bl->n_blocks = o->n_blocks;
    *best_p2m = INFINITY;
    for (uint32_t v = 1; v <= o->max_vnodes && !rc; v *= 2) {
        cfg->n_vnodes = v;
        if (!o->quiet) fprintf(stderr, "ringbench vnodes: V %u\n", v);
        vnodes_row row = {0}, one;
        uint32_t meeting = 0;
        for (uint32_t b = 0; b < o->n_blocks && !rc; b++) {
            uint64_t first = o->first_seed + (uint64_t)b * o->n_seeds;
            if ((rc = vnodes_measure(o, cfg, kpb, n_keys, first, scratch, &one))) break;
            bl->worst[b][bl->n_v] = one.worst_p2m;
            bl->share[b][bl->n_v] = (double)one.n_meeting / (double)one.n_cases;
            meeting += bl->share[b][bl->n_v] >= o->quantile - 1e-12;
            vnodes_row_merge(&row, &one);
        }
        double ns = 0;
        size_t bytes = 0;
        if (!rc) rc = vnodes_build_cost(o, cfg, n_max, &ns, &bytes);
        if (rc) break;
        bl->v[bl->n_v++] = v;
        if (row.worst_p2m < *best_p2m) *best_p2m = row.worst_p2m, *best_v = v;
        rb_cell cells[] = {
            {.u = uses ? v : RB_CELL_NONE},
            {.d = row.worst_p2m},
            {.u = row.worst_n},
            {.d = row.sum_p2m / (double)row.n_cases},
            {.d = row.worst_bucket_p2m},
            {.d = row.sum_ratio / (double)row.n_cases},
            {.d = row.worst_ratio},
            {.d = ns / 1e3},
            {.u = bytes / n_max},
            {.s = row.worst_p2m <= o->target ? "yes" : "no"},
            {.u = meeting},
            {.u = n_max},
        };
        rb_report_row(&rep, cells);
        fflush(f);
        if (!uses) break; /* V does not change the mapping: one row */
    }
    json_t *rows = rb_report_end(&rep);
    if (doc) rb_json_set(doc, "rows", rows);
    return rc;
}

/* --- the bounded-loads alternative (issue 13) ----------------------------- */

/* Default eps values in percent beside the one derived from the target. */
static const uint32_t vnodes_eps_default[] = {5, 10, 25, 35};

/* The capacity bound of impls/bounded.c as a peak-to-mean:
 * ceil((1 + eps) B / N) / (B / N), in integers (eps = eps_pct / 100). */
static double bounded_cap_p2m(uint32_t eps_pct, uint32_t B, uint32_t n) {
    uint64_t num = (uint64_t)(100 + eps_pct) * B, den = 100ULL * n;
    return (double)((num + den - 1) / den) * n / (double)B;
}

/* The largest eps_pct (0 .. 10000) whose capacity bound meets the target at
 * every N of the list: the cheapest eps that guarantees it; -1 when even
 * eps 0 misses (the target is below the integer floor). */
static int bounded_eps_for_target(const vnodes_opts *o) {
    int best = -1;
    for (uint32_t e = 0; e <= 10000; e++) {
        size_t i = 0;
        while (i < o->members.n &&
               bounded_cap_p2m(e, o->n_buckets, o->members.v[i]) <= o->target + 1e-12)
            i++;
        if (i < o->members.n) break;
        best = (int)e;
    }
    return best;
}

/* The eps list: --eps, or the defaults plus the one derived from the target
 * (when there is one); sorted, without repeats. Returns the count. */
static size_t bounded_eps_list(const vnodes_opts *o, int derived, uint32_t *eps) {
    uint32_t in[VNODES_MAX_EPS + 1];
    size_t n_in = 0, n = 0;
    for (size_t i = 0; i < o->eps.n; i++)
        in[n_in++] = o->eps.v[i];
    for (size_t i = 0; !o->eps.n && i < sizeof vnodes_eps_default / sizeof *vnodes_eps_default; i++)
        in[n_in++] = vnodes_eps_default[i];
    if (!o->eps.n && derived >= 0) in[n_in++] = (uint32_t)derived;
    for (size_t i = 0; i < n_in; i++) { /* insertion into eps[0 .. n) */
        size_t j = n;
        while (j > 0 && eps[j - 1] > in[i])
            j--;
        if (j > 0 && eps[j - 1] == in[i]) continue;
        memmove(eps + j + 1, eps + j, (n - j) * sizeof *eps);
        eps[j] = in[i], n++;
    }
    return n;
}

/* cfg for the wrapper: o's config at V = bounded_vnodes, the source o->algo
 * and eps_pct = eps (any eps_pct given with --param replaced). */
static int bounded_config(const vnodes_opts *o, uint32_t eps, rb_config *cfg) {
    *cfg = o->ring.cfg;
    uint32_t k = 0;
    for (uint32_t i = 0; i < cfg->n_params; i++)
        if (strcmp(cfg->params[i].name, "eps_pct")) cfg->params[k++] = cfg->params[i];
    cfg->n_params = k;
    cfg->n_vnodes = o->bounded_vnodes;
    cfg->table_source = o->algo->name;
    char assign[32];
    snprintf(assign, sizeof assign, "eps_pct=%u", eps);
    return rb_config_set_param(cfg, assign);
}

/* One eps over every N and seed of every block: bucket peak-to-mean, and
 * the moved fraction over its ideal on add and on remove (middle). */
typedef struct bounded_row {
    double worst_p2m, sum_p2m, worst_cap, sum_add, worst_add, sum_rm, worst_rm;
    uint32_t worst_n;
    uint64_t n_cases, n_rm;
} bounded_row;

static void bounded_row_add(bounded_row *r, const rb_case *c, double cap, uint32_t n) {
    double p2m = c->bucket_spread.peak_to_mean,
           add = c->change[RB_CHANGE_ADD].moved_bucket_fraction /
                 c->change[RB_CHANGE_ADD].ideal_fraction;
    if (p2m > r->worst_p2m) r->worst_p2m = p2m, r->worst_n = n, r->worst_cap = cap;
    if (add > r->worst_add) r->worst_add = add;
    r->sum_p2m += p2m, r->sum_add += add, r->n_cases++;
    if (!c->has_remove) return;
    const rb_movement *rm = &c->change[RB_CHANGE_REMOVE_MIDDLE];
    double ratio = rm->moved_bucket_fraction / rm->ideal_fraction;
    if (ratio > r->worst_rm) r->worst_rm = ratio;
    r->sum_rm += ratio, r->n_rm++;
}

static int bounded_measure(const vnodes_opts *o, const rb_config *cfg, uint32_t eps,
                           uint32_t *scratch, bounded_row *row) {
    const rb_algo *a = rb_algo_by_name("bounded");
    memset(row, 0, sizeof *row);
    for (size_t i = 0; i < o->members.n; i++) {
        uint32_t n = o->members.v[i];
        double cap = bounded_cap_p2m(eps, cfg->n_buckets, n);
        memberships ms;
        size_t n_seeds = (size_t)o->n_seeds * o->n_blocks;
        int rc = memberships_make(&ms, o->first_seed, n_seeds, (size_t)n + 1);
        if (rc) return rc;
        for (size_t s = 0; s < n_seeds && !rc; s++) {
            rb_case c;
            rc = rb_sweep_case(a, cfg, ms.members + s * ms.n, n, NULL, 0, scratch, &c);
            if (!rc) bounded_row_add(row, &c, cap, n);
        }
        memberships_free(&ms);
        if (rc) return rc;
    }
    return 0;
}

static const rb_col bounded_cols[] = {
    {"eps", "eps", 5, RB_COL_F2},
    {"n_vnodes", "V", 3, RB_COL_U64},
    {"peak_to_mean_worst", "worst p2m", 9, RB_COL_F3},
    {"worst_at_n_members", "at N", 4, RB_COL_U64},
    {"cap_peak_to_mean", "cap p2m", 7, RB_COL_F3},
    {"peak_to_mean_mean", "mean p2m", 8, RB_COL_F3},
    {"add_ratio_mean", "add/ideal", 9, RB_COL_F2},
    {"add_ratio_worst", "worst", 6, RB_COL_F2},
    {"remove_ratio_mean", "remove/ideal", 12, RB_COL_F2},
    {"remove_ratio_worst", "worst", 6, RB_COL_F2},
    {"meets_target", "meets", 5, RB_COL_STR},
    {"eps_pct", "", 0, RB_COL_U64},
};

/* The bounded rows and the largest eps among them that meets the target
 * (-1: none); rows in eps order. */
static int bounded_rows(const vnodes_opts *o, const uint32_t *eps, size_t n_eps, uint32_t *scratch,
                        FILE *f, json_t *doc, int *meeting) {
    rb_report rep;
    int rc = 0;
    *meeting = -1;
    rb_report_begin(&rep, f, o->fmt, bounded_cols, sizeof bounded_cols / sizeof bounded_cols[0]);
    for (size_t e = 0; e < n_eps && !rc; e++) {
        rb_config cfg;
        bounded_row r;
        if (!o->quiet) fprintf(stderr, "ringbench vnodes: bounded loads, eps %u%%\n", eps[e]);
        if ((rc = bounded_config(o, eps[e], &cfg)) ||
            (rc = bounded_measure(o, &cfg, eps[e], scratch, &r)))
            break;
        int meets = r.worst_p2m <= o->target;
        if (meets) *meeting = (int)eps[e];
        rb_cell cells[] = {
            {.d = eps[e] / 100.0},
            {.u = vnodes_uses(o) ? o->bounded_vnodes : RB_CELL_NONE},
            {.d = r.worst_p2m},
            {.u = r.worst_n},
            {.d = r.worst_cap},
            {.d = r.sum_p2m / (double)r.n_cases},
            {.d = r.sum_add / (double)r.n_cases},
            {.d = r.worst_add},
            {.d = r.n_rm ? r.sum_rm / (double)r.n_rm : NAN},
            {.d = r.n_rm ? r.worst_rm : NAN},
            {.s = meets ? "yes" : "no"},
            {.u = eps[e]},
        };
        rb_report_row(&rep, cells);
        fflush(f);
    }
    json_t *rows = rb_report_end(&rep);
    if (doc) rb_json_set(doc, "bounded_rows", rows);
    return rc;
}

/* The bounded-loads section: a table of eps against spread and movement at
 * V = --bounded-vnodes, then its verdict (issue 13). CSV holds one table:
 * there the verdict alone goes to stderr. */
static int vnodes_bounded(const vnodes_opts *o, uint32_t *scratch, FILE *f, json_t *doc) {
    char note[512];
    if (!o->algo->owner_position) {
        snprintf(note, sizeof note, "bounded loads need a positional source; %s is not one",
                 o->algo->name);
        if (doc) {
            rb_json_set(doc, "bounded_note", rb_json_str(note));
        } else {
            rb_report_note(o->fmt == RB_FMT_CSV ? stderr : f, o->fmt, "%s", note);
        }
        return 0;
    }
    int derived = bounded_eps_for_target(o), meeting;
    uint32_t eps[VNODES_MAX_EPS];
    size_t n_eps = bounded_eps_list(o, derived, eps);
    if (o->fmt == RB_FMT_TEXT || o->fmt == RB_FMT_MD)
        rb_report_note(f, o->fmt,
                       "bounded loads instead of more vnodes (impls/bounded.c over %s at V %u, "
                       "Mirrokni/Thorup/Zadimoghaddam SODA 2018): capacity ceil((1+eps)B/N) per "
                       "member; cap p2m = that over B/N at the worst N; bucket load; add/ideal on "
                       "adding a member (ideal 1/(N+1)), remove/ideal on removing the middle one "
                       "(ideal 1/N); every seed of every block",
                       o->algo->name, o->bounded_vnodes);
    FILE *tf = o->fmt == RB_FMT_CSV ? NULL : f;
    int rc = tf ? bounded_rows(o, eps, n_eps, scratch, tf, doc, &meeting) : 0;
    if (rc) return rc;
    if (!tf) meeting = -1;
    if (meeting >= 0)
        snprintf(
            note, sizeof note,
            "bounded loads: eps %.2f is the largest listed eps whose worst peak-to-mean meets "
            "the target %.3f at V %u (every smaller eps caps the load lower, at more movement)",
            meeting / 100.0, o->target, o->bounded_vnodes);
    else
        snprintf(note, sizeof note, "bounded loads: no listed eps meets the target %.3f at V %u",
                 o->target, o->bounded_vnodes);
    if (doc) {
        rb_json_set(doc, "bounded_vnodes", rb_json_u64(o->bounded_vnodes));
        rb_json_set(doc, "bounded_source", rb_json_str(o->algo->name));
        rb_json_set(doc, "bounded_eps_pct_meeting",
                    meeting >= 0 ? json_integer(meeting) : json_null());
        rb_json_set(doc, "bounded_eps_pct_for_target",
                    derived >= 0 ? json_integer(derived) : json_null());
        rb_json_set(doc, "bounded_note", rb_json_str(note));
    } else if (tf) {
        rb_report_note(f, o->fmt, "%s", note);
        if (derived >= 0)
            rb_report_note(f, o->fmt,
                           "the capacity bound guarantees the target for every N up to eps %.2f",
                           derived / 100.0);
    }
    return 0;
}

/* The floors and the verdict, after the table. */
static void vnodes_footer(json_t *doc, FILE *f, const vnodes_opts *o, const vnodes_floors *fl,
                          const vnodes_blocks *bl, const vnodes_pick *p, const char *verdict) {
    if (doc) {
        rb_json_set(doc, "integer_floor_worst", rb_json_sig(fl->integer, 6));
        rb_json_set(doc, "integer_floor_at_n_members", rb_json_u64(fl->integer_n));
        rb_json_set(doc, "recommended_vnodes",
                    p->rec >= 0 && vnodes_uses(o) ? rb_json_u64(bl->v[p->rec]) : json_null());
        if (fl->need_b) rb_json_set(doc, "buckets_needed_integer_floor", rb_json_u64(fl->need_b));
        rb_json_set(doc, "sampling_floor_worst", rb_json_sig(fl->sampling, 6));
        rb_json_set(doc, "sampling_floor_at_n_members", rb_json_u64(fl->sampling_n));
        if (fl->need_b_sampling)
            rb_json_set(doc, "buckets_needed", rb_json_u64(fl->need_b_sampling));
        rb_json_set(doc, "sampling_note", rb_json_str(fl->sampling_note));
        rb_json_set(doc, "verdict", rb_json_str(verdict));
        rb_json_set(doc, "floor_note", rb_json_str(fl->floor_note));
        vnodes_json_blocks(doc, o, bl, p);
    } else if (o->fmt == RB_FMT_CSV) {
        fprintf(stderr, "ringbench vnodes: %s\n", verdict);
        if (*fl->floor_note) fprintf(stderr, "ringbench vnodes: %s\n", fl->floor_note);
        if (*fl->sampling_note) fprintf(stderr, "ringbench vnodes: %s\n", fl->sampling_note);
    } else {
        rb_report_note(f, o->fmt, "integer floor: worst ceil(B/N)/(B/N) = %.4f (N %u)", fl->integer,
                       fl->integer_n);
        if (*fl->floor_note) rb_report_note(f, o->fmt, "%s", fl->floor_note);
        rb_report_note(f, o->fmt,
                       "sampling floor (V -> infinity: each bucket to a uniformly random member): "
                       "worst peak-to-mean %.3f (N %u)",
                       fl->sampling, fl->sampling_n);
        if (*fl->sampling_note) rb_report_note(f, o->fmt, "%s", fl->sampling_note);
        for (uint32_t b = 0; b < bl->n_blocks && vnodes_uses(o); b++) {
            unsigned long long first = o->first_seed + (uint64_t)b * o->n_seeds;
            if (p->chosen[b] >= 0)
                rb_report_note(f, o->fmt,
                               "seed block %u (seeds %llu..%llu): V = %u (%.1f%% of its "
                               "memberships meet the target there, worst peak-to-mean %.3f)",
                               b + 1, first, first + o->n_seeds - 1, bl->v[p->chosen[b]],
                               bl->share[b][p->chosen[b]] * 100, bl->worst[b][p->chosen[b]]);
            else
                rb_report_note(f, o->fmt, "seed block %u (seeds %llu..%llu): no V meets the target",
                               b + 1, first, first + o->n_seeds - 1);
        }
        rb_report_note(f, o->fmt, "%s", verdict);
    }
}

static int run_vnodes(const vnodes_opts *o) {
    const char *cmd = "vnodes";
    rb_key_list keys = {0};
    int rc;
    if (o->keys_path) {
        if ((rc = load_keys(cmd, o->keys_path, 0, &keys))) return rc;
        if ((rc = check_keys(cmd, &keys, &o->ring.cfg.bucket_hash, 1))) {
            rb_key_list_free(&keys);
            return rc;
        }
    }
    rb_config cfg = o->ring.cfg; /* hashes, B, table_source */
    uint32_t B = o->n_buckets;
    uint32_t *kpb = o->keys_path ? malloc((size_t)B * sizeof *kpb) : NULL;
    uint32_t *scratch = malloc(2 * (size_t)B * sizeof *scratch);
    if ((o->keys_path && !kpb) || !scratch) {
        free(kpb), free(scratch), rb_key_list_free(&keys);
        return rb_cli_fail(cmd, "out of memory for %u buckets", B);
    }
    if (kpb) rb_keys_per_bucket(&cfg, keys.keys, keys.len, keys.n, kpb);
    uint32_t n_max = list_max(&o->members), n_min = n_max;
    for (size_t i = 0; i < o->members.n; i++)
        if (o->members.v[i] < n_min) n_min = o->members.v[i];
    char members_desc[64];
    /* the smallest and largest N: a list such as 16,3 is not a range 16..3 */
    snprintf(members_desc, sizeof members_desc, "%u..%u (%zu values)", n_min, n_max, o->members.n);

    FILE *f = stdout;
    json_t *doc = o->fmt == RB_FMT_JSON ? json_object() : NULL;
    vnodes_header(doc, f, o, &cfg, &keys, members_desc, n_max);
    vnodes_blocks bl;
    double best_p2m;
    uint32_t best_v = 0;
    rc = vnodes_rows(o, &cfg, kpb, keys.n, scratch, n_max, f, doc, &bl, &best_p2m, &best_v);
    if (!rc) rc = vnodes_bounded(o, scratch, f, doc);
    vnodes_floors fl;
    int no_mem = !rc && vnodes_floors_measure(o, &keys, &fl);
    if (rc || no_mem) {
        free(kpb), free(scratch), rb_key_list_free(&keys);
        json_decref(doc);
        return rb_cli_fail(cmd, "%s", no_mem ? "out of memory" : rb_error_detail());
    }
    vnodes_pick p = vnodes_recommend(&bl, o->quantile);
    char verdict[768];
    if (!vnodes_uses(o))
        snprintf(verdict, sizeof verdict,
                 "%s does not use vnodes: worst peak-to-mean %.3f %s the target", o->algo->name,
                 best_p2m, best_p2m <= o->target ? "meets" : "misses");
    else
        vnodes_verdict(o, &bl, &p, members_desc, best_p2m, best_v, verdict, sizeof verdict);
    vnodes_footer(doc, f, o, &fl, &bl, &p, verdict);
    free(kpb), free(scratch), rb_key_list_free(&keys);
    return doc ? rb_json_write_stdout(cmd, doc, RB_JSON_TOP_LINES) : RB_EXIT_OK;
}

int rb_cmd_vnodes(int argc, char **argv) {
    vnodes_opts o = {.algo = rb_algo_by_name("binary"),
                     .n_seeds = 100,
                     .n_blocks = 3,
                     .quantile = 0.95,
                     .max_vnodes = 4096,
                     .bounded_vnodes = 1,
                     .first_seed = 1,
                     .target = 1.10,
                     .fmt = RB_FMT_TEXT};
    rb_cli_ring_init(&o.ring);
    int rc = parse_vnodes(argc, argv, &o);
    if (rc == RB_CLI_CONTINUE) rc = run_vnodes(&o);
    u32_list_free(&o.members);
    u32_list_free(&o.eps);
    return rc;
}
