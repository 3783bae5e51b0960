-- redrive.sql — re-drive dead letters: the failed rows among ids $1 (bigint[]), or every failed
-- row when $2 is true, go back to pending now with attempts and claims reset; each re-drive is
-- recorded in redrives. All or nothing: when an id of $1 is not a dead letter (unknown, or not
-- 'failed' any more), nothing changes and the result has no row. Rows are locked first, so a
-- concurrent re-drive of the same row waits and then finds it no longer failed.
WITH target AS MATERIALIZED (
    SELECT id, last_error, attempts, claims FROM inbox
    WHERE state = 'failed' AND ($2 OR id = ANY($1::bigint[]))
    ORDER BY id FOR UPDATE),
ok AS (
    SELECT $2 OR (SELECT count(*) FROM target) =
                 (SELECT count(DISTINCT x) FROM unnest($1::bigint[]) x) AS all_found),
redo AS (
    UPDATE inbox SET state = 'open', attempts = 0, claims = 0, run_at = now(),
           started_generation = NULL, redrive_count = inbox.redrive_count + 1
    FROM target WHERE inbox.id = target.id AND inbox.state = 'failed' AND (SELECT all_found FROM ok)
    RETURNING inbox.id),
rec AS (
    INSERT INTO redrives (inbox_id, previous_error, previous_attempts, previous_claims)
    SELECT t.id, t.last_error, t.attempts, t.claims FROM target t JOIN redo USING (id))
SELECT (SELECT all_found FROM ok), (SELECT count(*) FROM redo),
       (SELECT min(x) FROM unnest($1::bigint[]) x WHERE x NOT IN (SELECT id FROM target))
