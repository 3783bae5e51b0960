# Scenario 6: worker D claims rows and dies without a word (no heartbeat, no leave). Exactly one
# housekeeper marks it dead after the TTL (database clock), its buckets are reassigned, and its
# orphaned rows are reclaimed only after their leases expire.
source "$(dirname "$0")/lib.sh"
"$RB" pg migrate >/dev/null
for i in $(seq 1 600); do echo "acct:$i"; done >"$TMP/keys"
"$RB" pg enqueue "$TMP/keys" >/dev/null
TTL=1000 LEASE=3000
common=(worker --mode affinity --heartbeat-ms 100 --ttl-ms "$TTL" --lease-ms "$LEASE" --poll-ms 20)
for w in A B C; do bg "$w" "${common[@]}" --id "w$w" --batch 1 --work-ms 10 --until-empty; done
wait_for 20 "SELECT bool_and(array_length(view_members, 1) = 3) AND count(*) = 3 FROM workers WHERE status = 'alive'"
bg D "${common[@]}" --id wD --batch 5 --exit-after-claim --max-claims 1
wait_ok D
q "CREATE TABLE orphan AS SELECT id, lease_expires_at FROM inbox_all WHERE claimed_by = 'wD' AND status = 'claimed'"
n_orphan=$(q "SELECT count(*) FROM orphan")
[[ $n_orphan -ge 1 ]] || fail "D claimed nothing (got $n_orphan orphaned rows, expected >= 1)"
# Buckets reassigned: the three survivors' views drop wD and partition all buckets.
wait_for 20 "SELECT count(*) = 3 AND bool_and(NOT 'wD' = ANY(view_members) AND array_length(view_members, 1) = 3) FROM workers WHERE id IN ('wA','wB','wC') AND status = 'alive'"
expect_eq "buckets owned after D died" "$(q "SELECT count(*) || '/' || count(DISTINCT b) FROM (SELECT unnest(owned_buckets) b FROM workers WHERE id IN ('wA','wB','wC')) x")" "1024/1024"
for w in A B C; do wait_ok "$w"; done
expect_eq "D's status" "$(q "SELECT status FROM workers WHERE id = 'wD'")" dead
expect_eq "D marked dead by a survivor" "$(q "SELECT dead_marked_by IN ('wA','wB','wC') FROM workers WHERE id = 'wD'")" t
expect_eq "D marked dead only after its TTL (database clock)" "$(q "SELECT dead_at - last_seen_at >= interval '$TTL milliseconds' FROM workers WHERE id = 'wD'")" t
expect_eq "housekeepers that marked D dead" "$(cat "$TMP"/[ABC].err | grep -c 'marked dead: wD')" 1
expect_eq "orphans completed" "$(q "SELECT count(*) FROM orphan o JOIN inbox_all i USING (id) WHERE i.status = 'done' AND i.lease_generation = 2")" "$n_orphan"
expect_eq "orphans reclaimed before their lease expired" "$(q "SELECT count(*) FROM orphan o JOIN inbox_all i USING (id) WHERE i.claimed_at < o.lease_expires_at")" 0
expect_eq "rows done" "$(q "SELECT count(*) FROM inbox_all WHERE status = 'done'")" 600
expect_eq "effects" "$(q "SELECT count(*) FROM effects")" 600
note "D held $n_orphan rows; marked dead $(q "SELECT round(extract(epoch FROM dead_at - last_seen_at) * 1000) FROM workers WHERE id = 'wD'") ms after its last heartbeat (TTL $TTL ms); rows reclaimed $(q "SELECT min(round(extract(epoch FROM i.claimed_at - o.lease_expires_at) * 1000)) || '..' || max(round(extract(epoch FROM i.claimed_at - o.lease_expires_at) * 1000)) FROM orphan o JOIN inbox_all i USING (id)") ms after their lease expired"
echo "PASS [$TEST]"
