/* conninfo_redact.c — hide secrets of a libpq conninfo (conninfo_redact.h).
 * The input is marked byte by byte (hide[i]), then copied with each run of
 * hidden bytes written as "***". The key=value tokenizer follows libpq's
 * conninfo_parse (fe-connect.c): keyword, optional spaces, '=', optional
 * spaces, then a value in single quotes or up to the next space, '\' escaping
 * the next byte in both. */
#include "conninfo_redact.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

static int prefix_ci(const char *s, const char *p) {
    for (; *p; s++, p++)
        if (tolower((unsigned char)*s) != *p) return 0;
    return 1;
}

static int eq_ci(const char *s, size_t n, const char *w) {
    return strlen(w) == n && prefix_ci(s, w);
}

/* Whether libpq knows keyword s[0 .. n): one of `known` (PQconndefaults, taken once per
 * redaction; exact case, as libpq parses). An unknown keyword is most often a mistyped one
 * ("passwrd"), and its value may be the secret: its value is hidden. `known` NULL (out of
 * memory): unknown, hidden, the safe side. */
static int known_keyword(const PQconninfoOption *known, const char *s, size_t n) {
    for (const PQconninfoOption *o = known; o && o->keyword; o++)
        if (strlen(o->keyword) == n && strncmp(o->keyword, s, n) == 0) return 1;
    return 0;
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    c = tolower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Percent-decoded s[0 .. n) equals w (case-insensitive)? */
static int pct_eq_ci(const char *s, size_t n, const char *w) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++, k++) {
        int c = (unsigned char)s[i];
        if (c == '%' && i + 2 < n && hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0) {
            c = hexval(s[i + 1]) * 16 + hexval(s[i + 2]);
            i += 2;
        }
        if (!w[k] || tolower(c) != w[k]) return 0;
    }
    return w[k] == 0;
}

static int is_uri(const char *s) {
    while (isspace((unsigned char)*s)) /* a pasted leading space: still the URI's secrets */
        s++;
    return prefix_ci(s, "postgresql://") || prefix_ci(s, "postgres://");
}

/* Hide the password values of the query parameters s[from .. len), split
 * on '&' as libpq's conninfo_uri_parse_params splits them. */
static void mark_uri_params(const char *s, size_t len, size_t from, char *hide,
                            const PQconninfoOption *known) {
    for (size_t i = from; i < len;) {
        size_t amp = i;
        while (amp < len && s[amp] != '&')
            amp++;
        const char *eq = memchr(s + i, '=', amp - i);
        size_t n = eq ? (size_t)(eq - s) - i : 0;
        /* a password, or a name libpq does not know (a mistyped one, or percent-encoded);
         * a name holding '@', '/' or '?' comes from a '?' of the user info tried as the
         * query's start, not a parameter libpq would read */
        int misread = memchr(s + i, '@', n) || memchr(s + i, '/', n) || memchr(s + i, '?', n);
        if (eq && (pct_eq_ci(s + i, n, "password") || pct_eq_ci(s + i, n, "sslpassword") ||
                   (!misread && (memchr(s + i, '%', n) || !known_keyword(known, s + i, n)))))
            for (size_t k = (size_t)(eq - s) + 1; k < amp; k++)
                hide[k] = 1;
        i = amp + 1;
    }
}

static void mark_uri(const char *s, size_t len, char *hide, const PQconninfoOption *known) {
    size_t start = (size_t)(strstr(s, "://") - s) + 3;
    /* user info: up to the last '@' of the whole string. libpq ends it at the
     * first '@' before any '/', but a password may hold an unencoded '/', '?'
     * or '@' (libpq then misreads the URI and the error echoes it): hiding up
     * to the last '@' hides at least the password, sometimes more. */
    const char *at = NULL;
    for (const char *p = strchr(s + start, '@'); p; p = strchr(p + 1, '@'))
        at = p;
    if (at) {
        const char *colon = memchr(s + start, ':', (size_t)(at - s) - start);
        for (size_t i = colon ? (size_t)(colon - s) + 1 : len; i < (size_t)(at - s); i++)
            hide[i] = 1;
    }
    /* query parameters: name=value&...; a password value is hidden. libpq
     * starts them at the first '?' after the user info, which may itself hold
     * a '?' (it ends at the first '@' before any '/'): every '?' is tried as
     * the start, so a password is hidden wherever libpq finds it. */
    for (const char *q = memchr(s + start, '?', len - start); q;
         q = memchr(q + 1, '?', len - (size_t)(q + 1 - s)))
        mark_uri_params(s, len, (size_t)(q - s) + 1, hide, known);
}

