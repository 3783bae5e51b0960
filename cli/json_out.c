/* json_out.c — JSON documents through libjansson (json_out.h). */
#include "json_out.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ringbench/utf8.h"

/* Set when a constructor, rb_json_set or rb_json_push failed since the last emit. */
static int build_failed;

/* Dump flags of every value: 15 significant digits read back every decimal text of at most
 * 15 digits exactly (rb_json_fixed / rb_json_sig round through such a text). */
#define DUMP_FLAGS (JSON_REAL_PRECISION(15) | JSON_ENCODE_ANY)

static json_t *checked(json_t *v) {
    if (!v) build_failed = 1;
    return v;
}

/* The number printf's text of x stands for: an integer when the text has no fraction (and
 * fits), else a real. */
static json_t *from_text(const char *text, double x) {
    if (!isfinite(x)) return checked(json_null());
    double r = strtod(text, NULL);
    if (r == floor(r) && fabs(r) < 9.0e15) return checked(json_integer((json_int_t)r));
    return checked(json_real(r));
}

json_t *rb_json_fixed(double x, int decimals) {
    char text[400];
    snprintf(text, sizeof text, "%.*f", decimals, x);
    if (decimals > 0 && isfinite(x)) return checked(json_real(strtod(text, NULL)));
    return from_text(text, x);
}

json_t *rb_json_sig(double x, int digits) {
    char text[64];
    snprintf(text, sizeof text, "%.*g", digits, x);
    return from_text(text, x);
}

/* An unsigned integer above INT64_MAX (beyond json_int_t) is held as an object whose one key
 * is these 4 bytes, a NUL first, and whose value is the decimal digits; dump() writes the
 * digits bare. No other key can be these bytes: rb_json_set takes keys as C strings. */
static const char U64_KEY[4] = {'\0', 'u', '6', '4'};

json_t *rb_json_u64(uint64_t v) {
    if (v <= (uint64_t)INT64_MAX) return checked(json_integer((json_int_t)v));
    char digits[24];
    snprintf(digits, sizeof digits, "%" PRIu64, v);
    json_t *o = json_object();
    if (!o || json_object_setn_new_nocheck(o, U64_KEY, sizeof U64_KEY, json_string(digits))) {
        json_decref(o);
        return checked(NULL);
    }
    return o;
}

/* The digits of an rb_json_u64 above INT64_MAX, or NULL when v is not one. */
static const char *u64_digits(const json_t *v) {
    if (!json_is_object(v) || json_object_size(v) != 1) return NULL;
    return json_string_value(json_object_getn(v, U64_KEY, sizeof U64_KEY));
}

json_t *rb_json_bytes(const void *data, size_t len) {
    const unsigned char *p = data;
    /* at most 2 output bytes per input byte (an invalid byte >= 0x80 becomes 2) */
    unsigned char *buf = malloc(2 * len + 1);
    if (!buf) return checked(NULL);
    size_t w = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = p[i];
        size_t n = (c >= 0xF0) ? 4 : (c >= 0xE0) ? 3 : (c >= 0xC0) ? 2 : 1;
        if (c < 0x80) {
            buf[w++] = c;
        } else if (n > 1 && i + n <= len && rb_utf8_check(p + i, n) < 0) {
            memcpy(buf + w, p + i, n); /* a valid UTF-8 sequence, as is */
            w += n;
            i += n - 1;
        } else { /* an invalid byte: the character U+00XX */
            buf[w++] = (unsigned char)(0xC0 | c >> 6);
            buf[w++] = (unsigned char)(0x80 | (c & 0x3F));
        }
    }
    json_t *s = json_stringn((const char *)buf, w);
    free(buf);
    return checked(s);
}

json_t *rb_json_str(const char *s) {
    return s ? rb_json_bytes(s, strlen(s)) : checked(json_null());
}

json_t *rb_json_parse(const char *text) {
    json_t *v = text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
    return v ? v : checked(json_null());
}

void rb_json_set(json_t *obj, const char *key, json_t *v) {
    if (!v || !obj || json_object_set_new(obj, key, v)) build_failed = 1;
}

void rb_json_push(json_t *arr, json_t *v) {
    if (!v || !arr || json_array_append_new(arr, v)) build_failed = 1;
}

static int dump(const json_t *v, FILE *f);

/* An object key as a JSON string, then ": "; 0 or -1. */
static int dump_key(const char *key, size_t len, FILE *f) {
    json_t *name = json_stringn(key, len);
    int rc = !name || json_dumpf(name, f, DUMP_FLAGS) || fputs(": ", f) < 0 ? -1 : 0;
    json_decref(name);
    return rc;
}

