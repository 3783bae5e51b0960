# Scenario 15 (issue 11, target 3): every mode's claim has a generic plan that costs O(batch).
# Every worker session runs generic plans only (queue.c, session_generic_plans), where the
# claim's LIMIT $2 is unknown. With the lease joined to picked (claim_lease.sql before), the
# planner took 10% of the pending rows for picked and leased them through a hash join over a
# sequential scan of inbox: 23 ms for 8 rows over 100,000, and the competing cells of a
# published run fell to half. Over 50,000 analyzed pending rows, `pg explain --generic
# --analyze` (run and rolled back) of each mode's claim at batch 8 must lease the 8 rows
# through inbox_pkey probes, with no sequential scan of inbox and no hash, and read fewer
# than 1,000 buffers (160-240 seen; the hash plan read 1,000 per 50,000 rows). The
# custom plan (no --generic) must lease through inbox_pkey too. The same for ordered mode's
# claim as the only live member (`--alone`, claim_window.sql), whose check of the window's
# rows, written NOT EXISTS, was planned as a hash anti join over every blocking row. And
# affinity's claim with the age scan (`--aged`, claim_aged.sql): the rows are an hour old, so
# it takes all 8 for their age.
# RUN_SERIAL: the ordered claim takes only rows inserted before the oldest transaction in
# flight on the server (commit order, issue 11 target 5); another test's open transaction
# would leave it nothing to lease (0 rows: seen in CI).
source "$(dirname "$0")/lib.sh"
# before `pg migrate`: one line that says so (it was "current transaction is aborted")
for generic in --generic ""; do
    # shellcheck disable=SC2086 # $generic: one flag or none
    if "$RB" pg explain $generic >/dev/null 2>"$TMP/err"; then fail "pg explain $generic before migrate: exit 0"; fi
    if [[ $(wc -l <"$TMP/err") != 1 ]] || ! grep -q "has no queue tables (run \`ringbench pg migrate\` first)" "$TMP/err"; then
        fail "pg explain $generic before migrate: $(head -c 300 "$TMP/err")"
    fi
done
"$RB" pg migrate >/dev/null
q "INSERT INTO inbox (partition_key, partition_bucket, idempotency_key)
   SELECT 'k' || g % 5000, g % 1024, 'i' || g FROM generate_series(1, 50000) g;
   UPDATE inbox SET run_at = now() - interval '1 hour'" >/dev/null
q "VACUUM ANALYZE inbox" >/dev/null
check_plans() { # every mode's claim, generic and custom, over the schema's analyzed rows
    for generic in --generic ""; do
        for mode in competing affinity "affinity --aged" ordered "ordered --alone"; do
            # shellcheck disable=SC2086 # $generic: one flag or none; $mode: a mode and a flag
            plan=$("$RB" pg explain --mode $mode --batch 8 --analyze $generic 2>"$TMP/err") ||
                fail "pg explain --mode $mode $generic: exit $? ($(head -1 "$TMP/err"))"
            what="$mode claim${generic:+ (generic plan)}"
            flat=$(tr '\n' ' ' <<<"$plan" | tr -s ' ')
            grep -qE "Index Scan using inbox_pkey on inbox( inbox_[0-9]+)? \(actual rows=8 loops=1\) Index Cond: \(id = ANY \(leased.ids\)\)" <<<"$flat" ||
                fail "$what does not lease 8 rows through inbox_pkey: $flat"
            grep -q "Seq Scan on inbox\|Hash" <<<"$plan" && fail "$what scans or hashes inbox: $flat"
            buffers=$(grep -m1 -o 'Buffers: shared hit=[0-9]*' <<<"$plan" | cut -d= -f2)
            [[ -n $buffers ]] || fail "$what: no buffer count in the plan: $flat"
            ((buffers < 1000)) || fail "$what read $buffers buffers for 8 rows, expected < 1000"
            note "$what: $buffers buffers"
        done
    done
}
check_plans
# Skewed statistics: 20,000 rows of 200 keys, one key with 30% of them. With the window's guard
# written NOT EXISTS, the generic plan hashed every pending row against every blocking row of
# its key, then sorted (3.7 s for 32 rows).
use_schema skewed
"$RB" pg migrate >/dev/null
q "INSERT INTO inbox (partition_key, partition_bucket, idempotency_key)
   SELECT CASE WHEN g % 10 < 3 THEN 'hot' ELSE 'k' || g % 200 END, g % 1024, 's' || g
   FROM generate_series(1, 20000) g;
   UPDATE inbox SET run_at = now() - interval '1 hour'" >/dev/null
q "VACUUM ANALYZE inbox" >/dev/null
check_plans
# Affinity's age scan on a table never analyzed (a queue that starts empty): empty, its generic
# plan reads the head in order; with 5,000 rows, its lock step
# must probe the primary key per aged row (claim_aged.sql); written id = ANY (...) ORDER BY
# run_at, id it was planned as a scan of every due pending row filtered by id.
use_schema fresh
"$RB" pg migrate >/dev/null
# a worker that starts on an empty queue keeps the generic plan it made then (one per session):
# its head read must still be an ordered scan of inbox_pending_run_at, not a sort of pending rows
plan=$("$RB" pg explain --mode affinity --aged --generic --batch 8 2>"$TMP/err") || fail "pg explain --aged (empty): $(head -1 "$TMP/err")"
flat=$(tr '\n' ' ' <<<"$plan" | tr -s ' ')
grep -q "CTE aged -> Limit -> Index Scan using inbox_pending_run_at on inbox a " <<<"$flat" ||
    fail "the age scan's generic plan on an empty queue does not read inbox_pending_run_at in order: $flat"
q "INSERT INTO inbox (partition_key, partition_bucket, idempotency_key, run_at)
   SELECT 'k' || g, g % 1024, 'f' || g, now() - interval '1 hour' FROM generate_series(1, 5000) g" >/dev/null
plan=$("$RB" pg explain --mode affinity --aged --generic --analyze --batch 8 2>"$TMP/err") || fail "pg explain --aged (not analyzed): $(head -1 "$TMP/err")"
flat=$(tr '\n' ' ' <<<"$plan" | tr -s ' ')
grep -q "LockRows (actual rows=1 loops=8) Buffers: shared hit=[0-9]* -> Index Scan using inbox_pkey on inbox r" <<<"$flat" ||
    fail "the age scan's lock step on a table not analyzed does not probe inbox_pkey per row: $flat"
use_schema skewed
expect_eq "rows claimed (every EXPLAIN rolled back)" "$(q "SELECT count(*) FROM inbox_all WHERE status <> 'pending'")" 0
# all three modes in one session: each generic EXPLAIN deallocates the statement it prepared
"$RB" pg explain --generic >/dev/null 2>"$TMP/err" || fail "pg explain --generic (every mode): $(head -1 "$TMP/err")"
echo "PASS [$TEST]: every mode's claim, generic and custom, leases through inbox_pkey in O(batch)"
