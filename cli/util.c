/* util.c — shared CLI helpers (see cli.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void vreport(const char *cmd, const char *fmt, va_list ap) {
    fprintf(stderr, "ringbench %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int rb_cli_usage_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, fmt, ap);
    va_end(ap);
    return RB_EXIT_USAGE;
}

int rb_cli_fail(const char *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, fmt, ap);
    va_end(ap);
    return RB_EXIT_FAILURE;
}

int rb_cli_parse_args(const char *cmd, const char *const *help, rb_cli_opt_fn opt, void *ctx,
                      int argc, char **argv, int *n_pos) {
    /* the options given so far: a repeated one is an error, not "last wins"
     * (`--members a,b --members c` silently dropping a and b) */
    const char **seen = malloc((size_t)argc * sizeof *seen);
    if (!seen) return rb_cli_fail(cmd, "out of memory");
    int n = 0, n_seen = 0, options_done = 0, rc = RB_CLI_CONTINUE;
    for (int i = 1; i < argc && rc == RB_CLI_CONTINUE; i++) {
        const char *a = argv[i];
        if (!options_done && strcmp(a, "--") == 0) {
            options_done = 1;
        } else if (!options_done && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)) {
            int ring_cmd = 0;
            for (size_t k = 0; help && help[k]; k++) {
                fputs(help[k], stdout);
                ring_cmd |= help[k] == rb_cli_ring_help;
            }
            if (ring_cmd) rb_cli_print_algos(stdout);
            rc = RB_EXIT_OK;
        } else if (!options_done && strncmp(a, "--", 2) == 0) {
            /* --param NAME=VALUE repeats (one per name; rb_config_set_param
             * rejects a name given twice) */
            for (int k = 0; k < n_seen && rc == RB_CLI_CONTINUE && strcmp(a, "--param"); k++)
                if (strcmp(seen[k], a) == 0)
                    rc = rb_cli_usage_error(cmd, "%s is given twice (give each option once)", a);
            if (rc != RB_CLI_CONTINUE) break;
            seen[n_seen++] = a;
            int used = opt ? opt(cmd, ctx, argc, argv, &i) : 0;
            if (used < 0) rc = RB_EXIT_USAGE;
            if (used == 0) rc = rb_cli_usage_error(cmd, "unknown option '%s' (see --help)", a);
        } else {
            argv[1 + n++] = argv[i]; /* 1 + n <= i: that slot was already read */
        }
    }
    free(seen);
    *n_pos = n;
    return rc;
}

const char *rb_cli_opt_value(const char *cmd, int argc, char **argv, int *i) {
    if (*i + 1 >= argc) {
        rb_cli_usage_error(cmd, "%s needs a value", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

const char rb_cli_format_help[] = "  --format F         text, json or csv (default text)\n";

int rb_cli_format_option(const char *cmd, int allow_md, rb_format *fmt, int argc, char **argv,
                         int *i) {
    if (strcmp(argv[*i], "--format") != 0) return 0;
    const char *v = rb_cli_opt_value(cmd, argc, argv, i);
    if (!v) return -1;
    if (rb_cli_parse_format(v, allow_md, fmt)) {
        rb_cli_usage_error(cmd, "--format must be text, json%s or csv, got '%s'",
                           allow_md ? ", md" : "", v);
        return -1;
    }
    return 1;
}

int rb_cli_finish_output(const char *cmd) {
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout)) return 0;
    return rb_cli_fail(cmd, "writing output: %s", errno ? strerror(errno) : "write error");
}

int rb_cli_read_keys(const char *cmd, int n, char **argv, const rb_hash *h, rb_key_list *out) {
    errno = 0;
    if (n > 0 ? rb_key_list_from_argv(n, argv, out) : rb_key_list_read(stdin, out))
        return rb_cli_fail(cmd, "cannot read keys: %s", errno ? strerror(errno) : "out of memory");
    for (size_t k = 0; h && k < out->n; k++) {
        if (rb_hash_check(h, out->keys[k], out->len[k])) {
            rb_cli_usage_error(cmd, "key %zu: %s", k + 1, rb_error_detail());
            rb_key_list_free(out);
            return RB_EXIT_USAGE;
        }
    }
    return 0;
}

int rb_cli_parse_format(const char *s, int allow_md, rb_format *out) {
    static const struct {
        const char *name;
        rb_format fmt;
    } names[] = {
        {"text", RB_FMT_TEXT}, {"json", RB_FMT_JSON}, {"csv", RB_FMT_CSV}, {"md", RB_FMT_MD}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(s, names[i].name) == 0 && (allow_md || names[i].fmt != RB_FMT_MD)) {
            *out = names[i].fmt;
            return 0;
        }
    }
    return -1;
}

