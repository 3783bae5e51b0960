# pg_ext_install: build the `ringbench` extension against this build folder (RB_BUILD) and
# install it into the test server (scripts/pg install-ext). SKIP (77) when it cannot be
# installed here (not root, no PGXS), FAIL under RINGBENCH_PG_REQUIRED=1.
source "$(dirname "$0")/../../tests/lib.sh"
rc=0
"$RB_SCRIPTS/pg" install-ext "$RB_BUILD" 2>"$TMP/install.err" || rc=$?
cat "$TMP/install.err" >&2
if ((rc == 3)); then
    [[ ${RINGBENCH_PG_REQUIRED:-0} == 1 ]] && fail "cannot install the extension: $(tail -1 "$TMP/install.err")"
    echo "SKIP [$TEST]: $(tail -1 "$TMP/install.err")"
    exit 77
fi
((rc == 0)) || fail "scripts/pg install-ext exited $rc"
expect_eq "ringbench_bucket('order:9182', 1024, 'fnv1a32', 0)" \
    "$(q "SELECT public.ringbench_bucket('order:9182', 1024, 'fnv1a32', 0)")" 43
echo "PASS [$TEST]"
