-- heartbeat.sql — worker $1 is alive now (database clock); 0 rows once it was marked dead.
UPDATE workers SET last_seen_at = now() WHERE id = $1 AND status = 'alive'
