# A stop signal does not wait for a slow statement (a fresh user's find, issue 11: a worker in a
# 3-minute claim ignored SIGTERM for 20 s and more). A transaction takes EXCLUSIVE on inbox
# (reads pass, row locks and writes wait), inserts 10 rows and stays open 8 s; a worker's
# statement waits behind it. The stop signal cancels that statement: the worker leaves (a
# statement on workers, not blocked) and exits 0 within 5 s, with 0 rows claimed, the lock still
# held, and the 10 rows pending once the lock ends. (a) competing, SIGTERM, the worker started
# behind the lock: its first housekeeping round waits; (b) ordered, SIGINT, the lock taken while
# the worker polls an empty queue: its claim waits. Before: the worker sat in the statement until
# the lock ended, then claimed the rows and ran them. (c) `pg enqueue` waiting for another
# producer's stripe lock is cancelled by SIGTERM and enqueues nothing.
source "$(dirname "$0")/lib.sh"
W=(--poll-ms 20 --heartbeat-ms 5000 --ttl-ms 30000 --duration-ms 60000)
LOCK="LOCK TABLE inbox IN EXCLUSIVE MODE; INSERT INTO inbox (partition_key, partition_bucket, idempotency_key) SELECT 'k' || i % 3, 0, 'r' || i FROM generate_series(1, 10) i"

# waiting LIKE — the worker's statement waiting for a lock on this schema's inbox matches LIKE
waiting() {
    wait_for 10 "SELECT count(*) = 1 FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE NOT l.granted AND l.relation = 'inbox'::regclass AND a.application_name = 'ringbench' AND a.query LIKE '$1'"
}

# stopped NAME SIGNAL — send SIGNAL to worker NAME, which must stop within 5 s having claimed
# nothing, while the lock still holds; then the lock's 10 rows are pending
stopped() {
    local name=$1 sig=$2 pid_var="PID_$1"
    kill "-$sig" "${!pid_var}"
    for _ in $(seq 1 50); do running "$name" || break; sleep 0.1; done
    running "$name" && fail "($name) the worker still runs 5 s after SIG$sig: its statement was not cancelled"
    running lock || fail "($name) the lock ended before the worker stopped: the check proves nothing"
    wait_ok "$name"
    expect_eq "($name) rows claimed" "$(field "$name" rows_claimed)" 0
    expect_eq "($name) the worker left" "$(q "SELECT string_agg(status, ',') FROM workers")" left
    wait_ok lock
    expect_eq "($name) rows pending" "$(q "SELECT count(*) FROM inbox_all WHERE status = 'pending'")" 10
}

use_schema a
"$RB" pg migrate >/dev/null
hold_open lock 8 "$LOCK"
bg a worker --mode competing "${W[@]}"
waiting '%housekeep.sql%'
stopped a TERM

use_schema b
"$RB" pg migrate >/dev/null
bg b worker --mode ordered "${W[@]}"
wait_for 10 "SELECT count(*) = 1 FROM workers WHERE status = 'alive'"
hold_open lock 8 "$LOCK"
waiting '-- claim_%.sql —%' # (the head: the text shown is cut at track_activity_query_size)
stopped b INT

# (c) `pg enqueue` waiting for a stripe another producer holds: SIGTERM cancels its INSERT (exit
# 143 as a process the signal ended, one line; it exited 1, fresh user helper-70), and none of its rows appears once the stripe is free (before: the process died
# silently and the server committed its rows when the lock came)
use_schema c
"$RB" pg migrate >/dev/null
hold_open holder 8 "INSERT INTO inbox (partition_key, partition_bucket, idempotency_key) VALUES ('hot', 0, 'h')"
for i in $(seq 1 50); do printf 'hot\te%s\n' "$i"; done >"$TMP/e.keys"
bg enq enqueue "$TMP/e.keys"
wait_for 10 "SELECT count(*) = 1 FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE l.locktype = 'advisory' AND NOT l.granted AND a.query LIKE '-- enqueue.sql%'"
pid_var=PID_enq
kill -TERM "${!pid_var}"
for _ in $(seq 1 50); do running enq || break; sleep 0.1; done
running enq && fail "(c) pg enqueue still runs 5 s after SIGTERM"
running holder || fail "(c) the holder ended before the enqueue stopped: the check proves nothing"
rc=0
wait "${!pid_var}" || rc=$?
expect_eq "(c) pg enqueue exit" "$rc" 143
expect_eq "(c) stderr" "$(cat "$TMP/enq.err")" "ringbench pg enqueue: interrupted: the INSERT was cancelled (nothing enqueued)"
wait_ok holder
expect_eq "(c) rows of the interrupted enqueue" "$(q "SELECT count(*) FROM inbox_all WHERE idempotency_key LIKE 'e%'")" 0
echo "PASS [$TEST]"
