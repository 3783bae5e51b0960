# Scenario 14 (issue 11, target 3): a worker session runs one generic plan per prepared
# statement, never a plan made per call (queue.c, session_generic_plans). Left to choose, the
# server planned the ordered claim afresh on every call over a 1 M-row backlog (0.73 ms of
# planning per claim), and the competing claim at every backlog; on any backlog it makes 5
# custom plans before it may settle, and for complete_batch.sql it kept making them. Observed
# from outside the library, through pg_stat_statements: in each mode, workers drain 2,000 rows
# of 200 keys at batch 4 (hundreds of claims and batch completions); the plans counted for the
# mode's claim and for complete_batch.sql must be at most 4 per worker (the session's generic
# plan, made again when an invalidation or a reconnect drops it; 1-2 seen), where a server
# choosing plans makes 6 or more for the claim and one per call for the completion (6 and
# ~500 seen in ordered mode with the setting removed).
# Then the generic plans of complete_batch.sql and extend_batch.sql (EXPLAIN EXECUTE under
# force_generic_plan over 50,000 analyzed rows) must probe inbox_pkey, not inbox_claimed_lease.
# The fixture's cluster preloads pg_stat_statements (RINGBENCH_PG_PRELOAD); the worker turns
# its track_planning on (PGOPTIONS); a server without it, or a user who may not set it, SKIPs
# this test. RUN_SERIAL: the counts are per database, and another test's claims
# would land in them.
source "$(dirname "$0")/lib.sh"
if ! psql "$RINGBENCH_PG_CONNINFO" -XAtq -c "SET client_min_messages = warning" \
    -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" \
    -c "SELECT count(*) FROM pg_stat_statements" >/dev/null 2>"$TMP/pss.err"; then
    echo "SKIP [$TEST]: the server has no pg_stat_statements loaded ($(head -1 "$TMP/pss.err"))"
    exit 77
fi
# plans are counted only under track_planning (off by default; superuser): on for the worker's
# sessions alone, through libpq's PGOPTIONS
# jit_above_cost = 0: every statement of a session that leaves JIT on is compiled; a worker
# session turns it off (queue.c, session_generic_plans), so its statements count no JIT
# function (with JIT on, ordered mode's window claim compiled for 20 ms a call over 135,000
# rows: the generic plan's unknown LIMIT costs it past jit_above_cost)
# The producers here (pg enqueue, the INSERT of 50,000 rows) run without it: each row's BEFORE
# INSERT triggers (inbox_done_key, inbox_order_id) run statements that would each be compiled,
# 1-2 ms a row.
export PGOPTIONS="-c pg_stat_statements.track_planning=on -c jit_above_cost=0"
if [[ $(psql "$RINGBENCH_PG_CONNINFO" -XAtq -c "SHOW pg_stat_statements.track_planning" 2>"$TMP/tp.err") != on ]]; then
    echo "SKIP [$TEST]: cannot turn pg_stat_statements.track_planning on ($(head -1 "$TMP/tp.err"))"
    exit 77
