#!/usr/bin/env bash
# scripts/test_compare.sh — ctest compare_cli: scripts/compare on made-up result folders with
# known answers: 5 repetitions 20 % slower -> `slower`, exit 1 (exact U test p = 0.0079); the
# same samples -> `same`, exit 0; one sample each -> `not judged`, exit 0; a changed
# verification code or pg lost count -> `changed`, exit 1; bad usage -> exit 2.
set -uo pipefail
C=$(cd "$(dirname "$0")" && pwd)/compare
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n_fail=0
fail() { echo "FAIL compare: $*" >&2; n_fail=$((n_fail + 1)); }
# mk DIR SCALE REPS CODE LOST — a folder with bench/lookup.json (REPS repetitions of cpu times
# 100..104 ns x SCALE), verify-codes.json (got CODE) and pg/pgbench.json (n_lost LOST)
mk() {
    mkdir -p "$1/bench" "$1/pg"
    python3 - "$@" <<'PY'
import json, sys
d, scale, reps, code, lost = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
b = [{"name": "key/latency/binary/xxh3/N:16/V:128", "run_name": "key/latency/binary/xxh3/N:16/V:128",
      "run_type": "iteration", "repetition_index": i, "cpu_time": (100 + i) * scale, "time_unit": "ns"}
     for i in range(reps)]
json.dump({"benchmarks": b}, open(f"{d}/bench/lookup.json", "w"))
json.dump({"rows": [{"algo": "binary", "hash": "xxh3", "got": code}]}, open(f"{d}/verify-codes.json", "w"))
json.dump({"cells": [{"mode": "affinity", "n_workers": 4, "batch": 8, "dist": "uniform",
                      "after": {"n_duplicates": 0}, "n_lost": lost, "n_dup_executions": 0}]},
          open(f"{d}/pg/pgbench.json", "w"))
PY
}
mk "$tmp/a" 1 5 0x1 0
mk "$tmp/slow" 1.2 5 0x1 0
mk "$tmp/one_a" 1 1 0x1 0
mk "$tmp/one_b" 1.5 1 0x1 0
mk "$tmp/code" 1 5 0x2 0
mk "$tmp/lost" 1 5 0x1 3
expect() { # CASE WANT_EXIT WANT_LINE_REGEX ARGS...
    local case_=$1 want=$2 re=$3 rc
    shift 3
    "$C" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [[ $rc == "$want" ]] || fail "$case_: exit $rc, expected $want ($(cat "$tmp/err"))"
    [[ -z $re ]] || grep -qE "$re" "$tmp/out" || fail "$case_: no line matching '$re' in: $(cat "$tmp/out")"
}
expect "20% slower, 5 samples" 1 $'^bench\tkey/latency/binary/xxh3/N:16/V:128\t.*\t\\+20\\.00%\t0\\.0079\tslower$' "$tmp/a" "$tmp/slow"
expect "faster the other way" 0 $'\t-16\\.67%\t0\\.0079\tfaster$' "$tmp/slow" "$tmp/a"
expect "same samples" 0 $'\t\\+0\\.00%\t1\\.0000\tsame$' "$tmp/a" "$tmp/a"
expect "one sample each" 0 'not judged \(1/1 samples' "$tmp/one_a" "$tmp/one_b"
expect "verification code changed" 1 $'^verify codes\tbinary xxh3\t0x1\t0x2\t-\t-\tchanged$' "$tmp/a" "$tmp/code"
expect "pg lost rows changed" 1 $'^pg\taffinity W 4 batch 8 uniform lost\t0\t3\t-\t-\tchanged$' "$tmp/a" "$tmp/lost"
expect "one folder" 2 "" "$tmp/a"
expect "not a folder" 2 "" "$tmp/a" "$tmp/none"
mkdir -p "$tmp/empty"
expect "a folder without results" 1 "" "$tmp/a" "$tmp/empty"
expect "bad --alpha" 2 "" "$tmp/a" "$tmp/a" --alpha 2
expect "empty folders" 1 "" "$tmp" "$tmp/a/bench"
echo "test_compare: $n_fail failed"
((n_fail == 0))
