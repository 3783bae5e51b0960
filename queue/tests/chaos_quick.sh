# `ringbench pg chaos --quick` (issue 10): 4 workers drain 4,000 rows while the driver injects
# 20 SIGKILLs, 2 pauses past the TTL, 4 rounds of pg_terminate_backend, 2 statement timeouts and,
# when the server is a scripts/pg cluster this test may restart, 1 server restart. Passes when
# lost, duplicate effects and false deaths are all 0 (the command's exit code), and the report
# says so. Runs alone (RUN_SERIAL): it cuts every ringbench session on the server.
source "$(dirname "$0")/lib.sh"
restart=()
for d in "${RINGBENCH_PG_DIR:-}" "$RB_PG_TEST_DIR" "/tmp/ringbench-pg-$(id -u)"; do
    [[ -n $d ]] || continue
    if [[ $(RINGBENCH_PG_DIR=$d "$RB_SCRIPTS/pg" url 2>/dev/null) == "$RINGBENCH_PG_CONNINFO" ]]; then
        restart=(--restart-cmd "RINGBENCH_PG_DIR=$d RINGBENCH_PG_PORT=${RINGBENCH_PG_PORT:-54329} $RB_SCRIPTS/pg restart")
        break
    fi
done
[[ ${#restart[@]} -gt 0 ]] || note "server is not a scripts/pg cluster: the restart fault is skipped"
"$RB" pg chaos --quick --seed 7 --format json --out "$TMP/out" "${restart[@]}" >"$TMP/chaos.out" 2>"$TMP/chaos.err" || fail "pg chaos failed: $(tail -3 "$TMP/chaos.err") $(cat "$TMP/chaos.out")"
json=$(cat "$TMP/chaos.out")
for want in '"lost": 0' '"duplicate_effects": 0' '"false_deaths": 0' '"verdict": "pass"' '"kill": {"injected": 20'; do
    [[ $json == *"$want"* ]] || fail "report lacks $want: $json"
done
note "$(grep -o '"rows": [0-9]*, "done": [0-9]*, "failed_by_policy": [0-9]*' "$TMP/chaos.out"); $(grep -o '"elapsed_s": [0-9.]*' "$TMP/chaos.out")"
# A second run on the same schema is refused (its rows are the first run's), and the --out
# folders it made go again (they stayed; fresh user, helper-71)
rc=0
"$RB" pg chaos --quick --out "$TMP/again/sub" >/dev/null 2>"$TMP/again.err" || rc=$?
expect_eq "second run on the schema: exit code ($(cat "$TMP/again.err"))" "$rc" 2
grep -q "already has rows: give a new --schema" "$TMP/again.err" || fail "second run: $(cat "$TMP/again.err")"
[[ ! -e $TMP/again ]] || fail "second run: the --out folders it made stayed"
echo "PASS [$TEST]"
