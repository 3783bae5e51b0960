# Scenario 4: worker A claims a row and stalls past its lease (and TTL). B's housekeeper releases
# the row, B completes it; A's complete, release, extend and heartbeat all change nothing and
# report the lost lease.
source "$(dirname "$0")/lib.sh"
"$RB" pg migrate >/dev/null
echo "order:42" | "$RB" pg enqueue >/dev/null
bg a worker --id wA --batch 1 --lease-ms 300 --heartbeat-ms 100 --ttl-ms 600 \
    --stall-after-claim-ms 2500 --stale-probe --max-claims 1
wait_for 10 "SELECT count(*) = 1 FROM inbox_all WHERE claimed_by = 'wA'"
bg b worker --id wB --batch 1 --lease-ms 5000 --heartbeat-ms 100 --ttl-ms 3000 --duration-ms 2000
wait_ok b
wait_ok a
for what in complete release extend; do
    grep -q "^stale $what id=1 lease_generation=1: lease lost" "$TMP/a.out" ||
        fail "stale $what: got '$(grep "stale $what" "$TMP/a.out")', expected 'lease lost'"
done
grep -q "^stale heartbeat: lease lost" "$TMP/a.out" || fail "stale heartbeat: got '$(grep heartbeat "$TMP/a.out")', expected 'lease lost'"
expect_eq "row state" "$(q "SELECT status || ' gen=' || lease_generation FROM inbox_all")" "done gen=2"
expect_eq "effects" "$(q "SELECT worker_id || ' gen=' || lease_generation FROM effects")" "wB gen=2"
expect_eq "A's membership" "$(q "SELECT status || ' by ' || dead_marked_by FROM workers WHERE id = 'wA'")" "dead by wB"
grep -q "released 1 expired leases" "$TMP/b.err" || fail "B's housekeeper did not report releasing the lease"
echo "PASS [$TEST]"
