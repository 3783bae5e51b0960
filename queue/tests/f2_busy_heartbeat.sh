# Issue 10, kind 2: heartbeats must not wait for handlers. Two affinity workers, batch 4 x 500 ms
# of work, TTL 1.5 s (less than a batch's 2 s of work), heartbeat 250 ms, for 6 s: the keeper thread heartbeats on its own
# connection, so neither is declared dead (no dead row, no rejoin, still 2 worker rows) and the
# 1,024 buckets stay split between the two.
source "$(dirname "$0")/lib.sh"
"$RB" pg migrate >/dev/null
seq 1 400 | sed 's/^/order:/' >"$TMP/keys"
"$RB" pg enqueue "$TMP/keys" >/dev/null
for w in A B; do
    bg $w worker --mode affinity --batch 4 --work-ms 500 --ttl-ms 1500 --heartbeat-ms 250 --duration-ms 6000
done
sleep 5
expect_eq "alive workers and buckets owned at 5 s" "$(q "SELECT count(*) || ' ' || sum(cardinality(owned_buckets)) || ' ' || bool_and(cardinality(owned_buckets) > 0) FROM workers WHERE status = 'alive'")" "2 1024 true"
wait_ok A
wait_ok B
expect_eq "workers marked dead" "$(q "SELECT count(*) FROM workers WHERE status = 'dead'")" 0
expect_eq "worker rows (no rejoin under a new id)" "$(q "SELECT count(*) FROM workers")" 2
expect_eq "lost completions" "$(( $(field A lost) + $(field B lost) ))" 0
echo "PASS [$TEST]"
