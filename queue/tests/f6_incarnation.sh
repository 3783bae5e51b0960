# Issue 10, kind 6: a reused worker id must not resurrect the dead. `--id w1` claims 2 rows on a
# 5 s lease and stalls 2.5 s (no heartbeats); a peer marks w1 dead; a replacement registers
# `--id w1` (a new incarnation, with its own TTL and mode). The stalled process learns that its
# incarnation is over: it stops with exit code 3 without completing, releasing or leaving, so
# the replacement stays alive; the rows are done later at lease_generation 2.
source "$(dirname "$0")/lib.sh"
"$RB" pg migrate >/dev/null
printf 'a\nb\n' | "$RB" pg enqueue >/dev/null
bg A worker --ttl-ms 1500 --heartbeat-ms 300 --id w1 --batch 2 --lease-ms 5000 --stall-after-claim-ms 2500 --max-claims 1
wait_for 10 "SELECT count(*) = 2 FROM inbox_all WHERE status = 'claimed' AND claimed_by = 'w1'"
bg P worker --ttl-ms 3000 --heartbeat-ms 300 --lease-ms 5000 --duration-ms 9000 --poll-ms 20
wait_for 10 "SELECT status = 'dead' FROM workers WHERE id = 'w1'"
bg B worker --id w1 --ttl-ms 3000 --heartbeat-ms 300 --mode affinity --lease-ms 5000 --duration-ms 7000 --poll-ms 20
wait_for 10 "SELECT status = 'alive' FROM workers WHERE id = 'w1'"
rc=0
wait "$PID_A" || rc=$?
expect_eq "exit code of the stalled old incarnation" "$rc" 3
grep -q "incarnation 1 is no longer alive" "$TMP/A.err" || fail "the stalled worker did not say why it stopped: $(tail -3 "$TMP/A.err")"
expect_eq "w1 after the old incarnation stopped (the replacement's)" "$(q "SELECT status || ' ' || ttl_ms || ' ' || mode FROM workers WHERE id = 'w1'")" "alive 3000 affinity"
expect_eq "effects written by the old incarnation" "$(q "SELECT count(*) FROM effects WHERE lease_generation = 1")" 0
wait_ok B
wait_ok P
expect_eq "rows done after the lease ran out (generation 2)" "$(q "SELECT string_agg(status || ':' || lease_generation, ',' ORDER BY id) FROM inbox_all")" "done:2,done:2"
echo "PASS [$TEST]"
