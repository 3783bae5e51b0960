/*
 * stop.c — the stop flag of `ringbench pg bench` (stop.h).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "stop.h"

volatile sig_atomic_t rbb_stop_signal;

/* When the first stop signal came (CLOCK_MONOTONIC); written once, by the handler. */
static struct timespec first_at;

/* Async-signal-safe (clock_gettime, signal and raise are): the first signal sets the flag (the
 * driver says what it stopped once it has); another within RBB_STOP_SAME_MS of it is the same
 * stop (timeout(1) signals the process and then its group, a terminal's Ctrl-C may reach it
 * twice); a later one ends the process at once, by the signal's default action. */
static void on_stop_signal(int sig) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (!rbb_stop_signal) {
        first_at = now;
        rbb_stop_signal = sig;
        return;
    }
    long long ms = (long long)(now.tv_sec - first_at.tv_sec) * 1000 +
                   (now.tv_nsec - first_at.tv_nsec) / 1000000;
    if (ms < RBB_STOP_SAME_MS) return;
    signal(sig, SIG_DFL);
    raise(sig);
}

void rbb_stop_on_signals(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = 0;          /* no SA_RESTART: polls and sleeps see EINTR */
    sigemptyset(&sa.sa_mask); /* the handler runs with both signals blocked: never nested */
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
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
