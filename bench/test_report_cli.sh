#!/bin/sh
# test_report_cli.sh — bench/report.py on files that are not a benchmark run
# (exit 2) and on output it cannot write (exit 1), each with exactly one line
# on stderr (never a Python traceback).
#
#   sh bench/test_report_cli.sh path/to/bench/report.py
#
# Failures print the case, got and expected; the last line is
# "test_report_cli: N passed, N failed".
P=${1:?usage: test_report_cli.sh REPORT_PY}
. "$(dirname "$0")/expect.sh"

# expect CASE STATUS OUT ARGS... : report.py with stdout to OUT
expect() {
    case_=$1 want=$2 out=$3
    shift 3
    expect_exit report.py "$case_" "$want" "$out" python3 "$P" "$@"
}

printf '{"benchmarks": ' >"$tmp/truncated.json"
printf '{}\n' >"$tmp/empty.json"
printf '{"benchmarks": [{"run_type": "iteration"}]}\n' >"$tmp/noname.json"
printf '{"context": {}, "benchmarks": [{"name": "hash/latency/xxh3/iterations:1", "run_type": "iteration", "cpu_time": 1, "time_unit": "ns", "lookups_per_s": 1e9}]}\n' >"$tmp/one.json"
expect "missing file" 2 /dev/null "$tmp/no-such.json"
expect "truncated JSON" 2 /dev/null "$tmp/truncated.json"
expect "no benchmarks list" 2 /dev/null "$tmp/empty.json"
expect "entry without a name" 2 /dev/null "$tmp/noname.json"
expect "stdout full" 1 /dev/full "$tmp/one.json"
expect "--out into a missing folder" 1 /dev/null "$tmp/one.json" --out "$tmp/no/such/report.md"
expect_done test_report_cli
