/* util.c — shared CLI helpers (see cli.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* The message goes through rb_text_field: a CR or newline from a key, an id or a server
 * message cannot break the one line or overwrite its start. */
static void vreport(const char *cmd, const char *fmt, va_list ap) {
    char msg[2048];
    int n = vsnprintf(msg, sizeof msg, fmt, ap);
    size_t len = n < 0 ? 0 : (size_t)n;
    if (len >= sizeof msg) { /* cut on a character boundary, and marked */
        len = rb_utf8_cut(msg, sizeof msg - 1, sizeof msg - 4);
        memcpy(msg + len, "...", 3);
        len += 3;
    }
    while (len && msg[len - 1] == '\n') /* a server message's own line end */
        len--;
    fprintf(stderr, "ringbench %s: ", cmd);
    rb_text_field(stderr, msg, len, 0);
    fputc('\n', stderr);
}

void rb_text_field(FILE *f, const void *data, size_t len, int width) {
    const unsigned char *p = data;
    int written = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = p[i];
        if (c >= 0x20 && c != 0x7F) {
            fputc(c, f), written++;
            continue;
        }
        const char *named = c == '\r' ? "\\r" : c == '\n' ? "\\n" : c == '\t' ? "\\t" : NULL;
        written += named ? fprintf(f, "%s", named) : fprintf(f, "\\x%02x", c);
    }
    for (; written < width; written++)
        fputc(' ', f);
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
            if (ring_cmd) rb_cli_print_algos(stdout, 1);
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