/* The members of a container on one line, ", " between them, as jansson writes them. */
static int dump_members(const json_t *v, FILE *f) {
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++)
            if ((i && fputs(", ", f) < 0) || dump(json_array_get(v, i), f)) return -1;
        return 0;
    }
    const char *key;
    size_t len, k = 0;
    json_t *m;
    json_object_keylen_foreach((json_t *)v, key, len, m) {
        if ((k++ && fputs(", ", f) < 0) || dump_key(key, len, f) || dump(m, f)) return -1;
    }
    return 0;
}

/* One value on one line, the text jansson's json_dumpf writes (DUMP_FLAGS) except that an
 * rb_json_u64 above INT64_MAX is its exact digits; 0 or -1. */
static int dump(const json_t *v, FILE *f) {
    const char *digits = u64_digits(v);
    if (digits) return fputs(digits, f) < 0 ? -1 : 0;
    if (!json_is_array(v) && !json_is_object(v)) return json_dumpf(v, f, DUMP_FLAGS);
    int array = json_is_array(v);
    if (fputc(array ? '[' : '{', f) == EOF || dump_members(v, f)) return -1;
    return fputc(array ? ']' : '}', f) == EOF ? -1 : 0;
}

/* An array of objects, one element per line at indent 4. */
static int dump_rows(const json_t *arr, FILE *f) {
    size_t n = json_array_size(arr);
    if (fputs(n ? "[\n" : "[", f) < 0) return -1;
    for (size_t i = 0; i < n; i++) {
        if (fputs("    ", f) < 0 || dump(json_array_get(arr, i), f)) return -1;
        if (fputs(i + 1 < n ? ",\n" : "\n  ", f) < 0) return -1;
    }
    return fputc(']', f) == EOF ? -1 : 0;
}

static int is_rows(const json_t *v) {
    return json_is_array(v) && json_array_size(v) > 0 && json_is_object(json_array_get(v, 0));
}

static int dump_top_lines(const json_t *doc, FILE *f) {
    if (!json_is_object(doc)) return dump(doc, f);
    if (fputs("{", f) < 0) return -1;
    const char *key;
    json_t *v;
    size_t len, k = 0;
    json_object_keylen_foreach((json_t *)doc, key, len, v) {
        if (fputs(k++ ? ",\n  " : "\n  ", f) < 0 || dump_key(key, len, f) ||
            (is_rows(v) ? dump_rows(v, f) : dump(v, f)))
            return -1;
    }
    return fputs(k ? "\n}" : "}", f) < 0 ? -1 : 0;
}

int rb_json_dump(const json_t *v, FILE *f) {
    int failed = build_failed || !v;
    build_failed = 0;
    if (failed) {
        errno = ENOMEM;
        return -1;
    }
    errno = 0;
    if (dump(v, f) == 0) return 0;
    if (!errno) errno = EIO;
    return -1;
}

int rb_json_emit(json_t *doc, FILE *f, int layout) {
    int failed = build_failed || !doc;
    build_failed = 0;
    if (failed) {
        json_decref(doc);
        errno = ENOMEM;
        return -1;
    }
    errno = 0;
    int rc = layout == RB_JSON_TOP_LINES ? dump_top_lines(doc, f) : dump(doc, f);
    json_decref(doc);
    if (rc == 0 && fputc('\n', f) != EOF && fflush(f) == 0 && !ferror(f)) return 0;
    if (!errno) errno = EIO;
    return -1;
}

int rb_json_write_file(const char *cmd, const char *path, json_t *doc, int layout) {
    FILE *f = fopen(path, "w");
    if (!f) {
        int e = errno;
        json_decref(doc);
        build_failed = 0;
        return rb_cli_fail(cmd, "cannot write %s: %s", path, strerror(e));
    }
    int rc = rb_json_emit(doc, f, layout);
    int e = errno;
    if (fclose(f) && rc == 0) {
        rc = -1;
        e = errno;
    }
    if (rc == 0) return 0;
    return rb_cli_fail(cmd, "cannot write %s: %s", path, strerror(e ? e : EIO));
}

int rb_json_write_stdout(const char *cmd, json_t *doc, int layout) {
    if (rb_json_emit(doc, stdout, layout) == 0) return 0;
    return rb_cli_fail(cmd, "writing output: %s", strerror(errno ? errno : EIO));
}
