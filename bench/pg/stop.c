/*
 * stop.c — the stop flag of `ringbench pg bench` (stop.h).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "stop.h"

volatile sig_atomic_t rbb_stop_signal;

/* Async-signal-safe: a flag (the driver says what it stopped once it has). */
static void on_stop_signal(int sig) { rbb_stop_signal = sig; }

void rbb_stop_on_signals(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = SA_RESETHAND; /* no SA_RESTART: polls and sleeps see EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

const char *rbb_stop_reason(char *buf, size_t size) {
    snprintf(buf, size, "interrupted by %s",
             rbb_stop_signal == SIGINT    ? "SIGINT"
             : rbb_stop_signal == SIGTERM ? "SIGTERM"
                                          : "a signal");
    return buf;
}
