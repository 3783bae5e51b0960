#!/bin/sh
# test_scripts_cli.sh — scripts/hyperfine, scripts/bench and scripts/fuzz reject bad
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
. "$(dirname "$0")/expect.sh"

expect_usage() {
    case_=$1
    shift
    "$H" --build "$BUILD" --out "$tmp/out" --n-keys 10 --runs 1 "$@" >/dev/null 2>"$tmp/err"
    rc=$?
    n_err=$(wc -l <"$tmp/err" | tr -d ' ')
    if [ "$rc" -eq 2 ] && [ "$n_err" -eq 1 ] && [ ! -e "$tmp/out" ]; then
        pass
    else
        fail "hyperfine: $case_: got exit $rc, $n_err stderr lines ($(head -c 300 "$tmp/err")), results folder $([ -e "$tmp/out" ] && echo written || echo absent); expected exit 2, one line, no folder"
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
    for args in "--min-time abc" "--keys $tmp/no-such-file" "--filter no_case_matches_this" \
        "--repetitions 0" "--repetitions 101" "--repetitions 2x"; do
        # shellcheck disable=SC2086
        "$SCRIPTS/bench" --build "$BUILD" --smoke --out "$tmp/bench" $args >/dev/null 2>"$tmp/err"
        rc=$?
        if [ "$rc" -eq 2 ]; then
            pass
        else
            fail "bench: $args: got exit $rc ($(tail -n 1 "$tmp/err" | head -c 300)), expected exit 2"
        fi
    done
    # --param: a malformed one is a usage error; one an algorithm refuses stops its cases with
    # an error, which is a failure (exit 1, the case named), not a quiet "n/a" (fresh user)
    for args in "--param x" "--param =1"; do
        # shellcheck disable=SC2086
        "$SCRIPTS/bench" --build "$BUILD" --smoke --out "$tmp/bench" $args >/dev/null 2>"$tmp/err"
        rc=$?
        if [ "$rc" -eq 2 ]; then pass; else fail "bench: $args: got exit $rc, expected 2"; fi
    done
    "$SCRIPTS/bench" --build "$BUILD" --smoke --out "$tmp/bench" --param capacity=8 \
        --filter '^position/latency/(anchor|modn)/xxh3/N:16' >/dev/null 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 1 ] && grep -q 'cases stopped with an error (first: position/latency/anchor/xxh3/N:16' "$tmp/err"; then
        pass
    else
        fail "bench --param capacity=8: got exit $rc ($(tail -n 1 "$tmp/err" | head -c 300)), expected 1 naming the anchor case"
    fi
    # the benchmark binary itself: a full stdout is a failure (exit 1), not 0
    "$BUILD/bench/ringbench-bench" --smoke --n-keys=256 --benchmark_filter='^hash/latency/xxh3' \
        >/dev/full 2>/dev/null
    rc=$?
    if [ "$rc" -eq 1 ]; then pass; else fail "ringbench-bench: stdout /dev/full: got exit $rc, expected 1"; fi
fi
# --out that cannot be a folder: every script that takes --out exits 2 with one line naming
# the folder (scripts/out-dir, as `ringbench pg bench` / `pg chaos` through rb_cli_out_dir),
# before any work; before, hyperfine, bench and fuzz exited 1 with mkdir's message, run 1.
touch "$tmp/a-file"
out_bad() { # out_bad SCRIPT OUT ARGS... — exit 2, one stderr line "cannot create --out folder"
    s=$1 o=$2
    shift 2
    "$SCRIPTS/$s" --out "$o" "$@" >/dev/null 2>"$tmp/err" </dev/null
    rc=$?
    n_err=$(wc -l <"$tmp/err" | tr -d ' ')
    if [ "$rc" -eq 2 ] && [ "$n_err" -eq 1 ] && grep -q "^scripts/$s: cannot create --out folder '" "$tmp/err"; then
        pass
    else
        fail "$s --out $o: got exit $rc, $n_err stderr lines ($(head -c 300 "$tmp/err")); expected exit 2, one line 'scripts/$s: cannot create --out folder ...'"
    fi
}
for o in /dev/null/x "$tmp/a-file"; do
    command -v hyperfine >/dev/null && out_bad hyperfine "$o" --build "$BUILD" --n-keys 10 --runs 1
    [ -x "$BUILD/bench/ringbench-bench" ] && out_bad bench "$o" --build "$BUILD" --smoke
    out_bad fuzz "$o" --build "$tmp/fuzz-build" --seconds 1
    out_bad bench-enqueue "$o" --build "$BUILD" --rows 10
    out_bad run "$o/run" --smoke --no-bootstrap --no-pg --build "$BUILD"
