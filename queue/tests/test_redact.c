/* test_redact.c — rb_conninfo_redact against a table of conninfo strings
 * (ctest unit.conninfo_redact). Each case gives the input and the exact
 * expected output; a case fails when the output differs or still contains the
 * secret. Prints failures as case, got, expected, then "N passed, N failed". */
#include <stdio.h>
#include <string.h>

#include "conninfo_redact.h"

static const struct {
    const char *in, *want, *secret; /* secret: must not appear in the output (NULL: none) */
} cases[] = {
    /* key=value */
    {"host=db port=5432 password=hunter2 user=rb", "host=db port=5432 password=*** user=rb",
     "hunter2"},
    {"password=hunter2", "password=***", "hunter2"},
    /* a keyword libpq does not know (mistyped) may hold the secret: its value is hidden */
    {"host=127.0.0.1 port=1 passwrd=S3cr3tPW", "host=127.0.0.1 port=1 passwrd=***", "S3cr3tPW"},
    {"host=x pass='a b' user=rb", "host=x pass='***' user=rb", "a b"},
    {"PASSWORD=hunter2 host=x", "PASSWORD=*** host=x", "hunter2"},
    {"host=db password = hunter2", "host=db password = ***", "hunter2"},
    {"host=db password='two words' user=rb", "host=db password='***' user=rb", "two words"},
    {"password='it\\'s \\\\ secret' host=x", "password='***' host=x", "secret"},
    {"password=back\\ slash host=x", "password=*** host=x", "slash"},
    {"host=x password='unterminated secret", "host=x password='***", "unterminated"},
    {"host=x password=", "host=x password=", NULL},
    {"host=x password=''", "host=x password=***", NULL},
    /* `password` inside other values is not a password */
    {"user=password host=x", "user=password host=x", NULL},
    {"application_name='password=x' host=y", "application_name='password=x' host=y", NULL},
    {"options='-c password_encryption=md5' password=s3cret",
     "options='-c password_encryption=md5' password=***", "s3cret"},
    /* keywords libpq does not know: hidden too (one may be a mistyped password) */
    {"passwordx=1 xpassword=2", "passwordx=*** xpassword=***", NULL},
    /* dbname that is itself a conninfo or URI with a secret */
    {"dbname='host=a password=s3cret' user=u", "dbname='***' user=u", "s3cret"},
    {"dbname=postgresql://u:s3cret@h/db", "dbname=***", "s3cret"},
    {"dbname=app host=h", "dbname=app host=h", NULL},
    /* URIs */
    {"postgresql://rb:hunter2@db.example:5432/app", "postgresql://rb:***@db.example:5432/app",
     "hunter2"},
    {"postgres://rb:hunter2@db/app", "postgres://rb:***@db/app", "hunter2"},
    {"POSTGRESQL://rb:hunter2@db/app", "POSTGRESQL://rb:***@db/app", "hunter2"},
    {"postgresql://rb@db/app", "postgresql://rb@db/app", NULL},
    {"postgresql://db/app", "postgresql://db/app", NULL},
    {"postgresql://rb:p%40ss%3Aword@db/app", "postgresql://rb:***@db/app", "p%40ss"},
    {"postgresql://rb:pa/ss@db/app", "postgresql://rb:***@db/app", "pa/ss"},
    {"postgresql://rb:p@ss@db/app", "postgresql://rb:***@db/app", "ss@"},
    {"postgresql://db/app?password=hunter2&sslmode=require",
     "postgresql://db/app?password=***&sslmode=require", "hunter2"},
    {"postgresql://db/app?sslmode=require&pass%77ord=hunter2",
     "postgresql://db/app?sslmode=require&pass%77ord=***", "hunter2"},
    {"postgresql://db/app?PASSWORD=hunter2", "postgresql://db/app?PASSWORD=***", "hunter2"},
    {"postgresql://db/app?application_name=password",
     "postgresql://db/app?application_name=password", NULL},
    {"postgresql://u:x@h1:1,h2:2/app?password=y", "postgresql://u:***@h1:1,h2:2/app?password=***",
     "x@"},
    /* a '?' in the user info: libpq's query starts after the '@', not at the
     * first '?' (found by fuzz_smoke in CI) */
    {"postgresql://app?x@d/app?pass%77ord=hunter2", "postgresql://app?x@d/app?pass%77ord=***",
     "hunter2"},
    {"postgresql://u?v@h/db?sslmode=require&password=hunter2",
     "postgresql://u?v@h/db?sslmode=require&password=***", "hunter2"},
    /* (a '?' that libpq reads as user info may start a query here: hiding
     * more than the password is the safe side) */
    {"postgresql://u?password=a@h/db?password=hunter2", "postgresql://u?password=***", "hunter2"},
    /* a keyword right after a quoted password's closing quote (fuzz, full run of
     * 2026-12-01): the redaction keeps the quotes so libpq reads back password=*** */
    {"dbname='a b'password='deme='dbname=x", "dbname='a b'password='***'dbname=x", "deme="},
    /* sslpassword (the client key's passphrase) is a secret too */
    {"host=x sslpassword=hunter2 port=1", "host=x sslpassword=*** port=1", "hunter2"},
    {"postgresql://db/app?sslpassword=hunter2", "postgresql://db/app?sslpassword=***", "hunter2"},
    {"postgresql://localhost:1/db?passwd=hunter2", "postgresql://localhost:1/db?passwd=***",
     "hunter2"},
    {" postgresql://bob:hunter2@localhost:1/db", " postgresql://bob:***@localhost:1/db", "hunter2"},
    /* empty and odd input */
    {"", "", NULL},
    {"garbage==", "garbage=***", NULL},
    {"=password", "=***", NULL},
};

