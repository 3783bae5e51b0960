/* error.c — messages for the RB_E* codes and the thread-local detail. */
#include "ringbench/error.h"
#include "ringbench/utf8.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Large enough for a server message with its conninfo; a longer one ends in "...". */
static _Thread_local char detail[1024];

const char *rb_strerror(int code) {
    switch (code) {
#define RB_ERROR_CASE_(name, value, msg)                                                           \
    case value:                                                                                    \
        return msg;
        RB_ERROR_LIST(RB_ERROR_CASE_)
#undef RB_ERROR_CASE_
    }
    return "unknown error";
}

const char *rb_error_detail(void) { return detail; }

int rb_set_error(int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof detail) /* cut on a character boundary, and marked */
        memcpy(detail + rb_utf8_cut(detail, sizeof detail - 1, sizeof detail - 4), "...", 4);
    return code;
}
