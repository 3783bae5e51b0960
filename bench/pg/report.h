/*
 * report.h — the outputs of `ringbench pg bench` (bench/pg/README.md). Not
 * a public interface; the md and csv writers write to the FILE given, nothing else.
 */
#ifndef RINGBENCH_PGB_REPORT_H
#define RINGBENCH_PGB_REPORT_H

#include <stdio.h>

#include <jansson.h>

#include "cells.h"

/* rbb_report_json — the JSON document of the run: every figure and parameter, the machine
 * record (a new jansson reference, for rb_json_emit; NULL when out of memory). */
json_t *rbb_report_json(const rbb_run *run);
/* The Markdown tables. The target table is rendered from the JSON document at json_path
 * (the run's pgbench.json) by bench/report.py --pg-targets; NULL, or python3 missing, gives
 * a line saying so instead. */
void rbb_report_md(FILE *f, const rbb_run *run, const char *json_path);
/* Whether two runs' parameters, as the JSON records them, differ in anything but where they
 * connect (queue_db, pgbench_db) and profile_overridden: 1 or 0 (1 when out of memory). */
int rbb_params_differ(const rbb_params *a, const rbb_params *b);
/* The scale timelines as CSV: algo,t_ms_from_join,rows_per_s. */
void rbb_report_timeline_csv(FILE *f, const rbb_run *run);

#endif
