-- retention_read.sql — the queue's retention (migration 006): retention_ms (NULL = off, done
-- rows kept) and the most rows one housekeeping round deletes.
SELECT retention_ms, retention_batch FROM queue_config