int rb_cli_nonempty(const char *cmd, const char *opt, const char *v) {
    return *v ? 0 : rb_cli_usage_error(cmd, "%s: empty value (omit it for the default)", opt);
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

/* mkdir -p m->path, recording in m the prefixes it created (outermost first; past
 * RB_CLI_OUT_MADE_MAX, not recorded: they stay). 0, or -1 with errno. */
static int mkdir_parents(rb_cli_out_made *m) {
    char buf[sizeof m->path];
    snprintf(buf, sizeof buf, "%s", m->path);
    for (char *s = buf + 1;; s++) {
        if (*s && *s != '/') continue;
        char c = *s;
        *s = '\0'; /* "a/" (an empty component) and "a/." exist once "a" does: EEXIST */
        if (mkdir(buf, 0777) == 0) {
            if (m->n_made < RB_CLI_OUT_MADE_MAX) m->made_len[m->n_made++] = (size_t)(s - buf);
        } else if (errno != EEXIST) {
            return -1;
        }
        if (!c) return 0;
        *s = c;
    }
}

void rb_cli_out_dir_undo(rb_cli_out_made *m) {
    char buf[sizeof m->path];
    while (m->n_made) { /* innermost first; each only when empty (rmdir) */
        snprintf(buf, sizeof buf, "%.*s", (int)m->made_len[--m->n_made], m->path);
        rmdir(buf);
    }
}

int rb_cli_folder_entry(const char *path, char *name, size_t size) {
    DIR *d = opendir(path);
    if (!d) return 0;
    int found = 0;
    for (struct dirent *e; !found && (e = readdir(d));)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            found = 1, snprintf(name, size, "%s", e->d_name);
    closedir(d);
    return found;
}

int rb_cli_out_dir(const char *cmd, const char *opt, const char *path, rb_cli_out_made *made) {
    struct stat st;
    errno = 0;
    const char *why = NULL;
    rb_cli_out_made m = {.n_made = 0};
    if (!*path)
        why = "empty path";
    else if (snprintf(m.path, sizeof m.path, "%s", path) >= (int)sizeof m.path)
        why = strerror(ENAMETOOLONG);
    else if (mkdir_parents(&m) || stat(path, &st))
        why = strerror(errno);
    else if (!S_ISDIR(st.st_mode))
        why = "it exists and is not a folder";
    else if (access(path, W_OK | X_OK))
        return rb_cli_out_dir_undo(&m), /* it exists: not "cannot create" */
               rb_cli_usage_error(cmd, "cannot write to %s folder '%s': %s", opt, path,
                                  strerror(errno));
    char entry[256];
    int full = !why && rb_cli_folder_entry(path, entry, sizeof entry); /* an earlier run's */
    if (why || full) rb_cli_out_dir_undo(&m); /* refused: what it made goes again */
    if (made) *made = m;
    if (full)
        return rb_cli_usage_error(cmd,
                                  "%s folder '%s' is not empty (it holds '%s'): a run would "
                                  "overwrite or mix with it; give a new or empty folder",
                                  opt, path, entry);
    if (!why) return 0;
    if (errno == ENOENT && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        why = "it is a symbolic link to nothing";
    return rb_cli_usage_error(cmd, "cannot create %s folder '%s': %s", opt, path, why);
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

int rb_cli_whole(const char *s, uint64_t min, uint64_t max, uint64_t *out) {
    if (!s || !*s) return RB_CLI_NOT_WHOLE;
    for (const char *p = s; *p; p++)
        if (*p < '0' || *p > '9') return RB_CLI_NOT_WHOLE;
    errno = 0;
    unsigned long long v = strtoull(s, NULL, 10);
    if (errno == ERANGE || v < min || v > max) return RB_CLI_OUT_OF_RANGE; /* past 2^64 - 1 too */
    *out = v;
    return 0;
}

/* The one wording of a bad number: out of range, or not a `kind` ("whole", "decimal")
 * number; lo and hi are the range's bounds as printed. */
static size_t number_message(const char *what, const char *s, int out_of_range, const char *kind,
                             const char *lo, const char *hi, char *buf, size_t size) {
    int w = out_of_range ? snprintf(buf, size, "%s: %s is out of range (%s..%s)", what, s, lo, hi)
                         : snprintf(buf, size, "%s must be a %s number from %s to %s, got '%s'",
                                    what, kind, lo, hi, s);
    return w < 0 ? 0 : (size_t)w;
}

size_t rb_cli_whole_message(const char *what, const char *s, int rc, uint64_t min, uint64_t max,
                            char *buf, size_t size) {
    char lo[24], hi[24];
    snprintf(lo, sizeof lo, "%llu", (unsigned long long)min);
    snprintf(hi, sizeof hi, "%llu", (unsigned long long)max);
    return number_message(what, s, rc == RB_CLI_OUT_OF_RANGE, "whole", lo, hi, buf, size);
}

int rb_cli_u64_arg(const char *cmd, const char *what, const char *s, uint64_t min, uint64_t max,
                   uint64_t *out) {
    int rc = rb_cli_whole(s, min, max, out);
    if (rc == 0) return 0;
    char msg[512];
    rb_cli_whole_message(what, s, rc, min, max, msg, sizeof msg);
    rb_cli_usage_error(cmd, "%s", msg);
    return -1;
}

int rb_cli_u32_arg(const char *cmd, const char *what, const char *s, uint32_t min, uint32_t max,
                   uint32_t *out) {
    uint64_t v;
    if (rb_cli_u64_arg(cmd, what, s, min, max, &v)) return -1;
    *out = (uint32_t)v;
    return 0;
}

int rb_cli_parse_u64(const char *s, uint64_t *out) {
    return rb_cli_whole(s, 0, UINT64_MAX, out) ? -1 : 0;
}

int rb_cli_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out) {
    uint64_t v;
    if (rb_cli_whole(s, min, max, &v)) return -1;
    *out = (uint32_t)v;
    return 0;
}

int rb_cli_list_split(const char *cmd, const char *opt, const char *spec, size_t max_items,
                      rb_cli_list *out) {
    memset(out, 0, sizeof *out);
    size_t len = strlen(spec), n = 1;
    for (size_t i = 0; i < len; i++)
        n += spec[i] == ',';
    if (len == 0) return rb_cli_usage_error(cmd, "%s: empty list", opt), -1;
    if (n > max_items)
        return rb_cli_usage_error(cmd, "%s takes at most %zu items, got %zu ('%s')", opt, max_items,
                                  n, spec),
               -1;
    out->storage = malloc(len + 1);
    out->items = malloc(n * sizeof *out->items);
    if (!out->storage || !out->items) {
        rb_cli_list_free(out);
        return rb_cli_usage_error(cmd, "out of memory"), -1;
    }
    memcpy(out->storage, spec, len + 1);
    char *p = out->storage;
    for (size_t k = 0; k < n; k++) {
        char *end = strchr(p, ',');
        if (end) *end = '\0';
        if (!*p) {
            rb_cli_usage_error(cmd, "%s: item %zu of '%s' is empty (items count from 1)", opt,
                               k + 1, spec);
            rb_cli_list_free(out);
            return -1;
        }
        out->items[k] = p;
        p = end ? end + 1 : p + strlen(p);
    }
    out->n = n;
    return 0;
}

int rb_cli_list_unique(const char *cmd, const char *opt, const rb_cli_list *l) {
    for (size_t j = 1; j < l->n; j++)
        for (size_t i = 0; i < j; i++)
            if (strcmp(l->items[i], l->items[j]) == 0)
                return rb_cli_usage_error(cmd, "%s: '%s' is listed twice (items %zu and %zu)", opt,
                                          l->items[j], i + 1, j + 1),
                       -1;
    return 0;
}

void rb_cli_list_free(rb_cli_list *l) {
    free(l->items);
    free(l->storage);
    memset(l, 0, sizeof *l);
}

/* Is s a decimal number, whole string: [+-] digits [. digits] [(e|E) [+-] digits], with digits
 * on at least one side of the point? strtod alone also reads leading spaces, hex ("0x14"),
 * "inf" and "nan". */
static int decimal_syntax(const char *s) {
    size_t n_int = 0, n_frac = 0;
    if (*s == '+' || *s == '-') s++;
    for (; isdigit((unsigned char)*s); s++)
        n_int++;
    if (*s == '.')
        for (s++; isdigit((unsigned char)*s); s++)
            n_frac++;
    if (!n_int && !n_frac) return 0;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-') s++;
        if (!isdigit((unsigned char)*s)) return 0;
        while (isdigit((unsigned char)*s))
            s++;
    }
    return *s == '\0';
}

int rb_cli_parse_double(const char *s, double *out) {
    if (!s || !decimal_syntax(s)) return -1;
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    /* ERANGE with a finite value is an underflow: 4.9e-324 (a denormal) or 1e-400 (0) are
     * numbers, the nearest double; past DBL_MAX is not */
    if ((errno && errno != ERANGE) || *end || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

int rb_cli_decimal(const char *s, double min, double max, double *out) {
    double v;
    if (!s || !decimal_syntax(s)) return RB_CLI_NOT_DECIMAL;
    if (rb_cli_parse_double(s, &v) || v < min || v > max) return RB_CLI_OUT_OF_RANGE;
    *out = v;
    return 0;
}

int rb_cli_double_arg(const char *cmd, const char *what, const char *s, double min, double max,
                      double *out) {
    int rc = rb_cli_decimal(s, min, max, out);
    if (rc == 0) return 0;
    char lo[32], hi[32], msg[512];
    snprintf(lo, sizeof lo, "%.15g", min);
    snprintf(hi, sizeof hi, "%.15g", max);
    number_message(what, s, rc == RB_CLI_OUT_OF_RANGE, "decimal", lo, hi, msg, sizeof msg);
    rb_cli_usage_error(cmd, "%s", msg);
    return -1;
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
            const uint64_t w_min = 1, w_max = RB_MAX_WEIGHT; /* checked and stated */
            uint64_t w;
            int wrc = rb_cli_whole(eq + 1, w_min, w_max, &w);
            if (wrc) {
                char what[96]; /* the id, cut to fit: a weight error names its member */
                size_t id_len = strlen(p), cut = rb_utf8_cut(p, id_len, 48);
                snprintf(what, sizeof what, "member %zu ('%.*s%s') weight", k + 1, (int)cut, p,
                         cut < id_len ? "..." : "");
                rb_cli_whole_message(what, eq + 1, wrc, w_min, w_max, err, err_size);
                rb_member_list_free(out);
                return -1;
            }
            m->weight = (uint32_t)w;
        }
        if (*p == '\0') {
            snprintf(err, err_size, "member %zu has an empty id (list '%s')", k + 1, spec);
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
    o->seed_max = UINT64_MAX;
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

/* The ring options, in RB_RING_OPT_* order: option k is bit 1u << k. */
static const char *const ring_opt_names[] = {"--algo",    "--members",      "--vnodes",
                                             "--buckets", "--hash",         "--bucket-hash",
                                             "--seed",    "--table-source", "--param"};
enum { N_RING_OPTS = sizeof ring_opt_names / sizeof ring_opt_names[0] };

const char *rb_cli_ring_option_name(unsigned given) {
    for (size_t k = 0; k < N_RING_OPTS; k++)
        if (given & (1u << k)) return ring_opt_names[k];
    return NULL;
}

size_t rb_cli_ring_help_except(unsigned refused, char *buf, size_t size) {
    size_t n = 0;
    if (size) buf[0] = '\0';
    for (const char *line = rb_cli_ring_help; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
        unsigned bit = 0; /* the option the line describes (a continuation line: none) */
        for (size_t k = 0; k < N_RING_OPTS; k++) {
            size_t nl = strlen(ring_opt_names[k]);
            if (len > 2 + nl && strncmp(line + 2, ring_opt_names[k], nl) == 0 &&
                line[2 + nl] == ' ')
                bit = 1u << k;
        }
        /* without --bucket-hash, --hash is the ring hash only */
        static const char ring_hash_only[] = "  --hash H           ring hash (default xxh3)\n";
        const char *text = line;
        size_t text_len = len;
        if (bit == RB_RING_OPT_HASH && (refused & RB_RING_OPT_BUCKET_HASH))
            text = ring_hash_only, text_len = sizeof ring_hash_only - 1;
        if (!(bit & refused) && n + text_len < size) {
            memcpy(buf + n, text, text_len);
            buf[n += text_len] = '\0';
        }
        line += len;
    }
    return n;
}

void rb_cli_print_algos(FILE *f, int with_params) {
    fputs(with_params ? "\nalgorithms (`ringbench list`) and their parameters:\n"
                      : "\nalgorithms (`ringbench list`):\n",
          f);
    for (size_t i = 0; i < rb_algo_count(); i++) {
        const rb_algo *a = rb_algo_at(i);
        fprintf(f, "  %-18s %s\n", a->name, a->description);
        for (size_t k = 0; with_params && a->params && k < a->n_params; k++)
            fprintf(f, "  %-18s   --param %s=N: %s (default %llu)\n", "", a->params[k].name,
                    a->params[k].help, (unsigned long long)a->params[k].def);
    }
}

int rb_cli_ring_option(const char *cmd, rb_cli_ring *o, int argc, char **argv, int *i) {
    size_t which = N_RING_OPTS;
    for (size_t k = 0; k < N_RING_OPTS; k++)
        if (strcmp(argv[*i], ring_opt_names[k]) == 0) which = k;
    if (which == N_RING_OPTS) return 0;
    const char *v = rb_cli_opt_value(cmd, argc, argv, i);
    if (!v) return -1;
    o->given |= 1u << which;
    switch (which) {
    case 0:
        if (!(o->algo = rb_algo_by_name(v))) goto unknown;
        break;
    case 1:
        o->members_spec = v;
        break;
    case 2:
        if (rb_cli_u32_arg(cmd, "--vnodes", v, 1, RB_MAX_POINTS, &o->cfg.n_vnodes)) return -1;
        break;
    case 3:
        if (rb_cli_u32_arg(cmd, "--buckets", v, 1, RB_MAX_BUCKETS, &o->cfg.n_buckets)) return -1;
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
        if (rb_cli_u64_arg(cmd, "--seed", v, 0, o->seed_max, &o->cfg.seed)) return -1;
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

/* Does one of algos[0 .. n) map keys by the vnode count under cfg (RB_ALGO_USES_VNODES)? */
static int algos_read_vnodes(const rb_algo *const *algos, size_t n, const rb_config *cfg) {
    for (size_t i = 0; i < n; i++)
        if (rb_algo_flags(algos[i], cfg) & RB_ALGO_USES_VNODES) return 1;
    return 0;
}

/* The registered algorithms with `flag` under cfg (NULL: their own flags, rb_algo_flags),
 * comma-separated, into buf. */
static void algo_names_with(unsigned flag, const rb_config *cfg, char *buf, size_t size) {
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < rb_algo_count() && used < size; i++)
        if (rb_algo_flags(rb_algo_at(i), cfg) & flag) {
            int w =
                snprintf(buf + used, size - used, "%s%s", used ? ", " : "", rb_algo_at(i)->name);
            if (w > 0) used += (size_t)w;
        }
}

int rb_cli_ring_check_params(const char *cmd, const rb_cli_ring *o, const rb_algo *const *algos,
                             size_t n) {
    /* an algorithm that builds from a source (table, bounded) reads the source's
     * parameters too; --table-source where none does would change nothing */
    const rb_algo *with_source[64];
    const rb_algo *src = rb_algo_by_name(o->cfg.table_source ? o->cfg.table_source : "binary");
    size_t k = 0, n_reading = 0;
    for (size_t i = 0; i < n && k < 64; i++) {
        with_source[k++] = algos[i];
        if (algos[i]->flags & RB_ALGO_READS_SOURCE) n_reading++;
    }
    if (n_reading && src && k < 64) with_source[k++] = src;
    if ((o->given & RB_RING_OPT_TABLE_SOURCE) && !n_reading) {
        char readers[256]; /* under a config, table and bounded take their source's flags */
        algo_names_with(RB_ALGO_READS_SOURCE, NULL, readers, sizeof readers);
        rb_cli_usage_error(cmd, "--table-source does not apply to --algo %s (read only by: %s)",
                           n == 1 ? algos[0]->name : "of this list", readers);
        return -1;
    }
    if ((o->given & RB_RING_OPT_VNODES) && !algos_read_vnodes(algos, n, &o->cfg)) {
        char readers[256];
        algo_names_with(RB_ALGO_USES_VNODES, &o->cfg, readers, sizeof readers);
        rb_cli_usage_error(cmd,
                           "--vnodes does not apply to --algo %s (it has no vnodes; read by: %s)",
                           n == 1 ? algos[0]->name : "of this list", readers);
        return -1;
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

typedef struct {
    uint64_t h;
    uint32_t idx;
} id_hash;

static int id_hash_cmp(const void *a, const void *b) {
    const id_hash *x = a, *y = b;
    return x->h < y->h ? -1 : x->h > y->h ? 1 : (x->idx > y->idx) - (x->idx < y->idx);
}

/* Buckets owned per member (calloc'd; NULL when out of memory). */
static uint32_t *buckets_owned(const rb_ring *ring) {
    uint32_t *owned = calloc(rb_ring_n_members(ring), sizeof *owned);
    for (uint32_t b = 0; owned && b < rb_ring_n_buckets(ring); b++)
        owned[rb_ring_owner_bucket(ring, b)]++;
    return owned;
}

void rb_cli_warn_id_collisions(const char *cmd, const rb_ring *ring) {
    const rb_config *cfg = rb_ring_config(ring);
    uint32_t n = rb_ring_n_members(ring), *owned = NULL;
    if (cfg->ring_hash->bits >= 64 || n < 2) return;
    id_hash *hs = malloc(n * sizeof *hs);
    if (!hs) return;
    for (uint32_t i = 0; i < n; i++) {
        size_t len;
        const void *id = rb_ring_member_id(ring, i, &len);
        hs[i] = (id_hash){cfg->ring_hash->fn(id, len, cfg->seed), i};
    }
    qsort(hs, n, sizeof *hs, id_hash_cmp);
    for (uint32_t k = 1; k < n; k++) {
        if (hs[k].h != hs[k - 1].h) continue;
        if (!owned && !(owned = buckets_owned(ring))) break;
        uint32_t a = hs[k - 1].idx, b = hs[k].idx;
        if (owned[a] && owned[b]) continue;
        size_t la, lb;
        const char *ia = rb_ring_member_id(ring, a, &la), *ib = rb_ring_member_id(ring, b, &lb);
        /* ids escaped for a reader (rb_text_field) and cut on a character boundary */
        fprintf(stderr, "ringbench %s: warning: members %u ('", cmd, a + 1);
        rb_text_field(stderr, ia, rb_utf8_cut(ia, la, 60), 0);
        fprintf(stderr, "') and %u ('", b + 1);
        rb_text_field(stderr, ib, rb_utf8_cut(ib, lb, 60), 0);
        fprintf(stderr,
                "') hash alike under %s (%llu), so their ring points coincide and member %u "
                "owns no bucket; use --hash xxh3 or rename one\n",
                cfg->ring_hash->name, (unsigned long long)hs[k].h, owned[a] ? b + 1 : a + 1);
    }
    free(owned);
    free(hs);
}
