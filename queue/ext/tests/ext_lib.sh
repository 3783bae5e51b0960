# ext_lib.sh — sourced by the extension tests after queue/tests/lib.sh (which connects or
# SKIPs). need_ext: SKIP (exit 77) when the `ringbench` extension is not installed on the
# server (pg_ext_install could not install it: not root, no PGXS), FAIL instead under
# RINGBENCH_PG_REQUIRED=1 (CI). Then the database has the extension created.
need_ext() {
    if [[ $(q "SELECT count(*) FROM pg_available_extensions WHERE name = 'ringbench'") != 1 ]]; then
        [[ ${RINGBENCH_PG_REQUIRED:-0} == 1 ]] && fail "the ringbench extension is not installed on the server (scripts/pg install-ext BUILD)"
        echo "SKIP [$TEST]: the ringbench extension is not installed on the server (scripts/pg install-ext BUILD needs root and postgresql-server-dev)"
        exit 77
    fi
    # IF NOT EXISTS is not safe against a concurrent CREATE: accept the other session's.
    q "CREATE EXTENSION IF NOT EXISTS ringbench SCHEMA public" >/dev/null 2>&1 ||
        [[ $(q "SELECT count(*) FROM pg_extension WHERE extname = 'ringbench'") == 1 ]] ||
        fail "CREATE EXTENSION ringbench failed: $(q "CREATE EXTENSION IF NOT EXISTS ringbench SCHEMA public" 2>&1)"
}

# qp SQL — q with the extension's schema (public) on the search_path after the test's schema.
qp() { psql "$RINGBENCH_PG_CONNINFO" -XAtq -v ON_ERROR_STOP=1 -c "SET search_path TO $RINGBENCH_PG_SCHEMA, public" -c "$1"; }