done
out_bad run "$tmp/a-file" --smoke --no-bootstrap --no-pg --build "$BUILD"
# scripts/bench-enqueue hands the conninfo (maybe with a password) to psql through the PG*
# variables, never on a command line `ps` shows: libpq parses it (scripts/pylib/pg_env.py) into
# the variables libpq names for its keywords; a string libpq refuses is exit 2, one line.
got=$(RB_CONNINFO="postgresql://u:pw@h:7/db?sslmode=disable" python3 "$SCRIPTS/pylib/pg_env.py" | sort | tr '\n' ' ')
want="export PGDATABASE=db export PGHOST=h export PGPASSWORD=pw export PGPORT=7 export PGSSLMODE=disable export PGUSER=u "
if [ "$got" = "$want" ]; then pass; else fail "pg_env.py: got '$got', expected '$want'"; fi
RINGBENCH_PG_CONNINFO=nokey "$SCRIPTS/bench-enqueue" --build "$BUILD" --rows 10 >/dev/null 2>"$tmp/err" </dev/null
rc=$?
if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err" | tr -d ' ')" -eq 1 ] && grep -q '^scripts/bench-enqueue: --conninfo: the connection string does not parse' "$tmp/err"; then
    pass
else
    fail "bench-enqueue with an unparsable conninfo: exit $rc, stderr '$(head -c 300 "$tmp/err")'; expected exit 2, one line"
fi
# --producer-secs: 0 .. 999 whole seconds, else exit 2 with one line naming it
for v in x -1 1000 1.5 ''; do
    "$SCRIPTS/bench-enqueue" --build "$BUILD" --producer-secs "$v" >/dev/null 2>"$tmp/err" </dev/null
    rc=$?
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err" | tr -d ' ')" -eq 1 ] && grep -q -- '--producer-secs' "$tmp/err"; then
        pass
    else
        fail "bench-enqueue --producer-secs '$v': exit $rc, stderr '$(head -c 300 "$tmp/err")'; expected exit 2, one line"
    fi
done
# the folder is checked before any work: with no build yet, scripts/bench must not configure
# one first (it did: a fresh user waited for cmake before the exit 2), and scripts/run names
# mkdir's reason for a folder that does not exist (it said "it exists and is not a folder")
out_bad bench /proc/ringbench-no-such --build "$tmp/no-build" --smoke
if [ -e "$tmp/no-build" ]; then fail "scripts/bench --out /proc/...: configured a build before checking --out"; else pass; fi
out_bad run /proc/ringbench-no-such --smoke --no-bootstrap --no-pg --build "$BUILD"
if grep -q "it exists" "$tmp/err"; then fail "scripts/run --out /proc/...: '$(cat "$tmp/err")' gives the wrong reason"; else pass; fi
# scripts/fuzz: options that exclude each other, a repeated option or target and --seconds
# beyond 1..86400 are usage errors (exit 2, one line, nothing built, no folder); before,
# --smoke ignored --seconds, the last --seconds won, `keys keys` ran twice and a huge
# --seconds ran forever (issue 16).
fuzz_usage() { # fuzz_usage WANT ARGS... — exit 2, one stderr line containing WANT
    want=$1
    shift
    # timeout: a --seconds that slips through must fail here, not hang until ctest gives up
    timeout 120 "$SCRIPTS/fuzz" --build "$tmp/fuzz-build" --out "$tmp/fuzz-out" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    n_err=$(wc -l <"$tmp/err" | tr -d ' ')
    if [ "$rc" -eq 2 ] && [ "$n_err" -eq 1 ] && [ ! -s "$tmp/out" ] && grep -qF -- "$want" "$tmp/err" &&
        [ ! -e "$tmp/fuzz-build" ] && [ ! -e "$tmp/fuzz-out" ]; then
        pass
    else
        fail "fuzz $*: got exit $rc, $n_err stderr lines ($(head -c 300 "$tmp/err")); expected exit 2, one line with '$want', no build or results folder"
    fi
    rm -rf "$tmp/fuzz-build" "$tmp/fuzz-out"
}
fuzz_usage "exclude each other" --smoke --seconds 5
fuzz_usage "exclude each other" --seconds 5 --smoke
fuzz_usage "is out of range (1..86400)" --seconds 99999999999999999999 keys
fuzz_usage "is out of range (1..86400)" --seconds 86401 keys
fuzz_usage "is out of range (1..86400)" --seconds 0 keys
fuzz_usage "--seconds is given twice" --seconds 2 --seconds 3 keys
fuzz_usage "--smoke is given twice" --smoke --smoke
fuzz_usage "target 'keys' is given twice" --seconds 1 keys keys
# without clang (a compiler that does not exist): SKIPPED (77) on stderr, stdout stays data
RINGBENCH_FUZZ_CC=$tmp/no-clang "$SCRIPTS/fuzz" --build "$tmp/fuzz-build" --out "$tmp/fuzz-out" \
    --seconds 1 keys >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
if [ "$rc" -eq 77 ] && [ ! -s "$tmp/out" ] && grep -q '^SKIPPED: scripts/fuzz needs clang' "$tmp/err"; then
    pass
else
    fail "fuzz without clang: got exit $rc, stdout '$(head -c 200 "$tmp/out")', stderr '$(head -c 200 "$tmp/err")'; expected 77, SKIPPED on stderr, empty stdout"
fi
rm -rf "$tmp/fuzz-build" "$tmp/fuzz-out"
# the helper itself: a missing folder is made with its parents, a good one is kept
"$SCRIPTS/out-dir" t "$tmp/made/a/b" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ] && [ -d "$tmp/made/a/b" ]; then pass; else fail "out-dir on a new nested folder: exit $rc, $(cat "$tmp/err")"; fi
expect_done test_scripts_cli
