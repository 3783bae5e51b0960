-- retention_set.sql — record the queue's retention: retention_ms $1 (NULL = off), at most $2
-- rows deleted per housekeeping round. Takes effect at the next round of every housekeeper
-- (retention_purge.sql reads queue_config each round). Bounds: the CHECKs of migration 006.
UPDATE queue_config SET retention_ms = $1::bigint, retention_batch = $2::int
