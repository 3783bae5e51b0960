/*
 * stats.h — clocks and summary statistics of `ringbench pg bench`
 * (bench/pg/README.md): monotonic time, sleeps, nearest-rank percentiles and
 * the dip/recovery of a throughput timeline. Not a public interface; no
 * shared state (thread-safe).
 */
#ifndef RINGBENCH_PGB_STATS_H
#define RINGBENCH_PGB_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "ringbench/common.h" /* rb_now_ns, rb_nearest_rank */

/* Width of one bin of a throughput timeline (scale events, crashes). */
#define RBB_BIN_MS 100

/* Sleep us microseconds (resumed after signals). */
void rbb_sleep_us(uint64_t us);
void rbb_sort_u64(uint64_t *v, size_t n);
/* The mean of x[0..n) and its two-sided 95% confidence interval (Student's t with n - 1
 * degrees of freedom: exact table to 30, then 1.96 + 2.5 / df, within 0.002 of it), for n
 * independent draws of a normal quantity. 0, or -1 when n < 2 (*mean set when n == 1). */
int rbb_mean_ci95(const double *x, size_t n, double *mean, double *lo, double *hi);
/* Nearest-rank percentile p (0..100] of sorted[0..n); 0 when n == 0. */
double rbb_percentile_sorted(const uint64_t *sorted, size_t n, double p);

/* Throughput around an event (a join or a kill) on a per-RBB_BIN_MS timeline. */
typedef struct rbb_recovery {
    double baseline_rows_per_s; /* mean of the n_baseline bins before the event */
    double min_rows_per_s;      /* lowest bin at or after the event */
    double min_at_ms;           /* when, relative to the event */
    double dip_fraction;        /* 1 - min / baseline */
    double recovery_ms;         /* start of the first window (n_window bins) whose mean is
                                   >= 90% of the baseline, relative to the event; -1: never */
} rbb_recovery;

/* The dip of an event over whole windows, beside the variation before it (issue 11,
 * target 8): dip_fraction = 1 - mean(n_window bins from the event) / mean(n_window bins
 * before it); pre_variation = 1 - min / max of the means of every n_window-bin window
 * (sliding by one bin) in [skip_bins, event_bin): how much the same statistic moves
 * with no event. -1 where the timeline is too short. */
typedef struct rbb_window_dip {
    double before_rows_per_s, after_rows_per_s, dip_fraction, pre_variation;
    size_t n_pre_windows;
} rbb_window_dip;
rbb_window_dip rbb_timeline_window_dip(const double *rows_per_s, size_t n_bins, size_t event_bin,
                                       size_t n_window, size_t skip_bins);

rbb_recovery rbb_timeline_recovery(const double *rows_per_s, size_t n_bins, size_t event_bin,
                                   size_t n_baseline_bins, size_t n_window_bins);

#endif
