# Issue 10, kind 3: a lease that was already over when handed out. A transaction holds ACCESS
# EXCLUSIVE on inbox for 1.5 s and inserts 4 rows; an idle worker (lease 1 s) polls, its claim
# waits behind the lock. The lease must start when the rows are locked (clock_timestamp()), not
# at the statement's start: every lease ends >= 1 s after the locking transaction committed.
# Then the worker (here: a crash right after the claim, so nothing extends the lease) held
# rows whose lease was whole.
source "$(dirname "$0")/lib.sh"
"$RB" pg migrate >/dev/null
q "CREATE TABLE mark (committed_before timestamptz)" >/dev/null
bg A worker --lease-ms 1000 --poll-ms 20 --exit-after-claim --max-claims 1
wait_for 10 "SELECT count(*) = 1 FROM workers WHERE status = 'alive'"
sleep 0.3
q "BEGIN; LOCK TABLE inbox IN ACCESS EXCLUSIVE MODE;
   INSERT INTO inbox (partition_key, partition_bucket, idempotency_key)
   SELECT 'k' || i, 0, 'k' || i FROM generate_series(1, 4) i;
   SELECT pg_sleep(1.5); INSERT INTO mark VALUES (clock_timestamp()); COMMIT;" >/dev/null
wait_ok A
expect_eq "rows claimed by the waiting claim" "$(q "SELECT count(*) FROM inbox_all WHERE status = 'claimed'")" 4
expect_eq "every lease ends >= 1 s after the lock was released" \
    "$(q "SELECT bool_and(lease_expires_at >= (SELECT committed_before FROM mark) + interval '1 second') FROM inbox_all")" t
echo "PASS [$TEST]"
