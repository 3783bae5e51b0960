-- 006_retention.sql — retention of done rows (issue 11, target 6): housekeepers delete done
-- rows older than the queue's retention, a bounded number per round (retention_purge.sql),
-- and the idempotency key of a deleted row keeps refusing re-enqueues through its effect row
-- (inbox_done_key below). Autovacuum settings for a table with constant churn. Additive: no
-- row or value of an older queue changes; retention is off (done rows kept, as before) until
-- `ringbench pg migrate --retention-ms MS` sets it. queue/README.md ("Retention") explains
-- the guarantee, its window and the autovacuum numbers.

-- retention_ms: done rows completed more than this long ago (database clock) are deleted;
-- NULL = off. retention_batch: at most this many rows deleted per housekeeping round, so a
-- round stays short (it holds the housekeeper's advisory lock). Bounds as in queue.h
-- (RB_QUEUE_RETENTION_*), checked by the library first.
ALTER TABLE queue_config ADD COLUMN IF NOT EXISTS retention_ms bigint
    CONSTRAINT queue_config_retention_ms_range
    CHECK (retention_ms IS NULL OR retention_ms BETWEEN 1000 AND 315360000000);
ALTER TABLE queue_config ADD COLUMN IF NOT EXISTS retention_batch integer NOT NULL DEFAULT 2000
    CONSTRAINT queue_config_retention_batch_range CHECK (retention_batch BETWEEN 1 AND 100000);

-- The purge's walk: done rows oldest first, so a round reads about `retention_batch` entries
-- and stops at the first row younger than the retention (O(batch), whatever the table holds).
CREATE INDEX IF NOT EXISTS inbox_done_completed ON inbox (completed_at) WHERE status = 'done';

-- A row whose idempotency key already has an effect row (its row completed; it may have been
-- deleted by retention since) is not inserted: the same outcome as a duplicate of a row still
-- in the inbox under ON CONFLICT DO NOTHING (the row is skipped, the statement goes on), for
-- every producer (pg enqueue, COPY, plain SQL). BEFORE ROW, so it runs before the unique
-- check; named to fire before inbox_fill_bucket (triggers fire in name order), so a skipped
-- row costs no bucket computation. The body names effects with its schema (no per-call
-- search_path). enable_seqscan is off inside it: PL/pgSQL caches a generic plan of the lookup,
-- and one made while effects was empty (after a TRUNCATE) is a sequential scan that stayed
-- until the next ANALYZE while effects grew: 2,000 inserts took 18.5 s against 50,000 effect
-- rows, 85 ms with the index forced. Measured cost of the trigger: 20,000 inserted rows
-- ~1.0 s against ~0.7 s without it (a loaded 2-core machine).
DO $def$
BEGIN
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION %1$I.inbox_done_key() RETURNS trigger LANGUAGE plpgsql
        SET enable_seqscan = off AS $b$
        BEGIN
            IF EXISTS (SELECT 1 FROM %1$I.effects WHERE idempotency_key = NEW.idempotency_key)
            THEN
                RETURN NULL;
            END IF;
            RETURN NEW;
        END $b$ $f$, current_schema());
END
$def$;
CREATE TRIGGER inbox_done_key BEFORE INSERT ON inbox
    FOR EACH ROW EXECUTE FUNCTION inbox_done_key();

-- Autovacuum for constant churn (queue/README.md, "Retention" explains the numbers). Each
-- processed row leaves about three dead versions in inbox (claim, completion, deletion;
-- status is in partial-index predicates, so none of these updates is HOT). A fixed threshold
-- (scale factor 0) vacuums after 5,000 dead versions whatever the table holds, instead of
-- after 20% of it (the default), which for a queue keeping a day of done rows is millions of
-- dead versions at the head that every claim walks. Dead versions sit where the claims scan
-- (the head of the pending indexes), not spread over the table. The analyze threshold is
-- fixed too, so statistics follow the churn rather than the table's cold done rows.
ALTER TABLE inbox SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000,
                       autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 20000);
-- workers and effects keep the defaults (queue/README.md says why): workers is a few rows whose
-- default threshold (50 + 20%) is already small, effects is insert-only (no dead versions).
