# Scenario 19 (issue 11, target 1; migration 009): the layout's invariants. A claim writes no
# indexed column, so claims are HOT updates; every leased row has its lease row in
# inbox_leases, same generation and expiry, and the lease row goes when the lease ends
# (completion, release on leave, reclaim by the housekeeper); done rows are in inbox_done, not in
# inbox. Variants: a worker that exits holding its batch (the housekeeper finds the expired
# leases only through inbox_leases), every mode, a worker that leaves with rows unstarted.
source "$(dirname "$0")/lib.sh"
"$RB" pg migrate >/dev/null
N=1200
for i in $(seq 1 "$N"); do printf 'acct:%d\tk%d\n' "$((i % 37))" "$i"; done >"$TMP/rows"
"$RB" pg enqueue "$TMP/rows" >/dev/null
common=(worker --heartbeat-ms 100 --poll-ms 20)
# A worker claims a batch and exits without a word: its rows stay leased.
bg D "${common[@]}" --id wD --ttl-ms 300 --batch 8 --lease-ms 700 --exit-after-claim --max-claims 1
wait_ok D
expect_eq "rows leased by wD" "$(q "SELECT count(*) FROM inbox WHERE claimed_by = 'wD'")" 8
expect_eq "their lease rows (same id, generation, expiry)" \
    "$(q "SELECT count(*) FROM inbox i JOIN inbox_leases l USING (id, lease_generation, lease_expires_at) WHERE i.claimed_by = 'wD'")" 8
expect_eq "no other lease row" "$(q "SELECT count(*) FROM inbox_leases")" 8
# wD's claim was the only update of inbox so far (no handler started), on pages pg enqueue
# filled to fillfactor 80: each had room for the new versions, so the 8 updates are HOT unless
# the claim writes an indexed column. (Later updates are HOT only while pruning frees room,
# which another session's old snapshot on the server can hold back: not asserted.)
stats="SELECT n_tup_hot_upd || '/' || n_tup_upd FROM pg_stat_user_tables WHERE relid = 'inbox'::regclass"
wait_for 10 "SELECT n_tup_upd >= 8 FROM pg_stat_user_tables WHERE relid = 'inbox'::regclass"
expect_eq "HOT updates / updates of inbox after wD's claim" "$(q "$stats")" "8/8"
# The three modes drain the rest and the expired batch (found through inbox_leases).
for m in competing affinity ordered; do
    bg "$m" "${common[@]}" --id "w$m" --ttl-ms 3000 --mode "$m" --batch 8 --until-empty
done
for m in competing affinity ordered; do wait_ok "$m"; done
expect_eq "rows done (inbox_done)" "$(q "SELECT count(*) FROM inbox_done")" "$N"
expect_eq "rows left in inbox" "$(q "SELECT count(*) FROM inbox")" 0
expect_eq "effects" "$(q "SELECT count(*) FROM effects")" "$N"
expect_eq "lease rows left" "$(q "SELECT count(*) FROM inbox_leases")" 0
expect_eq "wD's rows reclaimed and done once more (generation 2)" \
    "$(q "SELECT count(*) FROM inbox_done WHERE claims = 2 AND lease_generation = 2")" 8
expect_eq "status of done rows" "$(q "SELECT string_agg(DISTINCT status || '/' || state, ',') FROM inbox_done")" "done/done"
# A worker stopped (SIGINT) mid-batch releases the rows it did not run, and their leases.
for i in $(seq 1 100); do printf 'r:%d\tr%d\n' "$i" "$i"; done >"$TMP/more"
"$RB" pg enqueue "$TMP/more" >/dev/null
bg L "${common[@]}" --id wL --ttl-ms 3000 --batch 100 --work-ms 20 --idle-ms 10000
wait_for 10 "SELECT count(*) = 100 FROM inbox WHERE claimed_by = 'wL'"
kill -INT "$PID_L"
wait "$PID_L" || true
grep -q "skipped=[1-9]" "$TMP/L.out" || fail "wL released (skipped) nothing: $(cat "$TMP/L.out")"
expect_eq "rows still leased after wL left" "$(q "SELECT count(*) FROM inbox WHERE status = 'claimed'")" 0
expect_eq "lease rows after wL left" "$(q "SELECT count(*) FROM inbox_leases")" 0
note "HOT updates / updates of inbox in all: $(q "$stats"); wL: $(grep -o "skipped=[0-9]*" "$TMP/L.out")"
echo "PASS [$TEST]"
