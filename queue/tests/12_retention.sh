# Retention (issue 11, target 6; migration 006): `pg migrate --retention-ms/--retention-batch`
# are validated (exit 2, nothing recorded) and shown by `pg status`; a housekeeping round
# deletes at most retention_batch done rows older than the retention, oldest first, only
# under the housekeeper's advisory lock; younger done rows, done rows without an effect row
# and pending, claimed and failed rows (even with an old completed_at) are never deleted;
# effects are kept; re-enqueueing a deleted row's idempotency key (pg enqueue, plain SQL)
# creates no row and runs nothing again, while a new key still runs.
source "$(dirname "$0")/lib.sh"
PURGE=$(cat "$(dirname "$0")/../sql/retention_purge.sql")
W=(--mode competing --heartbeat-ms 100 --ttl-ms 3000)
"$RB" pg migrate >/dev/null
for bad in "--retention-ms 999" "--retention-ms 315360000001" "--retention-ms 10s" \
    "--retention-ms -5" "--retention-batch 0" "--retention-batch 100001"; do
    rc=0
    # shellcheck disable=SC2086 # word splitting of $bad is the point
    "$RB" pg migrate $bad >/dev/null 2>"$TMP/bad.err" || rc=$?
    expect_eq "migrate $bad: exit code ($(cat "$TMP/bad.err"))" "$rc" 2
done
expect_eq "retention after refused options" "$(q "SELECT coalesce(retention_ms::text, 'off') || '/' || retention_batch FROM queue_config")" off/2000
"$RB" pg status | grep -q "retention off" || fail "pg status does not say the retention is off"
"$RB" pg migrate --retention-ms 60000 --retention-batch 40 >"$TMP/m.out"
grep -q "deleted 60000 ms after completion, at most 40 per round" "$TMP/m.out" || fail "migrate output: $(cat "$TMP/m.out")"
"$RB" pg migrate --retention-batch 40 >/dev/null # the ms given before stays
"$RB" pg status --format json | grep -q '"retention_ms": 60000, "retention_batch": 40}' || fail "pg status: $("$RB" pg status --format json)"

# 200 rows done by a worker, then 120 of them made old (completed > 2 min ago), 80 kept young.
seq 1 200 | awk '{printf "k:%d\tidem:%d\n", $1 % 17, $1}' >"$TMP/rows"
"$RB" pg enqueue "$TMP/rows" >/dev/null
"$RB" pg worker "${W[@]}" --until-empty >"$TMP/drain.out" 2>"$TMP/drain.err" || fail "drain failed"
expect_eq "done after the drain" "$(q "SELECT count(*) FROM inbox_all WHERE status = 'done'")" 200
# idem:1 the oldest, idem:120 the youngest of the old ones (1 s apart).
q "UPDATE inbox_done SET completed_at = now() - interval '2 minutes'
                                  - (200 - split_part(idempotency_key, ':', 2)::int) * interval '1 s'
   WHERE idempotency_key IN (SELECT 'idem:' || i FROM generate_series(1, 120) i)" >/dev/null
# Done row idem:1 loses its effect row (made by hand; the protocol always writes one): kept.
q "DELETE FROM effects WHERE idempotency_key = 'idem:1'" >/dev/null
# Rows in the other statuses, all with an old completed_at: never deleted. Pending ones are
# due in an hour and the claimed ones leased for an hour, so the workers below leave them.
printf 'p:%d\n' $(seq 1 30) >"$TMP/others"
"$RB" pg enqueue "$TMP/others" >/dev/null
q "UPDATE inbox SET completed_at = now() - interval '1 hour',
     run_at = now() + interval '1 hour',
     state = CASE WHEN id % 3 = 2 THEN 'failed' ELSE 'open' END,
     claimed_by = CASE WHEN id % 3 = 1 THEN 'ghost' END,
     lease_expires_at = CASE WHEN id % 3 = 1 THEN now() + interval '1 hour' END,
     lease_generation = CASE WHEN id % 3 = 1 THEN 1 ELSE 0 END
   WHERE partition_key LIKE 'p:%'" >/dev/null
# Give them effect rows too (the protocol never does): then only their status keeps them.
q "INSERT INTO effects (idempotency_key, inbox_id, partition_key, lease_generation, worker_id)
   SELECT idempotency_key, id, partition_key, 1, 'ghost' FROM inbox_all WHERE partition_key LIKE 'p:%'" >/dev/null
others() { q "SELECT md5(string_agg(t::text, '|' ORDER BY id)) FROM inbox_all t WHERE status <> 'done'"; }
before_others=$(others)
expect_eq "other statuses" "$(q "SELECT string_agg(status || '=' || n, ',' ORDER BY status) FROM (SELECT status, count(*) n FROM inbox_all WHERE status <> 'done' GROUP BY 1) s")" "claimed=10,failed=10,pending=10"

