/*
 * test_json_out.c — the JSON writer every command uses (cli/json_out.h), ctest unit.json_out.
 *
 * Checks, each failure printing the case, got and expected (counted, not stopping):
 *   - numbers: rb_json_fixed(x, d) / rb_json_sig(x, g) read back (jansson's parser) as the
 *     number printf's "%.*f" / "%.*g" text of x reads back (strtod), for values with 1..15
 *     significant digits, halves, negatives and large ones: the JSON figures are the figures
 *     the printf writers printed; a fraction-less "%.0f" is an integer;
 *   - unsigned integers up to 2^64 - 1 keep every digit; containers are written as jansson
 *     writes them, with such integers inside;
 *   - key bytes: valid UTF-8 is kept, an invalid byte reads back as U+00XX, NUL survives;
 *   - a failed write (a file in a folder that does not exist, /dev/full) returns 1 with one
 *     line "ringbench CMD: cannot write PATH: reason" on stderr; a written file reads back.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_out.h"

/* the flags cli/json_out.c dumps leaves with */
#define DUMP_FLAGS_OF_TEST (JSON_REAL_PRECISION(15) | JSON_ENCODE_ANY)

static int n_fail, n_pass;

static void check(int ok, const char *case_, const char *got, const char *want) {
    if (ok) {
        n_pass++;
        return;
    }
    n_fail++;
    fprintf(stderr, "FAIL json_out: %s: got %s, expected %s\n", case_, got, want);
}

/* The JSON text of v on one line (for messages and the read-back). */
static char *text_of(json_t *v) {
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f || rb_json_emit(v, f, RB_JSON_LINE)) abort();
    fclose(f);
    buf[strcspn(buf, "\n")] = 0;
    return buf;
}

/* The number printf's text `want_text` stands for, against what v's JSON text reads back. */
static void check_number(json_t *v, const char *want_text, const char *case_) {
    char *got = text_of(v);
    json_t *back = json_loads(got, JSON_DECODE_ANY, NULL);
    double want = strtod(want_text, NULL);
    int ok = back && json_is_number(back) && json_number_value(back) == want;
    /* "%.0f" and an integral "%g" print no fraction: the JSON number is an integer */
    if (ok && !strpbrk(want_text, ".eE")) ok = json_is_integer(back);
    check(ok, case_, got, want_text);
    json_decref(back);
    free(got);
}

static void numbers(void) {
    static const double xs[] = {0.0,        0.3,         0.1 + 0.2,  1234.0,        1234.5,
                                2.5,        -2.5,        0.125,      1.0 / 3.0,     2.0 / 3.0,
                                123456.789, 9876543.21,  1e-7,       -0.0004999,    0.99,
                                100.0,      12345678.25, 3.14159265, 98765432109.5, 0.0001};
    char want[64], case_[96];
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        for (int d = 0; d <= 4; d++) {
            snprintf(want, sizeof want, "%.*f", d, xs[i]);
            snprintf(case_, sizeof case_, "rb_json_fixed(%.17g, %d)", xs[i], d);
            check_number(rb_json_fixed(xs[i], d), want, case_);
        }
        for (int g = 6; g <= 9; g += 3) {
            snprintf(want, sizeof want, "%.*g", g, xs[i]);
            snprintf(case_, sizeof case_, "rb_json_sig(%.17g, %d)", xs[i], g);
            check_number(rb_json_sig(xs[i], g), want, case_);
        }
    }
    char *t = text_of(rb_json_fixed(NAN, 1));
    check(strcmp(t, "null") == 0, "rb_json_fixed(NaN, 1)", t, "null");
    free(t);
    /* unsigned integers keep every digit, above 2^63 too (a real there lost 4-5 digits) */
    static const struct {
        uint64_t v;
        const char *want;
    } u64s[] = {{UINT64_C(9007199254740993), "9007199254740993"},
                {UINT64_C(9223372036854775807), "9223372036854775807"},
                {UINT64_C(9223372036854775808), "9223372036854775808"},
                {UINT64_C(16629034431890738719), "16629034431890738719"},
                {UINT64_MAX, "18446744073709551615"}};
    for (size_t i = 0; i < sizeof u64s / sizeof u64s[0]; i++) {
        t = text_of(rb_json_u64(u64s[i].v));
        snprintf(case_, sizeof case_, "rb_json_u64(%s)", u64s[i].want);
        check(strcmp(t, u64s[i].want) == 0, case_, t, u64s[i].want);
        free(t);
    }
}

/* Containers: rb_json_emit writes what jansson's json_dumpf writes for a tree without
 * unsigned integers above 2^63 (": " after keys, ", " between members, empties), and the
 * same tree with such integers inside arrays and objects writes their digits. */
