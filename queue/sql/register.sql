-- register.sql — worker $1 (TTL $2 ms, mode $3) joins as alive. An id that is still alive
-- belongs to another process and is left alone (0 rows); a dead or left id is taken over.
INSERT INTO workers (id, ttl_ms, mode) VALUES ($1, $2, $3)
ON CONFLICT (id) DO UPDATE SET status = 'alive', last_seen_at = now()
WHERE workers.status <> 'alive'
