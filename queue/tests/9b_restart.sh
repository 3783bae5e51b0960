# Scenario 9 (restart): the server restarts in the middle of a drain; workers reconnect with
# backoff and nothing is lost or done twice. Needs the embedded cluster (scripts/pg restart).
source "$(dirname "$0")/lib.sh"
pgdir=
for d in "${RINGBENCH_PG_DIR:-}" "$RB_PG_TEST_DIR" "/tmp/ringbench-pg-$(id -u)"; do
    [[ -n $d ]] || continue
    if [[ $(RINGBENCH_PG_DIR=$d "$RB_SCRIPTS/pg" url 2>/dev/null) == "$RINGBENCH_PG_CONNINFO" ]]; then pgdir=$d; break; fi
done
if [[ -z $pgdir ]]; then
    echo "SKIP [$TEST]: RINGBENCH_PG_CONNINFO is not a scripts/pg cluster; cannot restart it"
    exit 77
fi
"$RB" pg migrate >/dev/null
R=1500
for i in $(seq 1 $R); do echo "ord:$((i % 97))"; done >"$TMP/keys"
"$RB" pg enqueue "$TMP/keys" >/dev/null
for w in 1 2 3; do
    bg "w$w" worker --batch 5 --work-ms 2 --lease-ms 1500 --heartbeat-ms 200 --ttl-ms 3000 --retry-ms 60000 --until-empty
done
wait_for 60 "SELECT count(*) >= 200 FROM inbox_all WHERE status = 'done'"
done_before=$(q "SELECT count(*) FROM inbox_all WHERE status = 'done'")
RINGBENCH_PG_DIR=$pgdir "$RB_SCRIPTS/pg" restart
note "restarted the server after $done_before of $R rows"
total=0 reconnects=0
for w in 1 2 3; do
    wait_ok "w$w"
    total=$((total + $(field "w$w" completed)))
    reconnects=$((reconnects + $(field "w$w" reconnects)))
done
[[ $done_before -lt $R ]] || fail "the drain finished before the restart ($done_before rows): nothing tested"
[[ $reconnects -ge 1 ]] || fail "no worker reconnected (got $reconnects), expected >= 1"
expect_eq "rows done" "$(q "SELECT count(*) FROM inbox_all WHERE status = 'done'")" $R
expect_eq "effects" "$(q "SELECT count(*) FROM effects")" $R
expect_eq "completions reported by the workers" "$total" $R
note "reconnects: $reconnects; rows reclaimed after the restart: $(q "SELECT count(*) FROM inbox_all WHERE lease_generation > 1")"
echo "PASS [$TEST]"
