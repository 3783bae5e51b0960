# Scenario 11 (issue 11, target 5): order by commit, not by id. Two producers for key acct:42:
# P1 inserts first (the lower id) and commits 2 s later; P2 inserts after it and commits at
# once. An ordered worker runs all along. Expected: P1's row completes before P2's (ordered
# mode never processes a key's row while an earlier-inserted row of that key may still be
# uncommitted). Without the commit-order filter P2's row completes first: its older sibling is
# invisible to the claim, so the ordering guard does not see it.
source "$(dirname "$0")/lib.sh"
"$RB" pg migrate >/dev/null
# a first row of the key, completed, gives the key's bucket for P1's raw insert
printf 'acct:42\tk0\n' >"$TMP/k0"
"$RB" pg enqueue "$TMP/k0" >/dev/null
bg w worker --mode ordered --batch 4 --poll-ms 10 --heartbeat-ms 200 --ttl-ms 3000 --duration-ms 9000
wait_for 10 "SELECT count(*) = 1 FROM effects"
bucket=$(q "SELECT partition_bucket FROM inbox WHERE idempotency_key = 'k0'")
# P1: inserts (lower id), holds its transaction open 2 s, commits
hold_open p1 2 "INSERT INTO inbox (partition_key, partition_bucket, idempotency_key) VALUES ('acct:42', $bucket, 'p1')"
# P2: inserts after P1 (a higher id) and commits at once
printf 'acct:42\tp2\n' >"$TMP/p2"
"$RB" pg enqueue "$TMP/p2" >/dev/null
wait_ok p1
wait_for 10 "SELECT count(*) = 3 FROM effects"
ids=$(q "SELECT string_agg(idempotency_key, ',' ORDER BY id) FROM inbox WHERE partition_key = 'acct:42'")
expect_eq "ids in insert order" "$ids" "k0,p1,p2"
order=$(q "SELECT string_agg(idempotency_key, ',' ORDER BY seq) FROM effects")
expect_eq "completion order (effects.seq)" "$order" "k0,p1,p2"
wait_ok w
echo "PASS [$TEST]"
