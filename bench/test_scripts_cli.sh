#!/bin/sh
# test_scripts_cli.sh — scripts/hyperfine and scripts/bench reject bad
# arguments with exit 2: hyperfine with one line on stderr before it times
# anything (no results folder), bench also when the benchmark binary is what
# rejects them (it used to turn that 2 into 1) or no case matches --filter;
# ringbench-bench exits 1 when it cannot write its output.
#
#   sh bench/test_scripts_cli.sh path/to/scripts BUILD_DIR
#
# Failures print the case, got and expected; the last line is
# "test_scripts_cli: N passed, N failed".
SCRIPTS=${1:?usage: test_scripts_cli.sh SCRIPTS_DIR BUILD_DIR}
BUILD=${2:?usage: test_scripts_cli.sh SCRIPTS_DIR BUILD_DIR}
H=$SCRIPTS/hyperfine
n_pass=0
n_fail=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

expect_usage() {
    case_=$1
    shift
    "$H" --build "$BUILD" --out "$tmp/out" --n-keys 10 --runs 1 "$@" >/dev/null 2>"$tmp/err"
    rc=$?
    n_err=$(wc -l <"$tmp/err" | tr -d ' ')
    if [ "$rc" -eq 2 ] && [ "$n_err" -eq 1 ] && [ ! -e "$tmp/out" ]; then
        n_pass=$((n_pass + 1))
    else
        n_fail=$((n_fail + 1))
        printf 'FAIL hyperfine: %s: got exit %s, %s stderr lines (%s), results folder %s; expected exit 2, one line, no folder\n' \
            "$case_" "$rc" "$n_err" "$(head -c 300 "$tmp/err")" \
            "$([ -e "$tmp/out" ] && echo written || echo absent)" >&2
    fi
    rm -rf "$tmp/out"
}

expect_usage "--vnodes 0" --vnodes 0
expect_usage "--vnodes too large" --vnodes 99999999
expect_usage "--vnodes not a number" --vnodes x
expect_usage "--members 0" --members 0
expect_usage "--n-keys 0" --n-keys 0
expect_usage "--keys missing" --keys "$tmp/no-such-file"
expect_usage "unknown option" --bogus
expect_usage "--runs without value" --runs
# scripts/bench: what the benchmark binary rejects is a usage error (exit 2)
if [ -x "$BUILD/bench/ringbench-bench" ]; then
    for args in "--min-time abc" "--keys $tmp/no-such-file" "--filter no_case_matches_this"; do
        # shellcheck disable=SC2086
        "$SCRIPTS/bench" --build "$BUILD" --smoke --out "$tmp/bench" $args >/dev/null 2>"$tmp/err"
        rc=$?
        if [ "$rc" -eq 2 ]; then
            n_pass=$((n_pass + 1))
        else
            n_fail=$((n_fail + 1))
            printf 'FAIL bench: %s: got exit %s (%s), expected exit 2\n' "$args" "$rc" \
                "$(tail -n 1 "$tmp/err" | head -c 300)" >&2
        fi
    done
    # the benchmark binary itself: a full stdout is a failure (exit 1), not 0
    "$BUILD/bench/ringbench-bench" --smoke --n-keys=256 --benchmark_filter='^hash/latency/xxh3' \
        >/dev/full 2>/dev/null
    rc=$?
    if [ "$rc" -eq 1 ]; then
        n_pass=$((n_pass + 1))
    else
        n_fail=$((n_fail + 1))
        echo "FAIL ringbench-bench: stdout /dev/full: got exit $rc, expected 1" >&2
    fi
fi
echo "test_scripts_cli: $n_pass passed, $n_fail failed"
[ "$n_fail" -eq 0 ]
