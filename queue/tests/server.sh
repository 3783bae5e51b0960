# server.sh start|stop — the pg_server ctest fixture. Starts the embedded cluster in
# $RB_PG_TEST_DIR unless RINGBENCH_PG_CONNINFO is set; stop removes it only if start made it.
# Exit codes (SKIP_RETURN_CODE 77 in queue/tests/CMakeLists.txt):
#   start: 0 server up (and answering); 77 no server and RINGBENCH_PG_REQUIRED != 1, so ctest
#          shows the pg tests SKIPPED, not passed; 1 no server while RINGBENCH_PG_REQUIRED=1;
#   stop:  0 the cluster start made is stopped (checked: `scripts/pg status` fails afterwards),
#          or RINGBENCH_PG_CONNINFO's server, not ours, still answers; 77 nothing was started
#          (start skipped); 1 our cluster still runs after the stop, or the given server is gone.
set -uo pipefail
marker=$RB_PG_TEST_DIR.started-by-ctest
pg() { RINGBENCH_PG_DIR=$RB_PG_TEST_DIR "$RB_SCRIPTS/pg" "$@"; }
case $1 in
start)
    if [[ -n ${RINGBENCH_PG_CONNINFO:-} ]]; then
        if psql "$RINGBENCH_PG_CONNINFO" -XAtqc 'SELECT 1' >/dev/null 2>&1; then
            echo "pg_server: using RINGBENCH_PG_CONNINFO ($RINGBENCH_PG_CONNINFO)"
            exit 0
        fi
        echo "pg_server: RINGBENCH_PG_CONNINFO ($RINGBENCH_PG_CONNINFO) does not answer" >&2
        [[ ${RINGBENCH_PG_REQUIRED:-0} == 1 ]] && exit 1
        exit 77
    fi
    if RINGBENCH_PG_PRELOAD=pg_stat_statements pg start && pg status >/dev/null 2>&1; then
        touch "$marker"
        echo "pg_server: started the embedded cluster in $RB_PG_TEST_DIR"
        exit 0
    elif [[ ${RINGBENCH_PG_REQUIRED:-0} == 1 ]]; then
        echo "pg_server: scripts/pg start failed" >&2
        exit 1
    fi
    echo "SKIP pg_server: could not start scripts/pg; the pg tests SKIP"
    exit 77 ;;
stop)
    if [[ ! -f $marker && -n ${RINGBENCH_PG_CONNINFO:-} ]]; then
        # not ours to stop: check it was left running for whoever owns it
        if psql "$RINGBENCH_PG_CONNINFO" -XAtqc 'SELECT 1' >/dev/null 2>&1; then
            echo "pg_server: left the server of RINGBENCH_PG_CONNINFO running (not started here)"
            exit 0
        fi
        echo "pg_server: the server of RINGBENCH_PG_CONNINFO no longer answers" >&2
        exit 1
    fi
    if [[ ! -f $marker ]]; then
        echo "SKIP pg_server: no cluster started by this fixture"
        exit 77
    fi
    pg stop
    rm -f "$marker"
    if pg status >/dev/null 2>&1; then
        echo "pg_server: the cluster in $RB_PG_TEST_DIR still runs after scripts/pg stop" >&2
        exit 1
    fi
    echo "pg_server: stopped the embedded cluster in $RB_PG_TEST_DIR"
    exit 0 ;;
*)
    echo "usage: server.sh start|stop" >&2
    exit 2 ;;
esac
