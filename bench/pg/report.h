/*
 * report.h — the outputs of `ringbench pg bench` (bench/pg/README.md). Not
 * a public interface; writes to the FILE given, nothing else.
 */
#ifndef RINGBENCH_PGB_REPORT_H
#define RINGBENCH_PGB_REPORT_H

#include <stdio.h>

#include "cells.h"

/* JSON (every figure and parameter) and Markdown tables. */
void rbb_report_json(FILE *f, const rbb_run *run);
void rbb_report_md(FILE *f, const rbb_run *run);
/* The scale timelines as CSV: algo,t_ms_from_join,rows_per_s. */
void rbb_report_timeline_csv(FILE *f, const rbb_run *run);

#endif
