/*
 * stats.c — summary statistics for `ringbench pg bench` (stats.h):
 * nearest-rank percentiles, per-100 ms throughput timelines and the dip /
 * recovery figures of a scale event.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stats.h"

void rbb_sleep_us(uint64_t us) {
    struct timespec ts = {.tv_sec = (time_t)(us / 1000000u),
                          .tv_nsec = (long)(us % 1000000u) * 1000};
    while (nanosleep(&ts, &ts) && errno == EINTR) {
    }
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

void rbb_sort_u64(uint64_t *v, size_t n) {
    if (n > 1) qsort(v, n, sizeof *v, cmp_u64);
}

int rbb_mean_ci95(const double *x, size_t n, double *mean, double *lo, double *hi) {
    static const double t975[31] = {0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
                                    2.306, 2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
                                    2.120, 2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
                                    2.064, 2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
    double sum = 0, ss = 0;
    for (size_t i = 0; i < n; i++)
        sum += x[i];
    if (n) *mean = sum / (double)n;
    if (n < 2) return -1;
    for (size_t i = 0; i < n; i++)
        ss += (x[i] - *mean) * (x[i] - *mean);
    size_t df = n - 1;
    double t = df <= 30 ? t975[df] : 1.96 + 2.5 / (double)df;
    double half = t * sqrt(ss / (double)df) / sqrt((double)n);
    *lo = *mean - half, *hi = *mean + half;
    return 0;
}

double rbb_percentile_sorted(const uint64_t *sorted, size_t n, double p) {
    if (n == 0) return 0;
    return sorted[rb_nearest_rank(n, p)]; /* the one percentile definition */
}

rbb_recovery rbb_timeline_recovery(const double *rows_per_s, size_t n_bins, size_t event_bin,
                                   size_t n_baseline_bins, size_t n_window_bins) {
    rbb_recovery r;
    memset(&r, 0, sizeof r);
    r.recovery_ms = -1;
    if (event_bin > n_bins) event_bin = n_bins;
    size_t b0 = event_bin > n_baseline_bins ? event_bin - n_baseline_bins : 0;
    double sum = 0;
    for (size_t i = b0; i < event_bin; i++)
        sum += rows_per_s[i];
    r.baseline_rows_per_s = event_bin > b0 ? sum / (double)(event_bin - b0) : 0;
    r.min_rows_per_s = -1;
    for (size_t i = event_bin; i < n_bins; i++) {
        if (r.min_rows_per_s < 0 || rows_per_s[i] < r.min_rows_per_s) {
            r.min_rows_per_s = rows_per_s[i];
            r.min_at_ms = (double)(i - event_bin) * RBB_BIN_MS;
        }
    }
    if (r.min_rows_per_s < 0) r.min_rows_per_s = 0;
    r.dip_fraction = r.baseline_rows_per_s > 0 ? 1.0 - r.min_rows_per_s / r.baseline_rows_per_s : 0;
    /* Recovery: the first window of n_window_bins after the event whose mean
     * is back to >= 90% of the baseline; its start, relative to the event. */
    for (size_t i = event_bin; i + n_window_bins <= n_bins; i++) {
        double w = 0;
        for (size_t j = i; j < i + n_window_bins; j++)
            w += rows_per_s[j];
        if (w / (double)n_window_bins >= 0.9 * r.baseline_rows_per_s) {
            r.recovery_ms = (double)(i - event_bin) * RBB_BIN_MS;
            break;
        }
    }
    return r;
}

static double window_mean(const double *v, size_t from, size_t n) {
    double sum = 0;
    for (size_t i = from; i < from + n; i++)
        sum += v[i];
    return n ? sum / (double)n : 0;
}

rbb_window_dip rbb_timeline_window_dip(const double *rows_per_s, size_t n_bins, size_t event_bin,
                                       size_t n_window, size_t skip_bins) {
    rbb_window_dip d = {0, 0, -1, -1, 0};
    if (n_window == 0 || event_bin > n_bins) return d;
    if (event_bin >= n_window)
        d.before_rows_per_s = window_mean(rows_per_s, event_bin - n_window, n_window);
    if (event_bin + n_window <= n_bins)
        d.after_rows_per_s = window_mean(rows_per_s, event_bin, n_window);
    if (event_bin >= n_window && event_bin + n_window <= n_bins && d.before_rows_per_s > 0)
        d.dip_fraction = 1.0 - d.after_rows_per_s / d.before_rows_per_s;
    double lo = -1, hi = -1;
    for (size_t i = skip_bins; i + n_window <= event_bin; i++, d.n_pre_windows++) {
        double m = window_mean(rows_per_s, i, n_window);
        if (lo < 0 || m < lo) lo = m;
        if (hi < 0 || m > hi) hi = m;
    }
    if (d.n_pre_windows && hi > 0) d.pre_variation = 1.0 - lo / hi;
    return d;
}
