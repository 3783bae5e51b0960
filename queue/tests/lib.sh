# lib.sh — shared by the pg scenario tests (sourced). Environment from ctest:
#   RB            the ringbench binary
#   RB_SCRIPTS    the scripts/ folder (scripts/pg)
#   RB_PG_TEST_DIR  folder of the embedded cluster the pg_server fixture starts
# The server: $RINGBENCH_PG_CONNINFO when set (scripts/test sets it from `scripts/pg url`),
# else the fixture's embedded cluster; else SKIP (exit 77), or FAIL when
# RINGBENCH_PG_REQUIRED=1 (CI). Each test works in its own schema(s) t_<test>_<pid>[_x], dropped
# at exit (RINGBENCH_PG_KEEP=1 keeps them), so tests run in parallel.
set -euo pipefail
TEST=$(basename "$0" .sh)
TMP=$(mktemp -d)
PIDS=()

fail() { echo "FAIL [$TEST] $*" >&2; exit 1; }
note() { echo "[$TEST] $*" >&2; }

if [[ -z ${RINGBENCH_PG_CONNINFO:-} ]]; then
    if RINGBENCH_PG_DIR=$RB_PG_TEST_DIR "$RB_SCRIPTS/pg" status >/dev/null 2>&1; then
        RINGBENCH_PG_CONNINFO=$(RINGBENCH_PG_DIR=$RB_PG_TEST_DIR "$RB_SCRIPTS/pg" url)
        export RINGBENCH_PG_CONNINFO
    elif [[ ${RINGBENCH_PG_REQUIRED:-0} == 1 ]]; then
        fail "no PostgreSQL server: set RINGBENCH_PG_CONNINFO or run scripts/pg start"
    else
        echo "SKIP [$TEST]: no PostgreSQL server (set RINGBENCH_PG_CONNINFO, or install postgresql so the pg_server fixture can start scripts/pg)"
        exit 77
    fi
fi
SCHEMA_BASE="t_${TEST//[^a-z0-9_]/_}_$$"
export RINGBENCH_PG_SCHEMA=$SCHEMA_BASE

# use_schema SUFFIX — switch to another schema of this test (t_..._SUFFIX).
use_schema() { export RINGBENCH_PG_SCHEMA="${SCHEMA_BASE}_$1"; }

# q SQL — run SQL in the current schema, print unaligned tuples.
q() { psql "$RINGBENCH_PG_CONNINFO" -XAtq -v ON_ERROR_STOP=1 -c "SET search_path TO $RINGBENCH_PG_SCHEMA" -c "$1"; }

# A test may define on_exit (e.g. to undo a server setting); it runs first, and the test's exit
# code is kept.
cleanup() {
    local rc=$?
    if [[ $(type -t on_exit) == function ]]; then on_exit || true; fi
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    if [[ ${RINGBENCH_PG_KEEP:-0} != 1 ]]; then
        psql "$RINGBENCH_PG_CONNINFO" -XAtq -c "SELECT 'DROP SCHEMA ' || nspname || ' CASCADE;' FROM pg_namespace WHERE nspname LIKE '${SCHEMA_BASE}%'" 2>/dev/null |
            psql "$RINGBENCH_PG_CONNINFO" -XAtq >/dev/null 2>&1 || true
    fi
    if [[ $rc != 0 && $rc != 77 ]]; then
        for f in "$TMP"/*.out "$TMP"/*.err; do [[ -s $f ]] && { echo "--- $f" >&2; tail -20 "$f" >&2; }; done
    fi
    rm -rf "$TMP"
    exit $rc
}
trap cleanup EXIT

# expect_eq WHAT GOT EXPECTED
expect_eq() { [[ $2 == "$3" ]] || fail "$1: got '$2', expected '$3'"; }

# wait_for SECONDS SQL — poll until SQL prints 't'.
wait_for() {
    local deadline=$((SECONDS + $1)) v
    while ((SECONDS < deadline)); do
        v=$(q "$2" 2>/dev/null || true)
        [[ $v == t ]] && return 0
        sleep 0.05
    done
    fail "timed out after $1 s waiting for: $2"
}

# bg NAME ARGS... — run `ringbench pg ARGS` in the background, stdout/stderr to $TMP/NAME.{out,err}.
bg() {
    local name=$1
    shift
    "$RB" pg "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
    PIDS+=($!)
    eval "PID_$name=$!"
}

# hold_open NAME SECONDS SQL [AFTER] — in the background (psql, $TMP/NAME.{out,err}, pid in
# PID_NAME), a transaction that runs SQL in the current schema, then sleeps SECONDS, runs AFTER
# (if given) and commits; returns once SQL has run and the sleep is under way (the session waits
# on PgSleep).
hold_open() {
    local name=$1 secs=$2 tag="hold:${RINGBENCH_PG_SCHEMA}:$1" after=${4:+$4;}
    psql "$RINGBENCH_PG_CONNINFO" -XAtq -v ON_ERROR_STOP=1 -c "SET search_path TO $RINGBENCH_PG_SCHEMA" \
        -c "/* $tag */ BEGIN; $3; SELECT pg_sleep($secs); $after COMMIT;" >"$TMP/$name.out" 2>"$TMP/$name.err" &
    PIDS+=($!)
    eval "PID_$name=$!"
    wait_for 5 "SELECT count(*) = 1 FROM pg_stat_activity WHERE query LIKE '/* $tag */%' AND state = 'active' AND wait_event = 'PgSleep'"
}

# wait_ok NAME — wait for a bg process and require exit 0.
wait_ok() {
    local pid_var="PID_$1" rc=0
    wait "${!pid_var}" || rc=$?
    [[ $rc == 0 ]] || fail "worker $1 exited $rc: $(tail -3 "$TMP/$1.err")"
}

# running NAME — is the bg / hold_open process NAME still running?
running() {
    local pid_var="PID_$1"
    kill -0 "${!pid_var}" 2>/dev/null
}

# field NAME KEY — a key=value field from a worker's text summary.
field() { grep -o "\b$2=[0-9.]*" "$TMP/$1.out" | head -1 | cut -d= -f2; }

# check_schema WHAT PATH... — scripts/check-schema on PATHs (files or folders): fail naming
# WHAT when a JSON file does not validate; a note when python3-jsonschema is missing (77).
check_schema() {
    local what=$1 src=0
    shift
    "$RB_SCRIPTS/check-schema" "$@" >"$TMP/schema.out" 2>&1 || src=$?
    case $src in
    0) ;;
    77) echo "NOTE: schemas not checked: $(cat "$TMP/schema.out")" ;;
    *) cat "$TMP/schema.out" >&2; fail "scripts/check-schema: $what does not validate (above)" ;;
    esac
}