int rb_cli_parse_u64(const char *s, uint64_t *out) {
    if (!s || *s < '0' || *s > '9') return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end) return -1;
    *out = v;
    return 0;
}

int rb_cli_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out) {
    uint64_t v;
    if (rb_cli_parse_u64(s, &v) || v < min || v > max) return -1;
    *out = (uint32_t)v;
    return 0;
}

int rb_cli_parse_double(const char *s, double *out) {
    if (!s || !*s) return -1;
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (errno || *end || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

int rb_member_list_parse(const char *spec, rb_member_list *out, char *err, size_t err_size) {
    memset(out, 0, sizeof *out);
    size_t len = strlen(spec), n = 1;
    for (size_t i = 0; i < len; i++)
        n += spec[i] == ',';
    out->storage = malloc(len + 1);
    out->members = calloc(n, sizeof *out->members);
    if (!out->storage || !out->members) {
        snprintf(err, err_size, "out of memory");
        rb_member_list_free(out);
        return -1;
    }
    memcpy(out->storage, spec, len + 1);
    char *p = out->storage;
    for (size_t k = 0; k < n; k++) {
        char *end = strchr(p, ',');
        if (end) *end = '\0';
        rb_member *m = &out->members[k];
        m->weight = 1;
        char *eq = strrchr(p, '=');
        if (eq) {
            *eq = '\0';
            if (rb_cli_parse_u32(eq + 1, 0, UINT32_MAX, &m->weight)) {
                snprintf(err, err_size,
                         "member %zu: weight '%s' is not a whole number from 1 to %u", k, eq + 1,
                         (unsigned)RB_MAX_WEIGHT);
                rb_member_list_free(out);
                return -1;
            }
        }
        if (*p == '\0') {
            snprintf(err, err_size, "member %zu has an empty id (list '%s')", k, spec);
            rb_member_list_free(out);
            return -1;
        }
        m->id = p;
        m->id_len = strlen(p);
        p = end ? end + 1 : p + strlen(p);
    }
    out->n = n;
    return 0;
}

void rb_member_list_free(rb_member_list *l) {
    free(l->members);
    free(l->storage);
    memset(l, 0, sizeof *l);
}

/* Split storage[0..size) at LF into keys; the last line needs no LF. */
static int split_lines(rb_key_list *out, size_t size) {
    size_t n = 0;
    for (size_t i = 0; i < size; i++)
        n += out->storage[i] == '\n';
    if (size && out->storage[size - 1] != '\n') n++;
    out->keys = malloc((n ? n : 1) * sizeof *out->keys);
    out->len = malloc((n ? n : 1) * sizeof *out->len);
    if (!out->keys || !out->len) return -1;
    size_t start = 0, k = 0;
    for (size_t i = 0; i <= size && k < n; i++) {
        if (i == size || out->storage[i] == '\n') {
            out->keys[k] = out->storage + start;
            out->len[k++] = i - start;
            start = i + 1;
        }
    }
    out->n = n;
    return 0;
}

int rb_key_list_read(FILE *f, rb_key_list *out) {
    memset(out, 0, sizeof *out);
    size_t cap = 1 << 16, size = 0;
    out->storage = malloc(cap);
    if (!out->storage) return -1;
    for (;;) {
        if (size == cap) {
            char *grown = realloc(out->storage, cap *= 2);
            if (!grown) goto fail;
            out->storage = grown;
        }
        size_t got = fread(out->storage + size, 1, cap - size, f);
        size += got;
        if (got == 0) break;
    }
    if (ferror(f) || split_lines(out, size)) goto fail;
    return 0;
fail:
    rb_key_list_free(out);
    return -1;
}

int rb_key_list_from_argv(int argc, char **argv, rb_key_list *out) {
    memset(out, 0, sizeof *out);
    size_t total = 0;
    for (int i = 0; i < argc; i++)
        total += strlen(argv[i]) + 1;
    out->storage = malloc(total ? total : 1);
    out->keys = malloc((argc ? argc : 1) * sizeof *out->keys);
    out->len = malloc((argc ? argc : 1) * sizeof *out->len);
    if (!out->storage || !out->keys || !out->len) {
        rb_key_list_free(out);
        return -1;
    }
    char *p = out->storage;
    for (int i = 0; i < argc; i++) {
        size_t len = strlen(argv[i]);
        memcpy(p, argv[i], len + 1);
        out->keys[i] = p;
        out->len[i] = len;
        p += len + 1;
    }
    out->n = (size_t)argc;
    return 0;
}

void rb_key_list_free(rb_key_list *l) {
    free(l->keys);
    free(l->len);
    free(l->storage);
    memset(l, 0, sizeof *l);
}

void rb_csv_field(FILE *f, const void *data, size_t len) {
    const char *p = data;
    int quote = 0;
    for (size_t i = 0; i < len; i++)
        if (p[i] == ',' || p[i] == '"' || p[i] == '\n' || p[i] == '\r') quote = 1;
    if (!quote) {
        fwrite(p, 1, len, f);
        return;
    }
    fputc('"', f);
    for (size_t i = 0; i < len; i++) {
        if (p[i] == '"') fputc('"', f);
        fputc(p[i], f);
    }
    fputc('"', f);
}

void rb_cli_ring_init(rb_cli_ring *o) {
    memset(o, 0, sizeof *o);
    rb_config_init(&o->cfg);
}

const char rb_cli_ring_help[] =
    "  --algo A           ring algorithm (see `ringbench list`)\n"
    "  --members LIST     member ids, comma-separated; id=W gives weight W (default 1)\n"
    "  --vnodes V         vnodes per unit of weight (default 128)\n"
    "  --buckets B        buckets (default 1024)\n"
    "  --hash H           ring hash, and bucket hash unless --bucket-hash (default xxh3)\n"
    "  --bucket-hash H    key -> bucket hash (fnv1a32, fnv1a32-js, xxh3)\n"
    "  --seed S           seed of both hashes (default 0)\n"
    "  --table-source A   algorithm that fills `table` (default binary)\n"
    "  --param NAME=VALUE a parameter of the algorithm (repeatable; see below)\n";

void rb_cli_print_algos(FILE *f) {
    fputs("\nalgorithms (`ringbench list`) and their parameters:\n", f);
    for (size_t i = 0; i < rb_algo_count(); i++) {
        const rb_algo *a = rb_algo_at(i);
        fprintf(f, "  %-18s %s\n", a->name, a->description);
        for (size_t k = 0; a->params && k < a->n_params; k++)
            fprintf(f, "  %-18s   --param %s=N: %s (default %llu)\n", "", a->params[k].name,
                    a->params[k].help, (unsigned long long)a->params[k].def);
    }
}

int rb_cli_ring_option(const char *cmd, rb_cli_ring *o, int argc, char **argv, int *i) {
    static const char *const names[] = {"--algo",    "--members",      "--vnodes",
                                        "--buckets", "--hash",         "--bucket-hash",
                                        "--seed",    "--table-source", "--param"};
    size_t which = sizeof names / sizeof names[0];
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (strcmp(argv[*i], names[k]) == 0) which = k;
    if (which == sizeof names / sizeof names[0]) return 0;
    const char *v = rb_cli_opt_value(cmd, argc, argv, i);
    if (!v) return -1;
    switch (which) {
    case 0:
        if (!(o->algo = rb_algo_by_name(v))) goto unknown;
        break;
    case 1:
        o->members_spec = v;
        break;
    case 2:
        if (rb_cli_parse_u32(v, 1, RB_MAX_POINTS, &o->cfg.n_vnodes)) {
            rb_cli_usage_error(cmd, "--vnodes must be a whole number from 1 to %u, got '%s'",
                               RB_MAX_POINTS, v);
            return -1;
        }
        break;
    case 3:
        if (rb_cli_parse_u32(v, 1, RB_MAX_BUCKETS, &o->cfg.n_buckets)) {
            rb_cli_usage_error(cmd, "--buckets must be a whole number from 1 to %u, got '%s'",
                               RB_MAX_BUCKETS, v);
            return -1;
        }
        break;
    case 4:
        if (!(o->cfg.ring_hash = rb_hash_by_name(v))) goto unknown;
        if (!o->bucket_hash_set) o->cfg.bucket_hash = o->cfg.ring_hash;
        break;
    case 5:
        if (!(o->cfg.bucket_hash = rb_hash_by_name(v))) goto unknown;
        o->bucket_hash_set = 1;
        break;
    case 6:
        if (rb_cli_parse_u64(v, &o->cfg.seed)) {
            rb_cli_usage_error(cmd, "--seed must be a whole number, got '%s'", v);
            return -1;
        }
        break;
    case 7: {
        /* what the table build accepts: a positional algorithm (so not table
         * itself); checked here so every command rejects it as bad input
         * before any output, not as a failure in the middle of a sweep */
        const rb_algo *src = rb_algo_by_name(v);
        if (!src) goto unknown;
        if (!(src->flags & RB_ALGO_POSITIONAL)) {
            rb_cli_usage_error(cmd,
                               "--table-source must be an algorithm with ring positions "
                               "(not %s)",
                               v);
            return -1;
        }
        o->cfg.table_source = v;
        break;
    }
    case 8:
        if (rb_config_set_param(&o->cfg, v)) goto unknown;
        break;
    }
    return 1;
unknown:
    rb_cli_usage_error(cmd, "%s", rb_error_detail());
    return -1;
}

int rb_cli_ring_check_params(const char *cmd, const rb_cli_ring *o, const rb_algo *const *algos,
                             size_t n) {
    /* `table` reads the parameters of its source */
    const rb_algo *with_source[64];
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < 64; i++) {
        with_source[k++] = algos[i];
        if (strcmp(algos[i]->name, "table") == 0 && o->cfg.table_source)
            with_source[k++] = rb_algo_by_name(o->cfg.table_source);
    }
    if (rb_algo_check_params(with_source, k, &o->cfg) == 0) return 0;
    rb_cli_usage_error(cmd, "%s", rb_error_detail());
    return -1;
}

int rb_cli_ring_build(const char *cmd, rb_cli_ring *o, rb_member_list *members, rb_ring **out) {
    *out = NULL;
    if (!o->algo) return rb_cli_usage_error(cmd, "--algo is required (see `ringbench list`)");
    if (!o->members_spec) return rb_cli_usage_error(cmd, "--members is required");
    if (rb_cli_ring_check_params(cmd, o, &o->algo, 1)) return RB_EXIT_USAGE;
    char err[256];
    if (rb_member_list_parse(o->members_spec, members, err, sizeof err))
        return rb_cli_usage_error(cmd, "--members: %s", err);
    int rc = rb_ring_build(o->algo, &o->cfg, members->members, members->n, out);
    if (rc == 0) return 0;
    rb_member_list_free(members);
    if (rc == RB_ENOMEM) return rb_cli_fail(cmd, "%s", rb_error_detail());
    return rb_cli_usage_error(cmd, "%s", rb_error_detail());
}
