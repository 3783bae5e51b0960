-- dead_letters.sql — failed rows (dead letters), oldest first, at most $1.
SELECT id, partition_key, idempotency_key, attempts, claims, redrive_count,
       coalesce(last_error, ''), coalesce(to_char(failed_at, 'YYYY-MM-DD"T"HH24:MI:SS.MSOF'), '')
FROM inbox WHERE state = 'failed' ORDER BY id LIMIT $1
