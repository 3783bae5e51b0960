-- membership.sql — the live membership: alive workers whose last heartbeat is within their
-- TTL (database clock), in byte order (COLLATE "C", strcmp's order).
SELECT id FROM workers
WHERE status = 'alive' AND last_seen_at > now() - ttl_ms * interval '1 millisecond'
ORDER BY id COLLATE "C"
