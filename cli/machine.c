/* machine.c — the machine record, read from scripts/machine-record (see machine.h). */
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>

char *rb_machine_record(void) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s/scripts/machine-record' '%s' 2>/dev/null", RINGBENCH_SOURCE_DIR,
             RINGBENCH_BINARY_DIR);
    FILE *f = popen(cmd, "r");
    if (!f) return NULL;
    size_t cap = 8192, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap) {
            char *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                buf = NULL;
            }
            buf = b;
        }
    }
    int st = pclose(f);
    if (!buf) return NULL;
    buf[len] = '\0';
    if (st != 0 || len == 0 || buf[0] != '{') {
        free(buf);
        return NULL;
    }
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
        buf[--len] = '\0';
    return buf;
}
