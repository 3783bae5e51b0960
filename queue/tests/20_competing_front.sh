# Scenario 20 (issue 11, targets 1 and 6's 5 x pgbench): the competing claim reads from the
# front, the newest row in flight (claim_competing.sql), not from the head. After migration 009
# a claim is a HOT update, so the rows in flight keep their entries in inbox_pending_run_at,
# and a read from the head visited every one of them to skip it: W x batch heap fetches a claim
# (competing fell 25-32% at W 8 batch 32). Asserted on the plan: with 64 rows held by a worker
# that exits holding them, the claim of 32 (generic plan, run and rolled back) removes none
# by its claimed_by filter from the front, and all 64 from the head (`--head`, the read a worker
# sends every 100 ms). Then the kind's other side: rows given back behind the front (here
# reclaimed by the housekeeper when the held lease lapses, while a worker drains a standing
# backlog past them) must be claimed by the periodic read from the head, not left until the
# backlog runs dry: when the last of them is done, at least 500 of the 3,000 rows must still
# be undone; the same for rows given back by a release (a worker stopped before it ran them).
# Variant on the plan: affinity's claim as the only live member (the competing claim).
source "$(dirname "$0")/lib.sh"
"$RB" pg migrate >/dev/null
N=3000
for i in $(seq 1 "$N"); do printf 'k:%d\tk%d\n' "$i" "$i"; done >"$TMP/rows"
"$RB" pg enqueue "$TMP/rows" >/dev/null
q "ANALYZE inbox" >/dev/null
# (TTL 2 s: at 300 ms a loaded 2-core CI machine starved wC's heartbeat past it and wC, marked
# dead, stopped; competing workers need no quick membership here)
common=(worker --heartbeat-ms 200 --ttl-ms 2000 --poll-ms 20)
bg H "${common[@]}" --id wH --batch 64 --lease-ms 1500 --exit-after-claim --max-claims 1
wait_ok H
expect_eq "rows held by wH" "$(q "SELECT count(*) FROM inbox WHERE claimed_by = 'wH'")" 64
# removed MODE FLAGS... — the rows the claim's read from inbox_pending_run_at removed by its
# filter (claimed_by IS NULL), summed over the plan's arms
removed() {
    local plan
    plan=$("$RB" pg explain --batch 32 --analyze --generic "$@" 2>"$TMP/err") ||
        fail "pg explain $*: exit $? ($(head -1 "$TMP/err"))"
    grep -q "Index Scan using inbox_pending_run_at on inbox a (actual rows=32 loops=1)" <<<"$plan" ||
        fail "pg explain $*: the read of 32 rows from inbox_pending_run_at is not in the plan: $(tr '\n' ' ' <<<"$plan" | tr -s ' ')"
    grep -o "Rows Removed by Filter: [0-9]*" <<<"$plan" | awk '{s += $5} END {print s + 0}'
}
expect_eq "rows in flight visited by the competing claim from the front" "$(removed --mode competing)" 0
expect_eq "... by affinity's as the only live member" "$(removed --mode affinity --alone)" 0
expect_eq "rows in flight visited from the head (--head)" "$(removed --mode competing --head)" 64
# Rows given back behind the front while wC drains the standing backlog past them: wH's 64,
# reclaimed by wC's housekeeper when their lease lapses (1.5 s after wH's claim), and wL's,
# released when wL is stopped (SIGINT) before it has run them (0.1 s a row: at 20 ms a loaded CI
# machine let it run 56 of its 100 before wC had done 300). wK holds 8 rows for 8 s (1 s a
# row, its lease extended), so every claim of wC's meets rows in flight and reads from the
# front (wK's newest row); wC alone would find nothing in flight between its batches and read
# from the head every time.
bg L "${common[@]}" --id wL --batch 100 --work-ms 100 --max-claims 1
wait_for 10 "SELECT count(*) = 100 FROM inbox WHERE claimed_by = 'wL'"
bg K "${common[@]}" --id wK --batch 8 --work-ms 1000 --max-claims 1
wait_for 10 "SELECT count(*) = 8 FROM inbox WHERE claimed_by = 'wK'"
bg C "${common[@]}" --id wC --batch 8 --work-ms 1 --until-empty
wait_for 20 "SELECT count(*) >= 300 FROM inbox_done"
kill -INT "$PID_L"
wait "$PID_L" || true
wait_ok C
wait_ok K
expect_eq "rows done" "$(q "SELECT count(*) FROM inbox_done")" "$N"
expect_eq "wH's rows reclaimed and done" "$(q "SELECT count(*) FROM inbox_done WHERE id <= 64 AND claims = 2")" 64
released=$(q "SELECT count(*) FROM inbox_done WHERE id BETWEEN 65 AND 164 AND claims = 2")
((released >= 50)) || fail "wL released $released rows, expected most of its 100"
# done_after WHERE — rows done after the last of the rows WHERE
done_after() { q "SELECT count(*) FROM inbox_done WHERE completed_at > (SELECT max(completed_at) FROM inbox_done WHERE $1)"; }
reclaimed_after=$(done_after "id <= 64") released_after=$(done_after "id BETWEEN 65 AND 164 AND claims = 2")
note "rows done after the last reclaimed row: $reclaimed_after of $N; after the last of wL's $released released rows: $released_after"
((reclaimed_after >= 500)) || fail "the rows reclaimed behind the front waited for the backlog: $reclaimed_after rows done after the last of them, expected >= 500"
((released_after >= 500)) || fail "the rows released behind the front waited for the backlog: $released_after rows done after the last of them, expected >= 500"
echo "PASS [$TEST]: the competing claim reads past the rows in flight and serves rows given back"
