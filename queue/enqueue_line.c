/* enqueue_line.c — one input line of `ringbench pg enqueue` (enqueue_line.h). */
#include "enqueue_line.h"

#include <stdio.h>
#include <string.h>

#include "ringbench/error.h"
#include "ringbench/hash.h"

/* Check one field: non-empty, short enough for its btree index. */
static int field_ok(const char *what, size_t len, char *err, size_t err_size) {
    if (len == 0) {
        snprintf(err, err_size, "empty %s%s", what,
                 what[0] == 'i' ? " (leave the field out to get the default KEY#LINE)" : "");
        return 0;
    }
    if (len > RB_ENQUEUE_FIELD_MAX) {
        snprintf(err, err_size,
                 "%s of %zu bytes is longer than %u bytes (Postgres refuses index entries "
                 "over 2704 bytes)",
                 what, len, RB_ENQUEUE_FIELD_MAX);
        return 0;
    }
    return 1;
}

int rb_enqueue_line_parse(const char *line, size_t len, rb_enqueue_line *out, char *err,
                          size_t err_size) {
    memset(out, 0, sizeof *out);
    if (len && line[len - 1] == '\r') len--;
    if (len == 0) return RB_ENQUEUE_LINE_BLANK;
    if (memchr(line, 0, len)) {
        snprintf(err, err_size, "NUL byte (fields are text)");
        return -1;
    }
    /* Every field is stored as text: the server would reject the whole
     * statement. Same check as fnv1a32-js. */
    if (rb_hash_check(&rb_hash_fnv1a32_js, line, len)) {
        snprintf(err, err_size, "not valid UTF-8 (%s)", rb_error_detail());
        return -1;
    }
    const char *end = line + len, *tab = memchr(line, '\t', len);
    out->key = line;
    out->key_len = tab ? (size_t)(tab - line) : len;
    if (!field_ok("key", out->key_len, err, err_size)) return -1;
    if (!tab) return RB_ENQUEUE_LINE_ROW;
    out->idem = tab + 1;
    const char *tab2 = memchr(out->idem, '\t', (size_t)(end - out->idem));
    out->idem_len = (size_t)((tab2 ? tab2 : end) - out->idem);
    if (!field_ok("idempotency key", out->idem_len, err, err_size)) return -1;
    if (tab2) {
        out->payload = tab2 + 1;
        out->payload_len = (size_t)(end - out->payload);
    }
    return RB_ENQUEUE_LINE_ROW;
}