# One housekeeper at a time: with the advisory lock held elsewhere a round deletes nothing.
lock_sql="SELECT pg_advisory_lock(29282, hashtext('$RINGBENCH_PG_SCHEMA'))"
held="SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = 29282 AND objid = hashtext('$RINGBENCH_PG_SCHEMA')::oid)"
# The session holds it 4 s (a backend does not notice its client is gone while it sleeps).
psql "$RINGBENCH_PG_CONNINFO" -XAtq -c "$lock_sql" -c "SELECT pg_sleep(4)" >/dev/null 2>&1 &
LOCKER=$!
PIDS+=("$LOCKER")
wait_for 10 "$held"
expect_eq "a round while another session holds the lock (won, deleted)" "$(q "$PURGE")" "f|0|40"
wait "$LOCKER" 2>/dev/null || true
wait_for 10 "SELECT NOT ($held)"
# A round is bounded by retention_batch and deletes the oldest first.
expect_eq "one statement (won, deleted, batch)" "$(q "$PURGE")" "t|40|40"
expect_eq "the 40 deleted are the oldest eligible" "$(q "SELECT count(*) FROM inbox_all WHERE idempotency_key IN (SELECT 'idem:' || i FROM generate_series(2, 41) i)")" 0
# The workers' housekeeping rounds delete the rest (79 = 119 old rows with an effect - 40).
"$RB" pg worker "${W[@]}" --idle-ms 1500 >"$TMP/hk.out" 2>"$TMP/hk.err" || fail "housekeeping worker failed"
expect_eq "rows the worker's rounds deleted (summary purged=)" "$(field hk purged)" 79
expect_eq "done rows left: 80 young + idem:1 (no effect row)" "$(q "SELECT count(*) FILTER (WHERE completed_at > now() - interval '1 minute') || '+' || string_agg(idempotency_key, ',') FILTER (WHERE completed_at < now() - interval '1 minute') FROM inbox_all WHERE status = 'done'")" "80+idem:1"
expect_eq "pending, claimed and failed rows unchanged" "$(others)" "$before_others"
q "DELETE FROM effects WHERE worker_id = 'ghost'" >/dev/null
expect_eq "effects kept" "$(q "SELECT count(*) FROM effects")" 199

# Re-enqueue of deleted rows' keys: no row, no run. A new key still runs.
seq 2 120 | awk '{printf "k:%d\tidem:%d\n", $1 % 17, $1}' >"$TMP/again"
out=$("$RB" pg enqueue "$TMP/again")
[[ $out == "enqueued 0 of 119 rows; 119 duplicate idempotency keys skipped"* ]] || fail "re-enqueue of deleted keys: got '$out'"
expect_eq "plain SQL insert of a deleted key (ON CONFLICT DO NOTHING)" "$(q "INSERT INTO inbox (partition_key, partition_bucket, idempotency_key) VALUES ('k:5', 0, 'idem:5') ON CONFLICT DO NOTHING RETURNING id")" ""
expect_eq "plain SQL insert of a deleted key" "$(q "INSERT INTO inbox (partition_key, partition_bucket, idempotency_key) VALUES ('k:6', 0, 'idem:6') RETURNING id")" ""
printf 'k:1\tidem:new\n' | "$RB" pg enqueue - | grep -q "enqueued 1 of 1" || fail "a new key was not enqueued"
"$RB" pg worker "${W[@]}" --idle-ms 800 >"$TMP/again.out" 2>"$TMP/again.err" || fail "worker after the re-enqueue failed"
expect_eq "rows run after the re-enqueue" "$(field again completed)" 1
expect_eq "effects: one more (the new key), none twice" "$(q "SELECT count(*) || '/' || count(DISTINCT idempotency_key) FROM effects")" "200/200"
expect_eq "deleted keys back in the inbox" "$(q "SELECT count(*) FROM inbox_all WHERE idempotency_key IN (SELECT 'idem:' || i FROM generate_series(2, 120) i)")" 0
# Retention off: a round deletes nothing, however old the done rows.
"$RB" pg migrate --retention-ms off | grep -q "retention: off" || fail "--retention-ms off"
q "UPDATE inbox_done SET completed_at = now() - interval '1 day' WHERE status = 'done'" >/dev/null
expect_eq "a round with the retention off (won, deleted)" "$(q "$PURGE")" "t|0|40"

# Bounded at any completion rate: one housekeeping round deletes every done row past the
# retention, not one retention_batch of them (the published soak piled up done rows at
# ~4k completions/s). 1,000 done rows (drained while the claimed rows above stay leased,
# so until idle) made 2 minutes old, batch 40: the one round a worker runs
# at registration (heartbeat 10 s: no second round before it exits idle) leaves none past the
# retention, in 1000 / 40 + 1 statements.
seq 1 1000 | awk '{printf "b:%d\tbound:%d\n", $1 % 31, $1}' >"$TMP/bound"
"$RB" pg enqueue "$TMP/bound" >/dev/null
"$RB" pg worker "${W[@]}" --idle-ms 1000 >"$TMP/bdrain.out" 2>"$TMP/bdrain.err" || fail "drain failed"
q "UPDATE inbox_done SET completed_at = now() - interval '2 minutes' WHERE status = 'done'" >/dev/null
"$RB" pg migrate --retention-ms 1000 --retention-batch 40 >/dev/null
old_done="SELECT count(*) FROM inbox_all WHERE status = 'done' AND completed_at < now() - interval '1 s' AND idempotency_key LIKE 'bound:%'"
expect_eq "old done rows before the round" "$(q "$old_done")" 1000
"$RB" pg worker --mode competing --heartbeat-ms 10000 --ttl-ms 30000 --idle-ms 1 >"$TMP/one.out" 2>"$TMP/one.err" || fail "one-round worker failed: $(cat "$TMP/one.err")"
expect_eq "old done rows after one round" "$(q "$old_done")" 0
echo "PASS [$TEST]"
