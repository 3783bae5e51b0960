/*
 * fuzz_conninfo.c — rb_conninfo_redact (queue/conninfo_redact.c) against
 * libpq's own parser. Contract: the output is NUL-terminated within its
 * buffer; and when libpq (PQconninfoParse) reads a password of 3 or more
 * bytes without '*' from the input, that password occurs fewer times in the
 * output than in the input (its own occurrence is hidden; the same bytes may
 * legitimately stand elsewhere, e.g. as the user name).
 */
#include <libpq-fe.h>

#include "conninfo_redact.h"
#include "fuzz_util.h"

static size_t count(const char *hay, const char *needle) {
    size_t n = 0, len = strlen(needle);
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return len ? n : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_in in = {data, size};
    char *s = fuzz_take_string(&in);
    size_t cap = 2 * strlen(s) + 16;
    char *out = malloc(cap);
    if (!out) abort();
    rb_conninfo_redact(s, out, cap);
    FUZZ_CHECK(memchr(out, 0, cap) != NULL, "output not terminated");
    char small[8];
    rb_conninfo_redact(s, small, sizeof small);
    FUZZ_CHECK(strlen(small) < sizeof small, "truncated output not terminated");
    char *err = NULL;
    PQconninfoOption *opts = PQconninfoParse(s, &err);
    for (PQconninfoOption *o = opts; o && o->keyword; o++) {
        if (strcmp(o->keyword, "password") || !o->val || strlen(o->val) < 3 || strchr(o->val, '*'))
            continue;
        size_t n_in = count(s, o->val), n_out = count(out, o->val);
        FUZZ_CHECK(n_in == 0 || n_out < n_in, "password '%s' shown: in '%s' out '%s'", o->val, s,
                   out);
    }
    PQconninfoFree(opts);
    PQfreemem(err);
    free(out);
    free(s);
    return 0;
}