/* Does the value v[0 .. n) (escapes removed) hold a secret? */
static int value_has_secret(const char *v, size_t n) {
    char *copy = malloc(n + 1), *red = malloc(2 * n + 8);
    int secret = 1; /* out of memory: hide */
    if (copy && red) {
        memcpy(copy, v, n);
        copy[n] = 0;
        rb_conninfo_redact(copy, red, 2 * n + 8);
        secret = strcmp(copy, red) != 0;
    }
    free(copy);
    free(red);
    return secret;
}

static void mark_keyvalue(const char *s, size_t len, char *hide, const PQconninfoOption *known) {
    size_t i = 0;
    while (i < len) {
        while (i < len && isspace((unsigned char)s[i]))
            i++;
        size_t kw = i;
        while (i < len && s[i] != '=' && !isspace((unsigned char)s[i]))
            i++;
        size_t kw_len = i - kw;
        while (i < len && isspace((unsigned char)s[i]))
            i++;
        if (i >= len || s[i] != '=') {
            if (kw_len == 0) break;
            continue; /* malformed (libpq refuses it); go on with the next token */
        }
        i++;
        while (i < len && isspace((unsigned char)s[i]))
            i++;
        size_t v = i, v_end;             /* the value's text s[v .. v_end), quotes left out */
        char *val = malloc(len - v + 1); /* unescaped value */
        size_t n = 0;
        if (i < len && s[i] == '\'') {
            for (v = ++i; i < len && s[i] != '\''; i++) {
                if (s[i] == '\\' && i + 1 < len) i++;
                if (val) val[n++] = s[i];
            }
            v_end = i;
            if (i < len) i++; /* closing quote */
        } else {
            for (; i < len && !isspace((unsigned char)s[i]); i++) {
                if (s[i] == '\\' && i + 1 < len) i++;
                if (val) val[n++] = s[i];
            }
            v_end = i;
        }
        int secret = eq_ci(s + kw, kw_len, "password") || eq_ci(s + kw, kw_len, "sslpassword") ||
                     (eq_ci(s + kw, kw_len, "dbname") && (!val || value_has_secret(val, n))) ||
                     !known_keyword(known, s + kw, kw_len);
        free(val);
        /* a quoted value keeps its quotes ('***'): libpq reads the redaction back as the
         * whole value, not run together with a keyword that follows the closing quote; an
         * empty one ('') is hidden quotes and all, so an empty password does not show */
        if (secret && v_end == v && v > 0 && s[v - 1] == '\'') v--, v_end = i;
        if (secret)
            for (size_t k = v; k < v_end; k++)
                hide[k] = 1;
    }
}

/* Bytes at which libpq splits a URI it misreads: a password holding an unencoded '@' or '/'
 * ends up in pieces in libpq's message (`could not translate host name "s3cr3t@localhost"`,
 * `invalid integer value "s3cr3t" for ... "port"`). */
#define URI_SEPARATORS "@/:?&#,"
/* A piece shorter than this is not hidden on its own (one or two letters would mask most
 * of a message); the whole run always is. */
#define MIN_PIECE 3

/* Length of the hidden text of s that t starts with, 0 if none: a whole hidden run, else a
 * piece of one between URI_SEPARATORS of at least MIN_PIECE bytes. */
