# Scenario 5: a worker joins: every existing worker's owned-bucket set only shrinks and the new
# worker owns exactly the buckets that moved; it leaves: only its buckets move (back).
# Owned sets are what each worker computed from the live membership (workers.owned_buckets).
source "$(dirname "$0")/lib.sh"
"$RB" pg migrate >/dev/null
common=(worker --mode affinity --heartbeat-ms 100 --ttl-ms 2000 --poll-ms 50)
bg a "${common[@]}" --id wA --duration-ms 30000
bg b "${common[@]}" --id wB --duration-ms 30000
view_is() { # all alive workers see exactly the members $1 (e.g. '{wA,wB}')
    wait_for 20 "SELECT bool_and(view_members = '$1'::text[]) AND count(*) = array_length('$1'::text[], 1) FROM workers WHERE status = 'alive'"
}
snapshot() { q "CREATE TABLE $1 AS SELECT id, unnest(owned_buckets) AS b FROM workers WHERE status = 'alive'"; }
partition_ok() { # the snapshot's owned sets partition 0..B-1
    expect_eq "$1: buckets owned" "$(q "SELECT count(*) || '/' || count(DISTINCT b) FROM $1")" "1024/1024"
}
view_is '{wA,wB}'
snapshot s1
partition_ok s1
bg c "${common[@]}" --id wC --duration-ms 4000
view_is '{wA,wB,wC}'
snapshot s2
partition_ok s2
expect_eq "join: buckets an existing worker gained" "$(q "SELECT count(*) FROM (SELECT id, b FROM s2 WHERE id <> 'wC' EXCEPT SELECT id, b FROM s1) x")" 0
moved=$(q "SELECT count(*) FROM (SELECT id, b FROM s1 EXCEPT SELECT id, b FROM s2) x")
expect_eq "join: the new worker owns exactly the moved buckets" \
    "$(q "SELECT count(*) FROM ((SELECT b FROM s2 WHERE id = 'wC') EXCEPT (SELECT b FROM s1 EXCEPT SELECT b FROM s2 WHERE id <> 'wC')) x") $(q "SELECT count(*) FROM s2 WHERE id = 'wC'")" "0 $moved"
note "join moved $moved of 1024 buckets to wC"
[[ $moved -gt 0 ]] || fail "join: no bucket moved to the new worker"
wait_ok c
view_is '{wA,wB}'
snapshot s3
partition_ok s3
expect_eq "leave: buckets a staying worker lost" "$(q "SELECT count(*) FROM (SELECT id, b FROM s2 WHERE id <> 'wC' EXCEPT SELECT id, b FROM s3) x")" 0
expect_eq "leave: buckets moved that were not the leaver's" "$(q "SELECT count(*) FROM (SELECT b FROM s3 EXCEPT SELECT b FROM s2 WHERE id <> 'wC' EXCEPT SELECT b FROM s2 WHERE id = 'wC') x")" 0
expect_eq "leave: ownership back to the two-worker ring" "$(q "SELECT count(*) FROM ((SELECT * FROM s1 EXCEPT SELECT * FROM s3) UNION ALL (SELECT * FROM s3 EXCEPT SELECT * FROM s1)) x")" 0
echo "PASS [$TEST]"
