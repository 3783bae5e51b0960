# Scenario 14 (issue 11, target 3): an ordered worker's claim runs one generic plan for the
# whole session, never a plan made per call. Left to choose, the server planned claim_run.sql
# afresh on every claim over a 1 M-row backlog (0.73 ms of planning per claim; queue.c,
# ordered_generic_plans); on any backlog it plans the first 5 executions (custom plans) before
# it may settle. Observed from outside the library, through pg_stat_statements: a worker drains
# 2,000 rows of 200 keys at batch 4 (hundreds of claims), and the plans counted for
# claim_run.sql must be at most 3 (the session's generic plan, made again when an invalidation
# or a reconnect drops it; 2 seen here), where a server choosing plans makes 6 or more (5
# custom plans first; 6 seen with the setting removed). The fixture's cluster preloads pg_stat_statements
# (RINGBENCH_PG_PRELOAD); a server without it SKIPs this test. RUN_SERIAL: the counts are
# per database, and no other test's ordered claims may land in them.
source "$(dirname "$0")/lib.sh"
if ! psql "$RINGBENCH_PG_CONNINFO" -XAtq -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" \
    -c "SELECT count(*) FROM pg_stat_statements" >/dev/null 2>"$TMP/pss.err"; then
    echo "SKIP [$TEST]: the server has no pg_stat_statements loaded ($(head -1 "$TMP/pss.err"))"
    exit 77
fi
stmt_stats() { # calls and plans of claim_run.sql in this database, "calls plans"
    psql "$RINGBENCH_PG_CONNINFO" -XAtq -F ' ' -c "SELECT coalesce(sum(calls), 0), coalesce(sum(plans), 0) FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query LIKE '%claim_run.sql%'"
}
use_schema g
"$RB" pg migrate >/dev/null
for i in $(seq 1 2000); do echo "key$((i % 200))"; done >"$TMP/g.keys"
"$RB" pg enqueue "$TMP/g.keys" >/dev/null
psql "$RINGBENCH_PG_CONNINFO" -XAtq -c "SELECT pg_stat_statements_reset()" >/dev/null
"$RB" pg worker --mode ordered --batch 4 --poll-ms 10 --until-empty >"$TMP/g.out" 2>"$TMP/g.err" ||
    fail "drain: exit $? ($(tail -2 "$TMP/g.err"))"
expect_eq "rows done" "$(q "SELECT count(*) FROM effects")" 2000
read -r calls plans < <(stmt_stats)
note "claim_run.sql: $calls calls, $plans plans"
((calls >= 100)) || fail "claims counted by pg_stat_statements: got $calls, expected >= 100"
((plans <= 3)) || fail "plans of the ordered claim: got $plans over $calls calls, expected <= 3 (a generic plan per session)"
echo "PASS [$TEST]: $calls ordered claims, $plans plans"
