# Scenario 18: the age bound of affinity claims (claim_aged.sql). The walk serves the owned
# buckets in turn (scenario 16), so under a standing backlog a bucket with a hot key gets one
# turn's share and falls ever further behind (the soak: its oldest row 92 s old after 300 s).
# An owned row waiting longer than --age-bound-ms is claimed before the walk's rows, oldest
# first. wA claims beside a member that never claims (wB), so wA owns about half the buckets
# and walks them; its first owned bucket (deep) gets 100 rows, the next 60 owned buckets one
# fresh row each; 10 claims of batch 4.
#   (a) the deep rows 10 s old, bound 5 s: all 40 rows done are deep, its 40 oldest, and the
#       summary counts them as rows_aged (buckets in turn, the code before: at most 8 deep);
#   (b) the deep rows 10 s old, default bound (30 s): not past it, the buckets take turns;
#   (c) the deep rows 60 s old, bound 0 (none): the buckets take turns;
#   (d) older still, 200 rows 20 s old in a bucket wB owns: wA never claims them, and its scan
#       of the oldest rows reads a bounded head (2 x batch x B / owned rows), all of them wB's,
#       so it finds none of its own there and the walk serves it: 40 done, none of wB's;
#   (e) the rows taken for their age do not move the walk: 6 rows 10 s old in wA's 30th owned
#       bucket, one fresh row in each of its 2nd to 61st; 2 claims of 4: the first takes 4 old
#       rows, the second the other 2 and then the walk's, from where the walk stood: the 2nd
#       and 3rd owned buckets (a walk moved past the old rows' bucket gives the 31st and 32nd);
#   (f) the whole backlog past the bound, a head read holding fewer than a batch of wA's rows:
#       240 rows an hour old in age order, in each 16 (wA's head read: 4 x ceil(2048 / its
#       buckets) = 16 rows) 14 of wB's bucket and 2 of wA's 200th-249th (where the walk, over
#       the fresh rows of the 2nd-61st, does not reach); 10 claims of 4: every claim takes
#       the next 2 of wA's for their age (the scan goes on from the newest taken), 20 in all,
#       wA's 20 oldest (a start kept only while the aged rows fill the batch: 2, then the walk);
#   (g) as (f) but in each 32 rows 30 of wB's and then 2 of wA's, so wA's first read from the
#       head holds none of its rows: the scan goes on from where that read ended, about one
#       row a claim for its age, wA's oldest (a start kept only at the newest row taken: none,
#       so the walk's rows until the next scan from the head, 1 s later with a 10-minute bound:
#       0 aged).
source "$(dirname "$0")/lib.sh"

# setup AGE_S: a fresh schema with wB and wA's view; the deep bucket's 100 rows AGE_S old, the
# 60 one-row buckets fresh.
setup() {
    use_schema "$1"
    "$RB" pg migrate >/dev/null
    q "INSERT INTO workers (id, ttl_ms, mode) VALUES ('wB', 3600000, 'affinity')" >/dev/null
}

# publish_view: wA runs once to publish its view of {wA, wB} (its owned buckets stay in
# workers after it leaves: the tests insert into them) and claims nothing; the rows then go in
# before wA runs again, so its first claim, which scans from the head, meets them.
publish_view() {
    "$RB" pg worker --mode affinity --id wA --heartbeat-ms 100 --ttl-ms 2000 --poll-ms 20 \
        --idle-ms 200 >"$TMP/view.out" 2>"$TMP/view.err" || fail "wA (view): $(tail -1 "$TMP/view.err")"
    local owned
    owned=$(q "SELECT cardinality(owned_buckets) FROM workers WHERE id = 'wA'")
    ((owned > 100 && owned < 1024)) || fail "wA owns $owned buckets, expected about half of 1024"
}

