-- claim_ordered.sql — the ordering guard of ordered mode: conditions on a pending row (inbox)
-- of an owned bucket, which the library puts into the walk of claim_walk.sql, so the walk
-- yields the heads of keys; claim_run.sql extends each head into a run of its key's next
-- rows, under the same conditions (status list). A row is a head
-- only when no older row with the same partition_key has a status in the list at
-- the BLOCKING mark below, filled in by the session's policy for dead letters: block
-- (default) 'pending', 'claimed', 'failed' (a dead letter blocks its key until `ringbench pg
-- retry`), skip 'pending', 'claimed' (only unfinished rows block). A literal list, not a
-- parameter: the planner then proves the partial index of each list (inbox_blocking_key,
-- inbox_unfinished_key) usable in the generic plan too.
-- Order by commit (issue 11, target 5): every producer draws a key's ids in the order its
-- transactions end (migration 008: a stripe lock per key, held from before the id is drawn to
-- the end of the transaction), so every older row of a key is visible to a snapshot that
-- sees the younger one, and the guard needs no condition on transactions in flight.
          AND NOT EXISTS (SELECT 1 FROM inbox older
                          WHERE older.partition_key = inbox.partition_key
                            AND older.id < inbox.id
                            AND older.state IN (@BLOCKING@))
