# Scenario f12 (issue 11, target 4): `pg worker --chain` completes a batch and claims the next in
# one transaction.
#  1. It really cuts commits: at --batch 1 a drain of N rows commits about once per row with
#     --chain and about twice without (xact_commit of pg_stat_database, counted in a database of
#     this test's own, so parallel tests do not count; the keeper's heartbeats and the
#     housekeeping rounds add a few).
#  2. It keeps exactly-once under SIGKILL: two chained workers at batch 1, one killed mid-run;
#     the survivor and a late worker drain the queue: every row done, one effect per row,
#     0 duplicates, 0 lost.
#  3. A chained transaction that fails midway (it is sent in one round trip, libpq's pipeline
#     mode) falls back and goes on chaining: triggers make the effect insert of the completion
#     fail twice and the COMMIT fail twice (a deferred constraint trigger); the worker goes on
#     (its session left the pipeline and the failed transaction) and exits 0, every row done
#     once.
source "$(dirname "$0")/lib.sh"
N=400
[[ $RINGBENCH_PG_CONNINFO != *://* ]] || { echo "SKIP [$TEST]: needs a keyword conninfo (dbname=...)"; exit 77; }
DB="t_chain_$$"
BASE_CONNINFO=$RINGBENCH_PG_CONNINFO
on_exit() { psql "$BASE_CONNINFO" -XAtq -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1 || true; }
psql "$BASE_CONNINFO" -XAtq -v ON_ERROR_STOP=1 -c "CREATE DATABASE $DB" >/dev/null
export RINGBENCH_PG_CONNINFO="$BASE_CONNINFO dbname=$DB"

# commits_per_row SUFFIX WORKER-FLAGS... — drain N rows at batch 1 with one worker in schema
# SUFFIX; print xact_commit per row (2 decimals).
commits_per_row() {
    use_schema "$1"
    shift
    "$RB" pg migrate >/dev/null
    for i in $(seq 1 "$N"); do echo "acct:$i"; done >"$TMP/keys"
    "$RB" pg enqueue "$TMP/keys" >/dev/null
    sleep 0.7 # the stats of the sessions above reach pg_stat_database
    local before after
    before=$(q "SELECT pg_stat_clear_snapshot(); SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()" | tail -1)
    "$RB" pg worker --mode competing --batch 1 --heartbeat-ms 1000 --until-empty "$@" >"$TMP/drain.out" 2>"$TMP/drain.err" ||
        fail "worker $* failed: $(tail -3 "$TMP/drain.err")"
    sleep 0.7 # the worker's backends have ended: their counts are flushed
    after=$(q "SELECT pg_stat_clear_snapshot(); SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()" | tail -1)
    expect_eq "rows done ($*)" "$(q "SELECT count(*) FROM inbox_all WHERE status = 'done'")" "$N"
    # the two queries of this test between the counts commit twice
    awk -v a="$after" -v b="$before" -v n="$N" 'BEGIN { printf "%.2f", (a - b - 2) / n }'
}
plain=$(commits_per_row plain)
chain=$(commits_per_row chain --chain)
note "commits per row at batch 1: $plain without --chain, $chain with"
# a chained claim has no time of its own: the summary's claim latency is over the claims sent on
# their own (the first, fallbacks), never the 0 of an untimed chained one
grep -q ' claim_p50_us=0.0 ' "$TMP/drain.out" && fail "--chain summary: claim_p50_us=0.0 counts the untimed chained claims: $(cat "$TMP/drain.out")"
grep -Eq ' claim_p50_us=([0-9]+\.[0-9]|-) ' "$TMP/drain.out" || fail "--chain summary: no claim_p50_us: $(cat "$TMP/drain.out")"
grep -Eq ' claims_timed=[0-9] ' "$TMP/drain.out" || fail "--chain summary: claims_timed should count the few claims sent on their own: $(cat "$TMP/drain.out")"
awk -v p="$plain" 'BEGIN { exit !(p >= 1.7) }' || fail "without --chain: $plain commits per row, expected about 2 (>= 1.7): the count does not see the worker's commits"
awk -v c="$chain" 'BEGIN { exit !(c <= 1.3) }' || fail "with --chain: $chain commits per row, expected about 1 (<= 1.3)"

# Exactly-once under SIGKILL.
use_schema crash
"$RB" pg migrate >/dev/null
M=1500
for i in $(seq 1 "$M"); do echo "acct:$i"; done >"$TMP/keys"
"$RB" pg enqueue "$TMP/keys" >/dev/null
common=(worker --chain --mode competing --batch 1 --work-ms 2 --lease-ms 1500 --ttl-ms 3000 --heartbeat-ms 150 --poll-ms 20)
bg A "${common[@]}" --id wA --until-empty
bg K "${common[@]}" --id wK --duration-ms 60000
wait_for 30 "SELECT count(*) >= 300 FROM inbox_all WHERE status = 'done'"
wait_for 10 "SELECT count(*) > 0 FROM inbox_all WHERE claimed_by = 'wK' AND status = 'claimed'"
kill -9 "$PID_K"
held=$(q "SELECT count(*) FROM inbox_all WHERE claimed_by = 'wK' AND status = 'claimed'")
wait "$PID_K" 2>/dev/null || true
wait_ok A
"$RB" pg "${common[@]}" --id wL --until-empty >"$TMP/L.out" 2>"$TMP/L.err" || fail "late worker: $(tail -3 "$TMP/L.err")"
expect_eq "rows done" "$(q "SELECT count(*) FROM inbox_all WHERE status = 'done'")" "$M"
expect_eq "rows not done (lost)" "$(q "SELECT count(*) FROM inbox_all WHERE status <> 'done'")" 0
expect_eq "effects" "$(q "SELECT count(*) FROM effects")" "$M"
expect_eq "duplicate effects" "$(q "SELECT count(*) - count(DISTINCT idempotency_key) FROM effects")" 0
expect_eq "effects of a lease that is not the row's last" "$(q "SELECT count(*) FROM effects e JOIN inbox_all i ON i.id = e.inbox_id WHERE e.lease_generation <> i.lease_generation")" 0
note "killed wK holding $held rows; $(q "SELECT count(*) FROM inbox_all WHERE lease_generation > 1") rows claimed more than once"

# A chained transaction that fails in its completion, and one that fails at COMMIT.
use_schema fault
"$RB" pg migrate >/dev/null
q "CREATE SEQUENCE boom_now; CREATE SEQUENCE boom_commit;
   CREATE FUNCTION boom_now() RETURNS trigger LANGUAGE plpgsql AS \$\$
   BEGIN IF nextval('boom_now') IN (5, 60) THEN RAISE EXCEPTION 'injected: effect insert'; END IF; RETURN NEW; END \$\$;
   CREATE FUNCTION boom_commit() RETURNS trigger LANGUAGE plpgsql AS \$\$
   BEGIN IF nextval('boom_commit') IN (30, 90) THEN RAISE EXCEPTION 'injected: commit'; END IF; RETURN NEW; END \$\$;
   CREATE TRIGGER boom_now BEFORE INSERT ON effects FOR EACH ROW EXECUTE FUNCTION boom_now();
   CREATE CONSTRAINT TRIGGER boom_commit AFTER INSERT ON effects DEFERRABLE INITIALLY DEFERRED
     FOR EACH ROW EXECUTE FUNCTION boom_commit()" >/dev/null
F=200
for i in $(seq 1 "$F"); do echo "acct:$i"; done >"$TMP/keys"
"$RB" pg enqueue "$TMP/keys" >/dev/null
"$RB" pg worker --chain --mode competing --batch 1 --heartbeat-ms 1000 --until-empty --format json >"$TMP/fault.out" 2>"$TMP/fault.err" ||
    fail "chained worker with injected failures exited non-zero: $(tail -3 "$TMP/fault.err")"
summary=$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["reconnects"], d["chained_tx"], d["complete_tx"])' <"$TMP/fault.out")
read -r reconnects chained complete_tx <<<"$summary"
note "injected failures: $complete_tx completions, $chained chained, $reconnects reconnects"
expect_eq "reconnects after injected failures (the session stays usable)" "$reconnects" 0
# each of the 4 failures costs one chained transaction; the drain's first and last do not chain
awk -v c="$chained" -v t="$complete_tx" 'BEGIN { exit !(c >= t - 6) }' ||
    fail "only $chained of $complete_tx completions chained after the injected failures"
expect_eq "rows done after injected failures" "$(q "SELECT count(*) FROM inbox_all WHERE status = 'done'")" "$F"
expect_eq "effects after injected failures" "$(q "SELECT count(*) FROM effects")" "$F"
expect_eq "injected failures that fired" "$(q "SELECT (SELECT last_value >= 60 FROM boom_now) AND (SELECT last_value >= 90 FROM boom_commit)")" t
echo "PASS [$TEST]"
