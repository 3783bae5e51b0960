-- claim_ordered.sql — the ordering guard of ordered mode: conditions on a pending row (inbox)
-- of an owned bucket, which the library puts into the walk of claim_walk.sql, so the walk
-- yields the heads of keys; claim_run.sql extends each head into a run of its key's next
-- rows, under the same conditions (status list and commit order). A row is a head
-- only when no older row with the same partition_key has a status in the list at
-- the BLOCKING mark below, filled in by the session's policy for dead letters: block
-- (default) 'pending', 'claimed', 'failed' (a dead letter blocks its key until `ringbench pg
-- retry`), skip 'pending', 'claimed' (only unfinished rows block). A literal list, not a
-- parameter: the planner then proves the partial index of each list (inbox_blocking_key,
-- inbox_unfinished_key) usable in the generic plan too.
-- Order by commit (issue 11, target 5): a row is claimable only when the transaction that
-- inserted it is older than every transaction still in flight (inserted_xid below the
-- snapshot's xmin, as PgQ does): an earlier-inserted row of its key that is still
-- uncommitted is invisible to the guard, so without this its younger sibling could run
-- first. It delays a row until the transactions older than its inserter have ended (none
-- on a quiet server; a long transaction anywhere on the server holds ordered claims back).
-- Rows of a queue older than migration 005 have no inserted_xid: committed long ago.
          AND (inserted_xid IS NULL
               OR inserted_xid < pg_snapshot_xmin(pg_current_snapshot()))
          AND NOT EXISTS (SELECT 1 FROM inbox older
                          WHERE older.partition_key = inbox.partition_key
                            AND older.id < inbox.id
                            AND older.status IN (@BLOCKING@))
