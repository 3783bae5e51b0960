/*
 * fuzz_options.c — numeric option values and the option parser every command
 * shares. The first input byte picks the check; the rest is the text.
 *   0: rb_cli_parse_u64 against an independent reading (non-empty, only
 *      decimal digits, fits in 64 bits => that value; else refused);
 *   1: rb_cli_parse_u32 with [min, max] from the next 8 bytes: accepted
 *      exactly when the u64 reading is in range;
 *   2: rb_cli_parse_double: accepted => finite, equal to strtod's value, and only
 *      digits, signs, a point and e (no hex, spaces, inf or nan);
 *   3: rb_cli_parse_format: accepted exactly for text, json, csv (md when
 *      allowed);
 *   other: the text split at LF is an argument list for rb_cli_parse_args
 *      with the ring options (rb_cli_ring_option) and --format: the result is
 *      one of the documented codes; on success every positional argument is
 *      one of the inputs, in order, and the parsed values are in range.
 * Diagnostics the parser prints go to /dev/null.
 */
#include <math.h>

#include "cli.h"
#include "fuzz_util.h"

static FILE *devnull;

/* Reference: decimal digits only, no overflow. */
static int ref_u64(const char *s, uint64_t *out) {
    if (!*s) return -1;
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return -1;
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10) return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

typedef struct {
    rb_cli_ring ring;
    rb_format fmt;
} opts;

static int opt(const char *cmd, void *ctx, int argc, char **argv, int *i) {
    opts *o = ctx;
    int used = rb_cli_ring_option(cmd, &o->ring, argc, argv, i);
    return used ? used : rb_cli_format_option(cmd, 1, &o->fmt, argc, argv, i);
}

static void check_args(char *text) {
    char *argv[34] = {"fuzz"}, *copy[34];
    int argc = 1;
    for (char *p = text; argc < 33;) {
        argv[argc++] = p;
        char *lf = strchr(p, '\n');
        if (!lf) break;
        *lf = 0;
        p = lf + 1;
    }
    memcpy(copy, argv, sizeof argv);
    opts o;
    rb_cli_ring_init(&o.ring);
    o.fmt = RB_FMT_TEXT;
    int n_pos = -1;
    FILE *err = stderr, *out = stdout;
    stderr = stdout = devnull;
    int rc = rb_cli_parse_args("fuzz", NULL, opt, &o, argc, argv, &n_pos);
    stderr = err;
    stdout = out;
    FUZZ_CHECK(rc == RB_CLI_CONTINUE || rc == RB_EXIT_OK || rc == RB_EXIT_USAGE, "rc %d", rc);
    FUZZ_CHECK(n_pos >= 0 && n_pos < argc, "n_pos %d of %d", n_pos, argc);
    if (rc != RB_CLI_CONTINUE) return;
    /* positionals: a subsequence of the inputs, in order */
    int k = 1;
    for (int i = 1; i <= n_pos; i++) {
        while (k < argc && copy[k] != argv[i])
            k++;
        FUZZ_CHECK(k < argc, "positional %d '%s' is not an input in order", i, argv[i]);
        k++;
    }
    const rb_config *c = &o.ring.cfg;
    FUZZ_CHECK(c->n_vnodes >= 1 && c->n_vnodes <= RB_MAX_POINTS, "V %u", c->n_vnodes);
    FUZZ_CHECK(c->n_buckets >= 1 && c->n_buckets <= RB_MAX_BUCKETS, "B %u", c->n_buckets);
    FUZZ_CHECK(c->ring_hash && c->bucket_hash, "hash unset");
    FUZZ_CHECK(o.fmt <= RB_FMT_MD, "format %d", (int)o.fmt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!devnull && !(devnull = fopen("/dev/null", "w"))) abort();
    fuzz_in in = {data, size};
    unsigned mode = fuzz_take_u8(&in);
    uint32_t lo = 0, hi = 0;
    if (mode == 1) lo = fuzz_take_u32(&in), hi = fuzz_take_u32(&in);
    char *s = fuzz_take_string(&in);
    uint64_t want = 0, got64 = 0;
    int ok = ref_u64(s, &want) == 0;
    if (mode == 0) {
        int rc = rb_cli_parse_u64(s, &got64);
        FUZZ_CHECK((rc == 0) == ok, "'%s': parse_u64 %d, reference %s", s, rc, ok ? "ok" : "no");
        FUZZ_CHECK(!ok || got64 == want, "'%s': %llu, want %llu", s, (unsigned long long)got64,
                   (unsigned long long)want);
    } else if (mode == 1) {
        uint32_t got = 0;
        int in_range = ok && want >= lo && want <= hi;
        int rc = rb_cli_parse_u32(s, lo, hi, &got);
        FUZZ_CHECK((rc == 0) == in_range, "'%s' in [%u, %u]: rc %d", s, lo, hi, rc);
        FUZZ_CHECK(!in_range || got == want, "'%s': %u", s, got);
    } else if (mode == 2) {
        double v = 0;
        if (rb_cli_parse_double(s, &v) == 0) {
            FUZZ_CHECK(isfinite(v), "'%s': not finite", s);
            FUZZ_CHECK(v == strtod(s, NULL), "'%s': %g", s, v);
            FUZZ_CHECK(strspn(s, "0123456789+-.eE") == strlen(s), "'%s': not decimal", s);
        }
    } else if (mode == 3) {
        rb_format f;
        int known = !strcmp(s, "text") || !strcmp(s, "json") || !strcmp(s, "csv");
        FUZZ_CHECK((rb_cli_parse_format(s, 0, &f) == 0) == known, "'%s' format", s);
        FUZZ_CHECK((rb_cli_parse_format(s, 1, &f) == 0) == (known || !strcmp(s, "md")),
                   "'%s' format (md allowed)", s);
    } else {
        check_args(s);
    }
    free(s);
    return 0;
}