static void containers(void) {
    json_t *doc = json_object(), *arr = json_array(), *inner = json_object();
    rb_json_set(inner, "k\"ey", rb_json_str("v\n"));
    rb_json_set(inner, "empty_a", json_array());
    rb_json_set(inner, "empty_o", json_object());
    rb_json_push(arr, rb_json_fixed(0.5, 1));
    rb_json_push(arr, json_true());
    rb_json_push(arr, json_null());
    rb_json_push(arr, inner);
    rb_json_set(doc, "a", arr);
    rb_json_set(doc, "n", rb_json_u64(7));
    char *want = json_dumps(doc, DUMP_FLAGS_OF_TEST);
    char *t = text_of(json_incref(doc));
    check(want && strcmp(t, want) == 0, "a tree as jansson writes it", t, want ? want : "?");
    free(t);
    free(want);
    rb_json_push(arr, rb_json_u64(UINT64_MAX));
    rb_json_set(inner, "h", rb_json_u64(UINT64_C(16629034431890738719)));
    t = text_of(doc);
    const char *w = "{\"a\": [0.5, true, null, {\"k\\\"ey\": \"v\\n\", \"empty_a\": [], "
                    "\"empty_o\": {}, \"h\": 16629034431890738719}, 18446744073709551615], "
                    "\"n\": 7}";
    check(strcmp(t, w) == 0, "a tree with integers above 2^63", t, w);
    free(t);
}

static void bytes(void) {
    /* "a", U+00E9 as UTF-8, an invalid 0xFF, a lone continuation 0x80, NUL, a quote */
    static const char key[] = "a\xc3\xa9\xff\x80\0\"";
    json_t *v = rb_json_bytes(key, sizeof key - 1);
    char *t = text_of(json_incref(v));
    json_t *back = json_loads(t, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
    /* what it reads back as: a, U+00E9, U+00FF, U+0080, NUL, quote (UTF-8) */
    static const char want[] = "a\xc3\xa9\xc3\xbf\xc2\x80\0\"";
    int ok = back && json_string_length(back) == sizeof want - 1 &&
             memcmp(json_string_value(back), want, sizeof want - 1) == 0;
    check(ok, "rb_json_bytes(a U+00E9 0xFF 0x80 NUL \")", t,
          "\"a\\u00e9\\u00ff\\u0080\\u0000\\\"\" read back");
    json_decref(back);
    json_decref(v);
    free(t);
}

/* rb_json_write_file into path: its return and the lines it printed on stderr. */
static int write_file(const char *path, int *n_lines, char *line, size_t size) {
    char err_path[] = "/tmp/test_json_out.XXXXXX";
    int fd = mkstemp(err_path);
    if (fd < 0) abort();
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    json_t *doc = json_object();
    rb_json_set(doc, "a", rb_json_fixed(1.25, 2));
    int rc = rb_json_write_file("test", path, doc, RB_JSON_TOP_LINES);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    FILE *f = fopen(err_path, "r");
    *n_lines = 0;
    line[0] = 0;
    char buf[512];
    while (f && fgets(buf, sizeof buf, f)) {
        if (!(*n_lines)++) snprintf(line, size, "%s", buf);
    }
    if (f) fclose(f);
    unlink(err_path);
    line[strcspn(line, "\n")] = 0;
    return rc;
}

static void write_failures(void) {
    const char *paths[] = {"/nonexistent-folder-of-test-json-out/x.json", "/dev/full"};
    for (size_t i = 0; i < 2; i++) {
        if (i == 1 && access("/dev/full", W_OK) != 0) continue; /* no /dev/full here */
        int n_lines;
        char line[512], want[256], got[600];
        int rc = write_file(paths[i], &n_lines, line, sizeof line);
        snprintf(want, sizeof want, "ringbench test: cannot write %s: ", paths[i]);
        snprintf(got, sizeof got, "exit %d, %d line(s): '%s'", rc, n_lines, line);
        check(rc == 1 && n_lines == 1 && strncmp(line, want, strlen(want)) == 0, paths[i], got,
              "exit 1, one line 'ringbench test: cannot write PATH: reason'");
    }
    char path[] = "/tmp/test_json_out_doc.XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) abort();
    close(fd);
    int n_lines;
    char line[512];
    int rc = write_file(path, &n_lines, line, sizeof line);
    json_t *back = json_load_file(path, 0, NULL);
    char got[64];
    snprintf(got, sizeof got, "exit %d, a = %g", rc,
             back ? json_number_value(json_object_get(back, "a")) : -1.0);
    check(rc == 0 && n_lines == 0 && back && json_number_value(json_object_get(back, "a")) == 1.25,
          "a written file", got, "exit 0, a = 1.25");
    json_decref(back);
    unlink(path);
}

int main(void) {
    numbers();
    bytes();
    containers();
    write_failures();
    printf("test_json_out: %d passed, %d failed\n", n_pass, n_fail);
    return n_fail ? 1 : 0;
}