int main(void) {
    int n_pass = 0, n_fail = 0;
    char out[512];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rb_conninfo_redact(cases[i].in, out, sizeof out);
        int ok =
            strcmp(out, cases[i].want) == 0 && (!cases[i].secret || !strstr(out, cases[i].secret));
        if (ok) {
            n_pass++;
        } else {
            n_fail++;
            printf("FAIL case %zu '%s': got '%s', expected '%s'\n", i, cases[i].in, out,
                   cases[i].want);
        }
    }
    /* truncation keeps the string terminated and never shows a secret */
    char small[12];
    rb_conninfo_redact("password=hunter2 host=x", small, sizeof small);
    if (strcmp(small, "password=**") != 0) {
        n_fail++;
        printf("FAIL truncation: got '%s', expected 'password=**'\n", small);
    } else {
        n_pass++;
    }
    /* libpq's own parse errors echo the URI or a token of it */
    static const struct {
        const char *conninfo, *msg, *want;
    } msgs[] = {
        {"postgresql://u:s3cret%zz@h/x", "invalid percent-encoded token: \"s3cret%zz\"",
         "invalid percent-encoded token: \"***\""},
        {"postgresql://u:s3cret@[bad/x", "matching \"]\" in URI: \"postgresql://u:s3cret@[bad/x\"",
         "matching \"]\" in URI: \"postgresql://u:***@[bad/x\""},
        {"host=x password=s3cret", "no secret here", "no secret here"},
        /* a password with an unencoded '@' or '/': libpq misreads the URI and quotes a
         * piece of the password as a host or a port (a fresh user's finding) */
        {"postgresql://u:p@s3cr3t@localhost:1/db",
         "could not translate host name \"s3cr3t@localhost\" to address",
         "could not translate host name \"***@localhost\" to address"},
        {"postgresql://u:s3cr3t/x@localhost:1/db",
         "invalid integer value \"s3cr3t\" for connection option \"port\"",
         "invalid integer value \"***\" for connection option \"port\""},
    };
    for (size_t i = 0; i < sizeof msgs / sizeof msgs[0]; i++) {
        rb_conninfo_redact_message(msgs[i].conninfo, msgs[i].msg, out, sizeof out);
        if (strcmp(out, msgs[i].want) == 0) {
            n_pass++;
        } else {
            n_fail++;
            printf("FAIL message %zu '%s': got '%s', expected '%s'\n", i, msgs[i].msg, out,
                   msgs[i].want);
        }
    }
    printf("%d passed, %d failed\n", n_pass, n_fail);
    return n_fail ? 1 : 0;
}
