/*
 * fuzz_enqueue_line.c — `ringbench pg enqueue`'s line parser
 * (queue/enqueue_line.c), no server. Contract checked on every input line:
 * a row's fields lie inside the line, KEY and IDEMPOTENCY_KEY are 1 ..
 * RB_ENQUEUE_FIELD_MAX bytes without TAB, and KEY TAB IDEM TAB PAYLOAD
 * rebuilds the line (without one trailing CR) byte for byte; every field is
 * NUL-free valid UTF-8 (what the server stores as text); BLANK only for an
 * empty line or a lone CR; an error always has a message.
 */
#include "enqueue_line.h"
#include "fuzz_util.h"
#include "ringbench/utf8.h"

static void check_field(const char *line, size_t len, const char *f, size_t flen, int tab_ok) {
    FUZZ_CHECK(f >= line && f + flen <= line + len, "field outside the line");
    FUZZ_CHECK(!memchr(f, 0, flen), "NUL in a field");
    FUZZ_CHECK(tab_ok || !memchr(f, '\t', flen), "TAB in a key field");
    FUZZ_CHECK(rb_utf8_check(f, flen) < 0, "field is not UTF-8");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *line = (const char *)data;
    rb_enqueue_line l;
    char err[200] = "";
    int kind = rb_enqueue_line_parse(size ? line : NULL, size, &l, err, sizeof err);
    size_t len = size && line[size - 1] == '\r' ? size - 1 : size;
    if (kind < 0) {
        FUZZ_CHECK(err[0] != 0, "error without a message");
        return 0;
    }
    if (kind == RB_ENQUEUE_LINE_BLANK) {
        FUZZ_CHECK(len == 0, "non-empty line of %zu bytes reported blank", len);
        return 0;
    }
    FUZZ_CHECK(kind == RB_ENQUEUE_LINE_ROW, "unknown result %d", kind);
    FUZZ_CHECK(l.key == line && l.key_len >= 1 && l.key_len <= RB_ENQUEUE_FIELD_MAX,
               "key length %zu", l.key_len);
    check_field(line, len, l.key, l.key_len, 0);
    size_t rebuilt = l.key_len;
    if (l.idem) {
        FUZZ_CHECK(l.idem_len >= 1 && l.idem_len <= RB_ENQUEUE_FIELD_MAX, "idem length %zu",
                   l.idem_len);
        FUZZ_CHECK(l.idem == line + l.key_len + 1 && line[l.key_len] == '\t', "idem placement");
        check_field(line, len, l.idem, l.idem_len, 0);
        rebuilt += 1 + l.idem_len;
        if (l.payload) {
            FUZZ_CHECK(l.payload == l.idem + l.idem_len + 1 && l.idem[l.idem_len] == '\t',
                       "payload placement");
            check_field(line, len, l.payload, l.payload_len, 1);
            rebuilt += 1 + l.payload_len;
        }
    } else {
        FUZZ_CHECK(!l.payload, "payload without idempotency key");
    }
    FUZZ_CHECK(rebuilt == len, "fields cover %zu of %zu bytes", rebuilt, len);
    return 0;
}
