-- 009_hot_claims.sql — claims that write no index, done rows out of the inbox (issue 11,
-- target 1; bench/pg/layouts/README.md measured it before the change: layout m).
--
-- Until 008 `status` was in the predicate of every partial index, so a claim (pending ->
-- claimed) and a completion (claimed -> done) each wrote a new entry in every index the new
-- version qualified for, on the pages of the row's id and keys: for affinity, whose batch is
-- one bucket's rows scattered one in 1,024 over an arrival-ordered heap, a cold page per row
-- and per index. Now:
--   * state (open, done, failed) is what the indexes' predicates name; a claim leaves it
--     alone, and no index names a lease column, so a claim is a HOT update (fillfactor 80
--     leaves each page room for the claims' new versions). status is derived (generated
--     from state and claimed_by): readers see pending, claimed, done and failed as before.
--   * the expiries the housekeeper looks up are in inbox_leases (one row per leased row,
--     written with the lease, deleted when it ends), with the index inbox_claimed_lease had.
--   * a completion moves the row to inbox_done (DELETE from inbox, INSERT there): no index
--     entry is written for a done row in the inbox; retention purges inbox_done.
-- inbox_all is the union of both, for readers of every row (counts, tests, users' queries).
-- Not additive: done rows move, and status becomes a generated column (written through state
-- and claimed_by only).

ALTER TABLE inbox ADD COLUMN state text;
UPDATE inbox SET state = CASE WHEN status IN ('pending', 'claimed') THEN 'open' ELSE status END;
ALTER TABLE inbox ALTER COLUMN state SET NOT NULL, ALTER COLUMN state SET DEFAULT 'open',
    ADD CONSTRAINT inbox_state_check CHECK (state IN ('open', 'done', 'failed'));

-- status, its check constraints and the partial indexes on it go (DROP COLUMN drops what
-- depends on the column); the same indexes come back on state below.
ALTER TABLE inbox DROP COLUMN status;
ALTER TABLE inbox ADD COLUMN status text GENERATED ALWAYS AS (
    CASE WHEN state <> 'open' THEN state
         WHEN claimed_by IS NULL THEN 'pending'
         ELSE 'claimed' END) STORED;
ALTER TABLE inbox ADD CONSTRAINT inbox_lease_check
    CHECK ((claimed_by IS NULL) = (lease_expires_at IS NULL)
           AND (claimed_by IS NULL OR state = 'open'));
ALTER TABLE inbox SET (fillfactor = 80);

-- Claims: open rows in (run_at, id) order, affinity by bucket (names kept from 001; leased
-- rows are in them too:
-- the claims skip them, at most the rows in flight).
CREATE INDEX inbox_pending_run_at ON inbox (run_at, id) WHERE state = 'open';
CREATE INDEX inbox_pending_bucket ON inbox (partition_bucket, run_at, id) WHERE state = 'open';
-- Ordering guard: an older unfinished row of the key (skip policy), or also a failed one
-- (block policy).
CREATE INDEX inbox_unfinished_key ON inbox (partition_key, id) WHERE state = 'open';
CREATE INDEX inbox_blocking_key ON inbox (partition_key, id) WHERE state IN ('open', 'failed');
-- Dead letters.
CREATE INDEX inbox_failed ON inbox (id) WHERE state = 'failed';

-- Done rows: the inbox's columns (status a plain column, 'done'), an index for retention.
CREATE TABLE inbox_done (LIKE inbox);
INSERT INTO inbox_done SELECT * FROM inbox WHERE state = 'done';
DELETE FROM inbox WHERE state = 'done';
-- No index on id: completions arrive in no id order (affinity's are a bucket's rows), and an
-- index on id would put back the cold page per row the move takes away.
CREATE INDEX inbox_done_completed ON inbox_done (completed_at);

-- Leases: the expiry of every leased row, for the housekeeper.
-- (id, lease_generation) is the lease: a statement that ends a lease deletes its row by both,
-- so a late one cannot delete the row of the lease that came after it.
CREATE TABLE inbox_leases (
    id               bigint PRIMARY KEY,
    lease_generation bigint NOT NULL,
    lease_expires_at timestamptz NOT NULL
);
CREATE INDEX inbox_leases_expiry ON inbox_leases (lease_expires_at);
INSERT INTO inbox_leases SELECT id, lease_generation, lease_expires_at FROM inbox
WHERE claimed_by IS NOT NULL;
ALTER TABLE inbox_leases SET (autovacuum_vacuum_scale_factor = 0,
                              autovacuum_vacuum_threshold = 5000,
                              autovacuum_analyze_scale_factor = 0,
                              autovacuum_analyze_threshold = 20000,
                              autovacuum_vacuum_cost_delay = 0);

-- A later migration that changes inbox's columns changes inbox_done's alike.
CREATE VIEW inbox_all AS
    SELECT * FROM inbox
    UNION ALL
    SELECT * FROM inbox_done;
