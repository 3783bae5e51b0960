# Migrations (issue 10): a queue made by main at 7f57670 (its schema.sql, kept verbatim as
# queue/sql/migrations/001_schema.sql; no schema_migrations table) with rows in every status
# and workers in every status is upgraded by `ringbench pg migrate` without loss: every row
# and effect is still there with the same values, schema_migrations records each version,
# a second migrate changes nothing, a worker refuses the old schema before the upgrade and
# drains it after.
source "$(dirname "$0")/lib.sh"
SQL_DIR=$(dirname "$0")/../sql/migrations
# The ring parameters a default migrate records, from a scratch schema.
use_schema scratch
"$RB" pg migrate >/dev/null
cfg=$(q "SELECT format('(%s, %L, %L, %s, %L, %s)', n_buckets, bucket_hash, ring_hash, hash_seed, algo, n_vnodes) FROM queue_config")
use_schema old
q "CREATE SCHEMA $RINGBENCH_PG_SCHEMA" >/dev/null
q "$(sed 's/@N_BUCKETS@/1024/g' "$SQL_DIR/001_schema.sql")" >/dev/null
q "INSERT INTO queue_config (n_buckets, bucket_hash, ring_hash, hash_seed, algo, n_vnodes) VALUES $cfg" >/dev/null
q "INSERT INTO workers (id, status, ttl_ms, mode) VALUES ('w-alive', 'alive', 1000, 'competing'),
     ('w-dead', 'dead', 1000, 'affinity'), ('w-left', 'left', 1000, 'ordered')" >/dev/null
q "INSERT INTO inbox (partition_key, partition_bucket, idempotency_key, payload, status,
                      claimed_by, claimed_at, lease_expires_at, lease_generation, attempts,
                      last_error, completed_at)
   SELECT 'k' || i, i % 1024, 'idem-' || i, 'p' || i,
          (ARRAY['pending', 'claimed', 'done', 'failed'])[1 + i % 4],
          CASE WHEN i % 4 = 1 THEN 'w-dead' END,
          CASE WHEN i % 4 = 1 THEN now() - interval '1 minute' END,
          CASE WHEN i % 4 = 1 THEN now() - interval '30 s' END,
          CASE WHEN i % 4 = 0 THEN 0 ELSE 1 END, CASE WHEN i % 4 = 3 THEN 5 ELSE i % 4 END,
          CASE WHEN i % 4 = 3 THEN 'boom' END, CASE WHEN i % 4 = 2 THEN now() END
   FROM generate_series(0, 399) i" >/dev/null
q "INSERT INTO effects (idempotency_key, inbox_id, partition_key, lease_generation, worker_id, effect)
   SELECT idempotency_key, id, partition_key, lease_generation, 'w-alive', 'e' FROM inbox WHERE status = 'done'" >/dev/null
# digest TABLE: inbox before migration 009, inbox_all (inbox and inbox_done) after it.
digest() {
    q "SELECT md5(string_agg(t::text, '|' ORDER BY id)) FROM (SELECT id, partition_key, partition_bucket,
         idempotency_key, payload, status, claimed_by, claimed_at, lease_expires_at, lease_generation,
         attempts, last_error, run_at, created_at, completed_at FROM $1) t"
    q "SELECT md5(string_agg(t::text, '|' ORDER BY idempotency_key)) FROM effects t"
    q "SELECT md5(string_agg(t::text, '|' ORDER BY id)) FROM (SELECT id, status, ttl_ms, mode FROM workers) t"
}
before=$(digest inbox)
expect_eq "rows by status before" "$(q "SELECT string_agg(status || '=' || n, ',' ORDER BY status) FROM (SELECT status, count(*) n FROM inbox GROUP BY status) s")" "claimed=100,done=100,failed=100,pending=100"
# A worker refuses a schema older than it needs, with the hint.
rc=0
"$RB" pg worker --until-empty >"$TMP/early.out" 2>"$TMP/early.err" || rc=$?
expect_eq "worker on the old schema: exit code" "$rc" 1
grep -q "ringbench pg migrate" "$TMP/early.err" || fail "worker on the old schema: no migrate hint: $(cat "$TMP/early.err")"
"$RB" pg migrate >"$TMP/migrate.out" || fail "migrate of the old schema failed"
expect_eq "rows, effects and workers unchanged by the upgrade" "$(digest inbox_all)" "$before"
latest=$(find "$SQL_DIR" -maxdepth 1 -name '*.sql' -printf '%f\n' | sed -n 's/^0*\([0-9][0-9]*\)_.*\.sql$/\1/p' | sort -n | tail -1)
expect_eq "versions recorded" "$(q "SELECT string_agg(version::text, ',' ORDER BY version) FROM schema_migrations")" "$(seq -s, 1 "$latest")"
"$RB" pg migrate >/dev/null || fail "second migrate failed"
expect_eq "second migrate applies nothing" "$(q "SELECT count(*) FROM schema_migrations")" "$latest"
expect_eq "rows unchanged by the second migrate" "$(digest inbox_all)" "$before"
# The upgraded queue works: the pending rows and the expired claimed ones are done.
"$RB" pg worker --until-empty --max-attempts 9 --heartbeat-ms 100 --ttl-ms 3000 >"$TMP/w.out" 2>"$TMP/w.err" || fail "worker after migrate failed: $(tail -2 "$TMP/w.err")"
expect_eq "rows by status after the drain" "$(q "SELECT string_agg(status || '=' || n, ',' ORDER BY status) FROM (SELECT status, count(*) n FROM inbox_all GROUP BY status) s")" "done=300,failed=100"
expect_eq "one effect per done row" "$(q "SELECT count(*) FROM effects")" 300
# Migrations 006 and 007 on the old queue: retention off until asked for, the autovacuum
# thresholds and the unthrottled vacuum (007) on
# inbox, the trigger refusing a done key; then a retention deletes the old queue's done rows
# (all have effect rows) and keeps the failed ones, and their keys still refuse a re-enqueue.
expect_eq "retention after the upgrade" "$(q "SELECT coalesce(retention_ms::text, 'off') FROM queue_config")" off
expect_eq "inbox autovacuum settings" "$(q "SELECT array_to_string(reloptions, ',') FROM pg_class WHERE oid = 'inbox'::regclass")" \
    "autovacuum_vacuum_scale_factor=0,autovacuum_vacuum_threshold=5000,autovacuum_analyze_scale_factor=0,autovacuum_analyze_threshold=20000,autovacuum_vacuum_cost_delay=0,fillfactor=80"
"$RB" pg migrate --retention-ms 1000 >/dev/null
q "UPDATE inbox_done SET completed_at = now() - interval '2 s' WHERE status = 'done'" >/dev/null
"$RB" pg worker --idle-ms 600 --heartbeat-ms 100 --ttl-ms 3000 >"$TMP/r.out" 2>"$TMP/r.err" || fail "worker with a retention failed: $(tail -2 "$TMP/r.err")"
expect_eq "rows by status after the retention" "$(q "SELECT string_agg(status || '=' || n, ',' ORDER BY status) FROM (SELECT status, count(*) n FROM inbox_all GROUP BY status) s")" "failed=100"
expect_eq "effects kept" "$(q "SELECT count(*) FROM effects")" 300
printf 'k2\tidem-2\n' | "$RB" pg enqueue - | grep -q "enqueued 0 of 1" || fail "a deleted done row's key (idem-2) was enqueued again"
echo "PASS [$TEST]"