fi
jit=$(psql "$RINGBENCH_PG_CONNINFO" -XAtq -c "SELECT pg_jit_available()")
[[ $jit == t ]] || note "the server has no JIT (pg_jit_available() = $jit): the JIT counts below prove nothing"
stmt_stats() { # calls, plans and JIT-compiled functions of the statement file $1 in this database
    psql "$RINGBENCH_PG_CONNINFO" -XAtq -F ' ' -c "SELECT coalesce(sum(calls), 0), coalesce(sum(plans), 0), coalesce(sum(jit_functions), 0) FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query LIKE '%$1 —%'"
}
for i in $(seq 1 2000); do echo "key$((i % 200))"; done >"$TMP/keys"
# drain MODE CLAIM_SQL WORKERS — WORKERS workers of MODE drain the 2,000 rows in a schema of
# their own; the plans of CLAIM_SQL and complete_batch.sql must be at most 4 per worker
drain() {
    local mode=$1 claim=$2 n=$3 pids=()
    use_schema "$mode$n"
    "$RB" pg migrate >/dev/null
    PGOPTIONS='' "$RB" pg enqueue "$TMP/keys" >/dev/null # without jit_above_cost = 0 (above)
    psql "$RINGBENCH_PG_CONNINFO" -XAtq -c "SELECT pg_stat_statements_reset()" >/dev/null
    for w in $(seq 1 "$n"); do
        "$RB" pg worker --id "$mode$w" --mode "$mode" --batch 4 --poll-ms 10 --until-empty \
            >"$TMP/$mode$w.out" 2>"$TMP/$mode$w.err" &
        pids+=($!)
    done
    for w in $(seq 1 "$n"); do
        wait "${pids[w - 1]}" || fail "$mode drain, worker $w: exit $? ($(tail -2 "$TMP/$mode$w.err"))"
    done
    expect_eq "$mode: rows done" "$(q "SELECT count(*) FROM effects")" 2000
    for stmt in "$claim" complete_batch.sql; do
        read -r calls plans jit_fns < <(stmt_stats "$stmt")
        note "$mode, $stmt: $calls calls, $plans plans, $jit_fns functions JIT-compiled"
        ((jit_fns == 0)) || fail "$mode, $stmt: $jit_fns functions JIT-compiled, expected 0 (jit off in worker sessions)"
        ((calls >= 100)) || fail "$mode, $stmt calls counted by pg_stat_statements: got $calls, expected >= 100"
        ((plans >= 1)) || fail "$mode: no plan of $stmt counted (track_planning not in effect)"
        ((plans <= 4 * n)) ||
            fail "$mode, plans of $stmt: got $plans over $calls calls, expected <= $((4 * n)) (a generic plan per session)"
    done
}
drain competing claim_competing.sql 1
# two workers, so each owns half the buckets and walks them (one that owns every bucket sends
# the competing claim in affinity mode and claim_window.sql in ordered mode)
drain affinity claim_affinity.sql 2
drain ordered claim_run.sql 2
drain ordered claim_window.sql 1
# The generic plans of the two batch statements probe the primary key once per row, O(batch),
# not every worker's claimed rows through inbox_claimed_lease (what "status = 'claimed'" got:
# the partial index looks empty to the statistics). 50,000 rows, analyzed, none claimed.
use_schema plans
"$RB" pg migrate >/dev/null
PGOPTIONS='' q "INSERT INTO inbox (partition_key, partition_bucket, idempotency_key) SELECT 'k' || g % 500, g % 1024, 'i' || g FROM generate_series(1, 50000) g; ANALYZE inbox" >/dev/null
sql_dir=$(dirname "$0")/../sql
# statement NAME — queue/sql/NAME.sql as the binary embeds it (its `-- @include PART` lines
# replaced by sql/parts/PART.sql: queue/embed_sql.cmake), comment lines dropped.
statement() {
    awk -v parts="$sql_dir/parts" '/^-- @include /{f = parts "/" $3 ".sql"; while ((getline l < f) > 0) print l; close(f); next} {print}' \
        "$sql_dir/$1.sql" | grep -v '^--'
}
for stmt in "complete_batch(bigint[], bigint[], text, text[]):('{1,2}', '{1,1}', 'w', '{a,b}')" \
    "extend_batch(bigint[], bigint[], text, int, bigint):('{1,2}', '{1,1}', 'w', 1000, 1)"; do
    name=${stmt%%(*} sig=${stmt%%:*} args=${stmt#*:}
    plan=$(q "SET plan_cache_mode = force_generic_plan; PREPARE $sig AS $(statement "$name"); EXPLAIN EXECUTE $name$args") ||
        fail "$name.sql: EXPLAIN failed"
    if ! grep -q "inbox_pkey" <<<"$plan" || grep -q "inbox_claimed_lease" <<<"$plan"; then
        fail "$name.sql: the generic plan does not probe inbox_pkey per row: $(tr '\n' ' ' <<<"$plan")"
    fi
done
echo "PASS [$TEST]: the worker sessions of every mode ran generic plans only; the batch statements' generic plans probe the primary key"
