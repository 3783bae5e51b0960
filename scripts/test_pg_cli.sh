#!/bin/bash
# test_pg_cli.sh — scripts/pg refuses bad arguments with exit 2 and one line on stderr, before
# it looks for the server binaries or creates anything: install-ext takes exactly one CMake
# build folder (an extra argument was never checked by a test), stop/restart/url/status take
# none (they ignored extra arguments), start takes --no-fsync only (it ignored the rest), and a
# RINGBENCH_PG_PRELOAD of library names the server has.
# Needs no server: RINGBENCH_PG_DIR points at a folder that must stay absent.
#
#   bash scripts/test_pg_cli.sh
set -u
pg=$(cd "$(dirname "$0")" && pwd)/pg
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export RINGBENCH_PG_DIR=$tmp/cluster RINGBENCH_PG_PORT=1
mkdir "$tmp/build" && touch "$tmp/build/CMakeCache.txt" # a build folder, as far as the check goes
n_pass=0 n_fail=0

# expect PATTERN ARGS... — scripts/pg ARGS: exit 2, exactly one stderr line matching PATTERN.
expect() {
    local pattern=$1 rc=0
    shift
    "$pg" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
    local lines
    lines=$(wc -l <"$tmp/err")
    if [[ $rc == 2 && $lines == 1 ]] && grep -q -- "$pattern" "$tmp/err" && [[ ! -e $RINGBENCH_PG_DIR ]]; then
        n_pass=$((n_pass + 1))
    else
        echo "FAIL scripts/pg $*: exit $rc, $lines stderr lines ($(head -c 300 "$tmp/err")), cluster folder $([[ -e $RINGBENCH_PG_DIR ]] && echo created || echo absent); expected exit 2, one line matching /$pattern/, no folder" >&2
        n_fail=$((n_fail + 1))
    fi
    rm -rf "$RINGBENCH_PG_DIR"
}

expect "install-ext: one BUILD folder, got 2 arguments" install-ext "$tmp/build" extra
expect "install-ext: one BUILD folder, got 3 arguments" install-ext "$tmp/build" "$tmp/build" x
expect "install-ext: one BUILD folder, got 0 arguments" install-ext
expect "install-ext: give a CMake build folder (got '$tmp/none')" install-ext "$tmp/none"
for c in stop restart url status; do
    expect "$c: takes no arguments, got 'extra'" "$c" extra
done
expect "start: the only option is --no-fsync, got '--bogus'" start --bogus
expect "start: the only option is --no-fsync, got '--no-fsync extra'" start --no-fsync extra
# RINGBENCH_PG_PRELOAD: a name that is not one (an injection attempt among them), and a library
# the server does not have; both before initdb (they were exit 1, after the cluster was made,
# and the second printed the server's 5 lines)
RINGBENCH_PG_PRELOAD="pg_stat_statements -c fsync=off" expect "start: RINGBENCH_PG_PRELOAD: give library names separated by commas" start
RINGBENCH_PG_PRELOAD="a,,b" expect "start: RINGBENCH_PG_PRELOAD: give library names" start
RINGBENCH_PG_PRELOAD="-c" expect "start: RINGBENCH_PG_PRELOAD: give library names" start
if compgen -G "/usr/lib/postgresql/*/bin/pg_config" >/dev/null; then
    RINGBENCH_PG_PRELOAD=no_such_lib expect "start: RINGBENCH_PG_PRELOAD: no library 'no_such_lib'" start
    # names with digits and hyphens are library names too (postgis-3): past the name check
    RINGBENCH_PG_PRELOAD=pg_stat_statements,postgis-3x9 expect "start: RINGBENCH_PG_PRELOAD: no library 'postgis-3x9'" start
fi
expect "usage: scripts/pg start" bogus
# --help is data: the header on stdout, exit 0, nothing made (it was the usage line, exit 2);
# after a command too (`start --help` was a bad argument, exit 2; fresh user, helper-70)
for args in "--help" "-h" "start --help" "stop -h" "install-ext --help"; do
    rc=0
    # shellcheck disable=SC2086 # the words of $args on purpose
    "$pg" $args >"$tmp/out" 2>"$tmp/err" || rc=$?
    if [[ $rc == 0 && ! -s $tmp/err && ! -e $RINGBENCH_PG_DIR ]] && grep -q "^scripts/pg — " "$tmp/out" &&
        grep -q "^  scripts/pg install-ext BUILD" "$tmp/out"; then
        n_pass=$((n_pass + 1))
    else
        echo "FAIL scripts/pg $args: exit $rc, stdout '$(head -c 200 "$tmp/out")', stderr '$(head -c 200 "$tmp/err")'; expected exit 0, the header on stdout" >&2
        n_fail=$((n_fail + 1))
    fi
done
expect "usage: scripts/pg start"
echo "test_pg_cli: $n_pass passed, $n_fail failed"
((n_fail == 0))