# run_wa NAME ARGS...: inserts the rows of $DEEP_AGE_S (deep) and $WB_ROWS rows 20 s old in a
# bucket wA does not own, then runs wA, 10 claims of 4, with ARGS.
run_wa() {
    local name=$1
    shift
    publish_view
    q "BEGIN;
       INSERT INTO inbox (partition_key, partition_bucket, idempotency_key)
       SELECT 'wb', b, 'wb' || g FROM generate_series(1, $WB_ROWS) g,
              (SELECT min(b) AS b FROM generate_series(0, 1023) b, workers w
               WHERE w.id = 'wA' AND b <> ALL (w.owned_buckets)) o;
       UPDATE inbox SET run_at = now() - interval '20 s' WHERE partition_key = 'wb';
       INSERT INTO inbox (partition_key, partition_bucket, idempotency_key)
       SELECT 'deep', b, 'deep' || g FROM generate_series(1, 100) g,
              (SELECT owned_buckets[1] AS b FROM workers WHERE id = 'wA') o;
       UPDATE inbox SET run_at = now() - interval '$DEEP_AGE_S s' WHERE partition_key = 'deep';
       INSERT INTO inbox (partition_key, partition_bucket, idempotency_key)
       SELECT 'b' || k, (SELECT owned_buckets[k] FROM workers WHERE id = 'wA'), 'one' || k
       FROM generate_series(2, 61) k;
       COMMIT" >/dev/null
    bg "$name" worker --mode affinity --id wA --batch 4 --heartbeat-ms 100 --ttl-ms 2000 \
        --poll-ms 20 --max-claims 10 --duration-ms 60000 "$@"
    wait_ok "$name"
    expect_eq "($name) rows done in 10 claims of 4" "$(q "SELECT count(*) FROM inbox_all WHERE status = 'done'")" 40
}
done_of() { q "SELECT count(*) FROM inbox_all WHERE status = 'done' AND partition_key = '$1'"; }

setup a
DEEP_AGE_S=10 WB_ROWS=0 run_wa a --age-bound-ms 5000
expect_eq "(a) deep rows done, bound 5 s, rows 10 s old" "$(done_of deep)" 40
expect_eq "(a) the deep rows done are its 40 oldest" \
    "$(q "SELECT max(id) < (SELECT min(id) FROM inbox_all WHERE partition_key = 'deep' AND status = 'pending') FROM inbox_all WHERE partition_key = 'deep' AND status = 'done'")" t
expect_eq "(a) rows_aged in wA's summary" "$(field a rows_aged)" 40

setup b
DEEP_AGE_S=10 WB_ROWS=0 run_wa b
deep=$(done_of deep)
((deep <= 8)) || fail "(b) default bound 30 s, rows 10 s old: $deep deep rows done, expected <= 8 (turns)"
expect_eq "(b) rows_aged" "$(field b rows_aged)" 0

setup c
DEEP_AGE_S=60 WB_ROWS=0 run_wa c --age-bound-ms 0
deep=$(done_of deep)
((deep <= 8)) || fail "(c) bound 0 (none), rows 60 s old: $deep deep rows done, expected <= 8 (turns)"

setup d
DEEP_AGE_S=10 WB_ROWS=200 run_wa d --age-bound-ms 5000
expect_eq "(d) rows of wB's bucket done by wA" "$(done_of wb)" 0
deep=$(done_of deep)
((deep <= 8)) || fail "(d) $deep deep rows done: the age scan read past its bounded head (expected <= 8, the walk's turns)"
use_schema e
"$RB" pg migrate >/dev/null
q "INSERT INTO workers (id, ttl_ms, mode) VALUES ('wB', 3600000, 'affinity')" >/dev/null
publish_view
q "BEGIN;
   INSERT INTO inbox (partition_key, partition_bucket, idempotency_key)
   SELECT 'old', (SELECT owned_buckets[30] FROM workers WHERE id = 'wA'), 'old' || g
   FROM generate_series(1, 6) g;
   UPDATE inbox SET run_at = now() - interval '10 s';
   INSERT INTO inbox (partition_key, partition_bucket, idempotency_key)
   SELECT 'b' || k, (SELECT owned_buckets[k] FROM workers WHERE id = 'wA'), 'one' || k
   FROM generate_series(2, 61) k WHERE k <> 30;
   COMMIT" >/dev/null
