# Issue 10, kind 11: a failed membership refresh must not report success later. The schema
# bounds workers.id (1..255 bytes): a 300-byte id is refused. With the bound dropped (a queue
# from before migration 002), a live worker whose id the ring rejects makes every refresh fail
# (refresh_reject: twice, the last good view kept), and a running affinity worker says so and
# keeps working on its previous view instead of owning nothing silently.
source "$(dirname "$0")/lib.sh"
"$RB" pg migrate >/dev/null
if q "INSERT INTO workers (id, ttl_ms, mode) VALUES (repeat('x', 300), 1000, 'competing')" 2>/dev/null; then
    fail "a 300-byte worker id was accepted; expected the workers_id_length CHECK to refuse it"
fi
q "ALTER TABLE workers DROP CONSTRAINT workers_id_length" >/dev/null
"$RB_REFRESH_REJECT" || fail "refresh_reject failed"
q "DELETE FROM workers" >/dev/null
bg A worker --mode affinity --ttl-ms 3000 --heartbeat-ms 300 --duration-ms 3000 --poll-ms 20
wait_for 10 "SELECT cardinality(owned_buckets) = 1024 FROM workers WHERE status = 'alive'"
q "INSERT INTO workers (id, ttl_ms, mode) VALUES (repeat('x', 2000), 60000, 'affinity')" >/dev/null
seq 1 10 | "$RB" pg enqueue >/dev/null
wait_ok A
grep -q "membership refresh failed, keeping the previous view" "$TMP/A.err" || fail "no event about the failed refresh: $(tail -3 "$TMP/A.err")"
expect_eq "rows done on the previous view" "$(field A completed)" 10
echo "PASS [$TEST]"
