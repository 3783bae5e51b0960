-- 003_liveness.sql — the liveness model of issue 10: worker incarnations, attempts that count
-- handler starts (claims counted apart), exponential backoff, dead letters and their re-drives,
-- the ordered-mode block policy. Additive: no row or value of an older queue changes except
-- the new columns' values.

-- Each registration of a worker id is a new incarnation; heartbeat, claim, lease extension and
-- leave match (id, incarnation), so a process whose incarnation was declared dead (and whose
-- id was taken over) can never act again.
ALTER TABLE workers ADD COLUMN IF NOT EXISTS incarnation bigint NOT NULL DEFAULT 1;

-- claims: leases handed out (a worker that dies before starting a handler costs a claim, not
-- an attempt); attempts now counts handler starts. Before 003 every claim was an attempt.
ALTER TABLE inbox ADD COLUMN IF NOT EXISTS claims integer NOT NULL DEFAULT 0;
UPDATE inbox SET claims = attempts WHERE claims = 0 AND attempts > 0;
-- The lease_generation whose handler start was recorded before the handler ran (rows that
-- were claimed before are started with a durable mark; see queue/README.md).
ALTER TABLE inbox ADD COLUMN IF NOT EXISTS started_generation bigint;
-- When the handler last failed (run_at - failed_at is the backoff it got).
ALTER TABLE inbox ADD COLUMN IF NOT EXISTS failed_at timestamptz;
ALTER TABLE inbox ADD COLUMN IF NOT EXISTS redrive_count integer NOT NULL DEFAULT 0;

-- Dead letters re-driven by `ringbench pg retry`: one row per re-drive.
CREATE TABLE IF NOT EXISTS redrives (
    id                bigserial PRIMARY KEY,
    inbox_id          bigint NOT NULL,
    redriven_at       timestamptz NOT NULL DEFAULT now(),
    redriven_by       text NOT NULL DEFAULT current_user,
    previous_error    text,
    previous_attempts integer NOT NULL,
    previous_claims   integer NOT NULL
);

-- Ordered mode, block policy: an older row of the key that failed for good blocks the key.
CREATE INDEX IF NOT EXISTS inbox_blocking_key ON inbox (partition_key, id)
    WHERE status IN ('pending', 'claimed', 'failed');
-- Dead letters, listed by `ringbench pg status --dead-letters`.
CREATE INDEX IF NOT EXISTS inbox_failed ON inbox (id) WHERE status = 'failed';
