# server.sh start|stop — the pg_server ctest fixture. Starts the embedded cluster in
# $RB_PG_TEST_DIR unless RINGBENCH_PG_CONNINFO is set; stop removes it only if start made it.
set -uo pipefail
marker=$RB_PG_TEST_DIR.started-by-ctest
case $1 in
start)
    if [[ -n ${RINGBENCH_PG_CONNINFO:-} ]]; then
        echo "pg_server: using RINGBENCH_PG_CONNINFO ($RINGBENCH_PG_CONNINFO)"
        exit 0
    fi
    if RINGBENCH_PG_DIR=$RB_PG_TEST_DIR "$RB_SCRIPTS/pg" start; then
        touch "$marker"
    elif [[ ${RINGBENCH_PG_REQUIRED:-0} == 1 ]]; then
        echo "pg_server: scripts/pg start failed" >&2
        exit 1
    else
        echo "pg_server: could not start scripts/pg; the pg tests will SKIP"
    fi ;;
stop)
    if [[ -f $marker ]]; then
        RINGBENCH_PG_DIR=$RB_PG_TEST_DIR "$RB_SCRIPTS/pg" stop
        rm -f "$marker"
    fi ;;
esac
exit 0
