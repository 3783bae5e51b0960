/*
 * fuzz_conninfo.c — rb_conninfo_redact (queue/conninfo_redact.c) against
 * libpq's own parser. Contract: the output is NUL-terminated within its
 * buffer; and when libpq (PQconninfoParse) reads a password from the input,
 * the password libpq reads back from the output starts with "***" (the
 * redaction) and does not contain the input's password (3 bytes or more). (Counting the
 * password's bytes in the output misfired: written with escapes, as in
 * `password=hu\nter2`, its text never stands in the input, while the same
 * bytes may stand elsewhere, e.g. in the user name.) A password made of
 * asterisks alone (`password=***`) is the redaction mark itself: the mark is
 * all that can be checked then.
 */
#include <libpq-fe.h>

#include "conninfo_redact.h"
#include "fuzz_util.h"

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
    char *secret = NULL;
    for (PQconninfoOption *o = opts; o && o->keyword; o++)
        if (!strcmp(o->keyword, "password") && o->val && o->val[0]) secret = strdup(o->val);
    PQconninfoFree(opts);
    PQfreemem(err);
    err = NULL;
    PQconninfoOption *back = secret ? PQconninfoParse(out, &err) : NULL;
    for (PQconninfoOption *o = back; o && o->keyword; o++) {
        if (strcmp(o->keyword, "password") || !o->val || !o->val[0]) continue;
        int only_marks = strspn(secret, "*") == strlen(secret);
        FUZZ_CHECK(!strncmp(o->val, "***", 3) &&
                       (strlen(secret) < 3 || only_marks || !strstr(o->val, secret)),
                   "password '%s' shown: in '%s' out '%s'", secret, s, out);
    }
    PQconninfoFree(back);
    free(secret);
    PQfreemem(err);
    free(out);
    free(s);
    return 0;
}
