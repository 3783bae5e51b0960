# Scenario 13: an affinity worker that owns every bucket claims with the competing statement,
# an ordered one with claim_window.sql (queue.c, owns_every_bucket; issue 11 targets 1 and 2),
# and leaves that path as soon as another member joins: from then on it claims only rows of
# the buckets it owns. Run in both modes.
# Phase 1: wA alone drains R rows (all buckets are its own, every row is its to take).
# Phase 2: wB joins (a live member by SQL that never claims: its buckets' rows stay pending);
# once wA's published view is {wA,wB}, R more rows are enqueued. wA must complete every row of
# its own buckets and none of wB's: a claim over all buckets (the fast path kept after the join,
# or taken without owning every bucket) would take wB's rows too.
source "$(dirname "$0")/lib.sh"
alone_then_joined() { # MODE: phases 1 and 2 with wA in MODE, in a schema of its own
    local mode=$1
    use_schema "$mode"
    R=600
    "$RB" pg migrate >/dev/null
    for i in $(seq 1 $R); do echo "acct:$i"; done >"$TMP/keys1"
    for i in $(seq 1 $R); do echo "acct:$((i + R))"; done >"$TMP/keys2"
    "$RB" pg enqueue "$TMP/keys1" >/dev/null
    bg "a$mode" worker --mode "$mode" --id wA --batch 8 --heartbeat-ms 100 --ttl-ms 2000 --poll-ms 20 \
        --duration-ms 60000
    wait_for 30 "SELECT count(*) = $R FROM inbox_all WHERE status = 'done'"
    expect_eq "$mode, alone: wA owns every bucket" "$(q "SELECT cardinality(owned_buckets) FROM workers WHERE id = 'wA'")" 1024
    expect_eq "$mode, alone: rows done by wA" "$(q "SELECT count(*) FROM effects WHERE worker_id = 'wA'")" $R

    q "INSERT INTO workers (id, ttl_ms, mode) VALUES ('wB', 3600000, '$mode')" >/dev/null
    wait_for 20 "SELECT view_members = '{wA,wB}'::text[] FROM workers WHERE id = 'wA'"
    owned=$(q "SELECT cardinality(owned_buckets) FROM workers WHERE id = 'wA'")
    note "$mode: after the join wA owns $owned of 1024 buckets"
    [[ $owned -gt 0 && $owned -lt 1024 ]] || fail "$mode, join: wA owns $owned buckets, expected some, not all"
    "$RB" pg enqueue "$TMP/keys2" >/dev/null
    mine="partition_bucket = ANY ((SELECT owned_buckets FROM workers WHERE id = 'wA')::int[])"
    n_mine=$(q "SELECT count(*) FROM inbox_all WHERE id > $R AND $mine")
    n_theirs=$(q "SELECT count(*) FROM inbox_all WHERE id > $R AND NOT $mine")
    note "$mode: second batch: $n_mine rows in wA's buckets, $n_theirs in wB's"
    [[ $n_mine -gt 0 && $n_theirs -gt 0 ]] || fail "$mode: the second batch does not span both members' buckets"
    wait_for 30 "SELECT count(*) = 0 FROM inbox_all WHERE status <> 'done' AND $mine"
    sleep 0.5 # a few more claims: a wrong one would take wB's rows now
    expect_eq "$mode, joined: rows of wB's buckets claimed by wA" \
        "$(q "SELECT count(*) FROM inbox_all WHERE id > $R AND lease_generation > 0 AND NOT $mine")" 0
    expect_eq "$mode, joined: rows of wB's buckets still pending" \
        "$(q "SELECT count(*) FROM inbox_all WHERE id > $R AND status = 'pending' AND NOT $mine")" "$n_theirs"
    expect_eq "$mode, rows done by wA" "$(q "SELECT count(*) FROM effects WHERE worker_id = 'wA'")" $((R + n_mine))
}
alone_then_joined affinity
alone_then_joined ordered
echo "PASS [$TEST]"
