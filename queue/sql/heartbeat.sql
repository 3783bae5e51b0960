-- heartbeat.sql — worker $1, incarnation $2, is alive now (database clock); 0 rows once this
-- incarnation was marked dead (or its id was taken over by a new incarnation).
UPDATE workers SET last_seen_at = now() WHERE id = $1 AND incarnation = $2 AND status = 'alive'