bg e worker --mode affinity --id wA --batch 4 --heartbeat-ms 100 --ttl-ms 2000 --poll-ms 20 \
    --max-claims 2 --duration-ms 60000 --age-bound-ms 5000
wait_ok e
expect_eq "(e) old rows done in 2 claims of 4" "$(done_of old)" 6
expect_eq "(e) the walk's rows after the old ones" \
    "$(q "SELECT string_agg(partition_key, ',' ORDER BY partition_key) FROM inbox_all WHERE status = 'done' AND partition_key <> 'old'")" b2,b3
# backlog_past_bound SCHEMA PERIOD: a fresh schema, wA's view of {wA, wB}, 240 rows an hour old
# in age order, in each PERIOD the last 2 of wA's 200th-249th owned buckets (where the walk,
# over the fresh rows of its 2nd-61st, does not reach), the others of wB's bucket; the fresh
# rows; n_owned set.
backlog_past_bound() {
    use_schema "$1"
    "$RB" pg migrate >/dev/null
    q "INSERT INTO workers (id, ttl_ms, mode) VALUES ('wB', 3600000, 'affinity')" >/dev/null
    publish_view
    n_owned=$(q "SELECT cardinality(owned_buckets) FROM workers WHERE id = 'wA'")
    ((4 * ((2048 + n_owned - 1) / n_owned) == 16)) || fail "($1) wA owns $n_owned buckets: its head read is not 16 rows"
    q "BEGIN;
       INSERT INTO inbox (partition_key, partition_bucket, idempotency_key, run_at)
       SELECT CASE WHEN i % $2 < $2 - 2 THEN 'wb' ELSE 'old' END,
              CASE WHEN i % $2 < $2 - 2 THEN o.b ELSE w.owned_buckets[200 + i % 50] END,
              'f' || i, now() - interval '1 hour' + i * interval '1 s'
       FROM generate_series(0, 239) i, workers w,
            (SELECT min(b) AS b FROM generate_series(0, 1023) b, workers w
             WHERE w.id = 'wA' AND b <> ALL (w.owned_buckets)) o
       WHERE w.id = 'wA';
       INSERT INTO inbox (partition_key, partition_bucket, idempotency_key)
       SELECT 'b' || k, (SELECT owned_buckets[k] FROM workers WHERE id = 'wA'), 'one' || k
       FROM generate_series(2, 61) k;
       COMMIT" >/dev/null
}
# past_bound NAME PERIOD BOUND_MS MIN_AGED WHY: backlog_past_bound NAME PERIOD, then wA's 10 claims
# of 4 with the bound: none of wB's rows done, at least MIN_AGED rows for their age, wA's
# MIN_AGED oldest rows done.
past_bound() {
    backlog_past_bound "$1" "$2"
    bg "$1" worker --mode affinity --id wA --batch 4 --heartbeat-ms 100 --ttl-ms 2000 \
        --poll-ms 20 --max-claims 10 --duration-ms 60000 --age-bound-ms "$3"
    wait_ok "$1"
    expect_eq "($1) wB's rows done by wA" "$(done_of wb)" 0
    local aged
    aged=$(field "$1" rows_aged)
    ((aged >= $4)) || fail "($1) rows_aged $aged in 10 claims of 4, expected at least $4 ($5)"
    expect_eq "($1) wA's $4 oldest rows are done" \
        "$(q "SELECT count(*) FILTER (WHERE status = 'done') FROM (SELECT status FROM inbox_all WHERE partition_key = 'old' ORDER BY run_at, id LIMIT $4) o")" "$4"
    note "($1) rows_aged $aged of 40 ($5)"
}
past_bound f 16 5000 16 "about 20, 2 a claim: the scan goes on from the newest row taken"
past_bound g 32 600000 6 "about 8: wA's first read holds none of its rows, and the scan goes on from where a read ended"
note "(b) and (c): the buckets took turns; (d) $deep deep rows by the walk, none of wB's"
echo "PASS [$TEST]: aged owned rows first (40 of 40), not before the bound nor with none, never another worker's, bounded head"
