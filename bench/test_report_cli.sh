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
n_pass=0
n_fail=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# expect CASE STATUS OUT ARGS... : exit STATUS and one stderr line, stdout to OUT
expect() {
    case_=$1 want=$2 out=$3
    shift 3
    python3 "$P" "$@" >"$out" 2>"$tmp/err"
    rc=$?
    n_err=$(wc -l <"$tmp/err" | tr -d ' ')
    if [ "$rc" -eq "$want" ] && [ "$n_err" -eq 1 ]; then
        n_pass=$((n_pass + 1))
    else
        n_fail=$((n_fail + 1))
        printf 'FAIL report.py: %s: got exit %s and %s stderr lines (%s), expected exit %s and one line\n' \
            "$case_" "$rc" "$n_err" "$(head -c 300 "$tmp/err")" "$want" >&2
    fi
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
echo "test_report_cli: $n_pass passed, $n_fail failed"
[ "$n_fail" -eq 0 ]
