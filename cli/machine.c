/* machine.c — the machine record and the tree's scripts' output (see machine.h). */
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Append s to cmd[0..size) as one shell word in single quotes ('\'' for a quote). 0 or -1. */
static int append_word(char *cmd, size_t size, const char *s) {
    size_t w = strlen(cmd);
    if (w + 3 >= size) return -1;
    cmd[w++] = ' ';
    cmd[w++] = '\'';
    for (; *s; s++) {
        const char *piece = *s == '\'' ? "'\\''" : NULL;
        size_t n = piece ? 4 : 1;
        if (w + n + 2 >= size) return -1;
        memcpy(cmd + w, piece ? piece : s, n);
        w += n;
    }
    cmd[w++] = '\'';
    cmd[w] = '\0';
    return 0;
}

char *rb_source_script(const char *script, const char *const *args) {
    char cmd[4096] = "";
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", RINGBENCH_SOURCE_DIR, script);
    if (append_word(cmd, sizeof cmd, path)) return NULL;
    for (size_t i = 0; args && args[i]; i++)
        if (append_word(cmd, sizeof cmd, args[i])) return NULL;
    if (strlen(cmd) + 20 >= sizeof cmd) return NULL;
    strcat(cmd, " 2>/dev/null");
    FILE *f = popen(cmd, "r");
    if (!f) return NULL;
    size_t cap = 8192, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap) {
            char *b = realloc(buf, cap *= 2);
            if (!b) free(buf);
            buf = b;
        }
    }
    int st = pclose(f);
    if (!buf) return NULL;
    buf[len] = '\0';
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
        buf[--len] = '\0';
    if (st != 0 || len == 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

char *rb_machine_record(void) {
    const char *args[] = {RINGBENCH_BINARY_DIR, NULL};
    char *buf = rb_source_script("scripts/machine-record", args);
    if (buf && buf[0] != '{') {
        free(buf);
        return NULL;
    }
    return buf;
}
