# Issue 10, kind 7: retries and dead letters. (a) Backoff: a row whose handler always fails gets
# run_at - failed_at in [base/2, base] after its first failure and [cap/2, cap] after the
# second (base 400 ms, cap 600 ms: min(cap, base * 2^(attempts - 1)) with equal jitter), and
# is a dead letter after the third (max attempts 3). (b) `pg status` counts it and
# `--dead-letters` lists it; `pg retry` refuses an id that is not a dead letter (all or
# nothing), re-drives the row (pending, attempts and claims reset, recorded in redrives), and
# refuses a second re-drive (it is no longer failed). (c) Ordered mode: a key whose oldest row
# failed for good is blocked by default (later rows stay pending, `--until-empty` still ends,
# status counts them as blocked) until the dead letter is re-driven; --on-failed-key skip runs
# them.
source "$(dirname "$0")/lib.sh"
"$RB" pg migrate >/dev/null
echo "always-fails" | "$RB" pg enqueue >/dev/null
F=(--fail-pct 100 --fail-attempts 99 --max-attempts 3 --backoff-base-ms 400 --backoff-cap-ms 600 --poll-ms 10)
delay() { q "SELECT round(extract(epoch FROM run_at - failed_at) * 1000) FROM inbox_all"; }
"$RB" pg worker "${F[@]}" --max-claims 1 >"$TMP/1.out" 2>"$TMP/1.err" || fail "worker 1: $(tail -2 "$TMP/1.err")"
d=$(delay); (( d >= 200 && d <= 400 )) || fail "backoff after failure 1: $d ms, expected 200..400"
"$RB" pg worker "${F[@]}" --max-claims 1 >"$TMP/2.out" 2>"$TMP/2.err" || fail "worker 2: $(tail -2 "$TMP/2.err")"
d=$(delay); (( d >= 300 && d <= 600 )) || fail "backoff after failure 2: $d ms, expected 300..600 (capped)"
"$RB" pg worker "${F[@]}" --max-claims 1 >"$TMP/3.out" 2>"$TMP/3.err" || fail "worker 3: $(tail -2 "$TMP/3.err")"
expect_eq "after 3 failures" "$(q "SELECT status || ' ' || attempts FROM inbox_all")" "failed 3"
id=$(q "SELECT id FROM inbox_all")
"$RB" pg status | grep -q "1 dead letters" || fail "pg status does not mention the dead letter"
rc=0; "$RB" pg status --limit 3 >/dev/null 2>"$TMP/err" || rc=$?
expect_eq "pg status --limit without --dead-letters: exit (stderr: $(cat "$TMP/err"))" "$rc" 2
expect_eq "dead letters (csv)" "$("$RB" pg status --dead-letters --format csv | cut -d, -f1-6 | tail -1)" "$id,always-fails,always-fails#1,3,3,0"
rc=0; "$RB" pg retry "$id" 999999 >"$TMP/r.out" 2>"$TMP/r.err" || rc=$?
expect_eq "retry with an id that is not a dead letter: exit" "$rc" 1
grep -q "row 999999 is not a dead letter" "$TMP/r.err" || fail "retry error: $(cat "$TMP/r.err")"
expect_eq "nothing re-driven (all or nothing)" "$(q "SELECT status FROM inbox_all")" failed
expect_eq "retry by id" "$("$RB" pg retry "$id")" "re-drove 1 dead letter (pending now, attempts reset)"
expect_eq "re-driven row" "$(q "SELECT status || ' ' || attempts || ' ' || claims || ' ' || redrive_count FROM inbox_all")" "pending 0 0 1"
expect_eq "re-drive recorded" "$(q "SELECT inbox_id || ' ' || previous_attempts FROM redrives")" "$id 3"
rc=0; "$RB" pg retry "$id" >/dev/null 2>&1 || rc=$?
expect_eq "second re-drive of a row no longer failed: exit" "$rc" 1
"$RB" pg worker --until-empty --poll-ms 10 >/dev/null 2>"$TMP/w.err" || fail "drain after retry: $(tail -2 "$TMP/w.err")"
expect_eq "re-driven row done" "$(q "SELECT status FROM inbox_all")" "done"

for policy in block skip; do
    use_schema $policy
    "$RB" pg migrate >/dev/null
    printf 'k\tk1\nk\tk2\nk\tk3\nj\tj1\n' | "$RB" pg enqueue >/dev/null
    q "UPDATE inbox SET state = 'failed', attempts = 3, last_error = 'boom' WHERE idempotency_key = 'k1'" >/dev/null
    args=(--mode ordered --until-empty --poll-ms 10)
    [[ $policy == skip ]] && args+=(--on-failed-key skip)
    timeout 30 "$RB" pg worker "${args[@]}" >"$TMP/$policy.out" 2>"$TMP/$policy.err" || fail "ordered $policy: exit $? ($(tail -2 "$TMP/$policy.err"))"
done
use_schema block
expect_eq "block: rows of k behind its dead letter" "$(q "SELECT string_agg(idempotency_key || '=' || status, ',' ORDER BY id) FROM inbox_all")" "k1=failed,k2=pending,k3=pending,j1=done"
"$RB" pg status --format json | grep -q '"blocked": 2' || fail "status does not count 2 blocked rows: $("$RB" pg status --format json)"
"$RB" pg retry --all >/dev/null
expect_eq "retry --all with none left" "$("$RB" pg retry --all)" "re-drove 0 dead letters (there are none)"
timeout 30 "$RB" pg worker --mode ordered --until-empty --poll-ms 10 >/dev/null 2>"$TMP/b2.err" || fail "ordered after retry: $(tail -2 "$TMP/b2.err")"
expect_eq "block: after retry --all, k in order" "$(q "SELECT string_agg(inbox_id::text, ',' ORDER BY seq) FROM effects WHERE partition_key = 'k'")" "$(q "SELECT string_agg(id::text, ',' ORDER BY id) FROM inbox_all WHERE partition_key = 'k'")"
use_schema skip
expect_eq "skip: later rows of k run" "$(q "SELECT string_agg(idempotency_key || '=' || status, ',' ORDER BY id) FROM inbox_all")" "k1=failed,k2=done,k3=done,j1=done"
echo "PASS [$TEST]"
