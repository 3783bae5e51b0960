# Scenario 8: a worker whose own clock is far off makes no different lease decision: leases are
# now() + lease on the server; a housekeeper 1 h ahead does not reap a live lease; a worker 1 h
# behind still reclaims an expired one.
source "$(dirname "$0")/lib.sh"
"$RB" pg migrate >/dev/null
printf 'k:1\nk:2\n' | "$RB" pg enqueue >/dev/null
bg a worker --id wA --clock-offset-ms -3600000 --batch 1 --lease-ms 3000 --heartbeat-ms 100 --ttl-ms 5000 \
    --stall-after-claim-ms 1500 --max-claims 1
wait_for 10 "SELECT count(*) = 1 FROM inbox WHERE claimed_by = 'wA'"
expect_eq "lease length set by a client 1 h behind" "$(q "SELECT lease_expires_at - claimed_at FROM inbox WHERE claimed_by = 'wA'")" "00:00:03"
bg h worker --id wH --clock-offset-ms 3600000 --heartbeat-ms 100 --ttl-ms 5000 --lease-ms 3000 --duration-ms 1200
wait_ok h
wait_ok a
expect_eq "A's completion after a housekeeper 1 h ahead ran" "$(field a completed) $(field a lost)" "1 0"
expect_eq "A's row" "$(q "SELECT worker_id || ' gen=' || lease_generation FROM effects WHERE partition_key = 'k:1'")" "wA gen=1"
echo "k:3" | "$RB" pg enqueue >/dev/null
bg e worker --id wE --lease-ms 300 --heartbeat-ms 100 --ttl-ms 400 --exit-after-claim --max-claims 1
wait_ok e
bg f worker --id wF --clock-offset-ms -3600000 --heartbeat-ms 100 --ttl-ms 400 --lease-ms 3000 --until-empty
wait_ok f
expect_eq "expired lease reclaimed by a client 1 h behind" "$(q "SELECT worker_id || ' gen=' || lease_generation FROM effects WHERE partition_key = 'k:3'")" "wF gen=2"
echo "PASS [$TEST]"
