-- register.sql — worker $1 (TTL $2 ms, mode $3) joins as alive and gets its incarnation. An
-- id that is still alive belongs to another process and is left alone (0 rows); a dead or
-- left id is taken over as a new incarnation with its own TTL and mode.
INSERT INTO workers (id, ttl_ms, mode) VALUES ($1, $2, $3)
ON CONFLICT (id) DO UPDATE
SET status = 'alive', incarnation = workers.incarnation + 1, started_at = now(),
    last_seen_at = now(), dead_at = NULL, dead_marked_by = NULL, ttl_ms = EXCLUDED.ttl_ms,
    mode = EXCLUDED.mode, view_members = NULL, owned_buckets = NULL, view_at = NULL
WHERE workers.status <> 'alive'
RETURNING incarnation