static size_t hidden_at(const char *s, size_t len, const char *hide, const char *t) {
    for (size_t a = 0; a < len; a++) { /* whole runs first: the longest match */
        size_t b = a;
        while (b < len && hide[b])
            b++;
        if (b > a && strncmp(t, s + a, b - a) == 0) return b - a;
        a = b;
    }
    for (size_t a = 0; a < len; a++) {
        size_t b = a;
        while (b < len && hide[b] && !strchr(URI_SEPARATORS, s[b]))
            b++;
        if (b - a >= MIN_PIECE && strncmp(t, s + a, b - a) == 0) return b - a;
        a = b;
    }
    return 0;
}

/* Copy text[0 ..) to out; with msg_mode 0, text is the conninfo s and its
 * hidden runs become "***"; with msg_mode 1, every occurrence in text of a
 * hidden run of s, or of a piece of one (hidden_at), becomes "***". */
static char *redact_into(const char *s, const char *text, int msg_mode, char *out,
                         size_t out_size) {
    size_t len = strlen(s), o = 0, tlen = strlen(text);
    if (out_size == 0) return out;
    char *hide = calloc(len + 1, 1);
    if (!hide) { /* cannot tell what is secret: show nothing */
        snprintf(out, out_size, "%s", tlen ? "***" : "");
        return out;
    }
    PQconninfoOption *known = PQconndefaults(); /* the keywords libpq knows */
    if (is_uri(s))
        mark_uri(s, len, hide, known);
    else
        mark_keyvalue(s, len, hide, known);
    PQconninfoFree(known);
    for (size_t i = 0; i < tlen && o + 1 < out_size; i++) {
        size_t run = 0; /* length of the hidden text that starts at text[i] */
        if (!msg_mode) {
            while (i + run < len && hide[i + run])
                run++;
        } else {
            run = hidden_at(s, len, hide, text + i);
        }
        if (!run) {
            out[o++] = text[i];
            continue;
        }
        for (const char *m = "***"; *m && o + 1 < out_size; m++)
            out[o++] = *m;
        i += run - 1;
    }
    out[o] = 0;
    free(hide);
    return out;
}

char *rb_conninfo_redact(const char *conninfo, char *out, size_t out_size) {
    const char *s = conninfo ? conninfo : "";
    return redact_into(s, s, 0, out, out_size);
}

char *rb_conninfo_redact_message(const char *conninfo, const char *msg, char *out,
                                 size_t out_size) {
    return redact_into(conninfo ? conninfo : "", msg ? msg : "", 1, out, out_size);
}

char *rb_conninfo_parse_error(const char *conninfo, const char *msg, char *out, size_t out_size) {
    const char *c = conninfo ? conninfo : "", *m = msg ? msg : "";
    size_t o = 0;
    if (out_size == 0) return out;
    while (*m && o + 1 < out_size) {
        const char *close = *m == '"' ? strchr(m + 1, '"') : NULL;
        if (!close) {
            out[o++] = *m++;
            continue;
        }
        size_t n = (size_t)(close - m - 1);
        int shown = n == 1 && m[1] == '='; /* missing "=" after ... */
        for (const char *p = c; !shown && n && *p; p++) {
            if (strncmp(p, m + 1, n) != 0 || (p > c && !isspace((unsigned char)p[-1]))) continue;
            const char *q = p + n;
            while (isspace((unsigned char)*q))
                q++;
            shown = *q == '='; /* a keyword as typed, before its '=' */
        }
        const char *text = shown ? m : "\"***\"";
        size_t len = shown ? n + 2 : 5;
        for (size_t k = 0; k < len && o + 1 < out_size; k++)
            out[o++] = text[k];
        m = close + 1;
    }
    out[o] = 0;
    return out;
}

int rb_conninfo_check(const char *conninfo, char *out, size_t out_size) {
    if (!conninfo || !*conninfo) return 0;
    char *err = NULL;
    PQconninfoOption *opts = PQconninfoParse(conninfo, &err);
    if (opts) {
        PQconninfoFree(opts);
        return 0;
    }
    char msg[256];
    rb_conninfo_parse_error(conninfo, err ? err : "out of memory", msg, sizeof msg);
    msg[strcspn(msg, "\n")] = 0;
    PQfreemem(err);
    snprintf(out, out_size, "bad conninfo (not shown): %s", msg);
    return -1;
}
