-- claim_run.sql — the rows to claim in ordered mode: runs of a key's consecutive oldest rows
-- (issue 11, target 2), as a partition consumer takes its partition's next records. One row in
-- flight per key would cap a hot key at one claim-complete cycle per row; a run moves it at
-- batch speed, and ordering still holds: the worker runs a batch's rows of one key in id
-- order and holds back the rest of a key's run once one of its rows fails or is not run
-- (queue/worker.c; queue/README.md, "Ordered mode: runs").
-- head: the walk over the owned buckets (claim_walk.sql, put in by the library) with the
-- ordering guard (claim_ordered.sql): each row it yields is its key's oldest row in a
-- blocking status (the list of the dead-letter policy), pending and due, and locked by this
-- statement.
-- run: from each head, in the walk's order, the key's rows in the blocking statuses in id
-- order (index inbox_blocking_key or inbox_unfinished_key, by the policy's literal list)
-- while each is claimable as a head is (pending and due); the first row that is not (claimed,
-- a dead letter under the block policy, a retry not yet due) ends the run. At most $2
-- rows per head and $2 in all: the heads are pulled one at a time, so a claim reads O($2)
-- index entries beyond the walk's.
-- picked: the run's rows, each locked through a primary-key probe (a LATERAL, so under any
-- plan; SKIP LOCKED; a row changed since the snapshot is rechecked and dropped unless still
-- pending); of each key's run, the prefix locked whole: a row another session holds or
-- changed ends the key's run there, so no claimed row ever has an older row of its key
-- pending, claimed elsewhere or (block policy) failed, that the claim did not take too.
-- claim_lease.sql, appended at load time, leases the picked rows ($3 ms) and returns them.
WITH run AS MATERIALIZED (
    SELECT r.id, r.partition_key
    FROM (
@WALK@) head
    CROSS JOIN LATERAL (
        SELECT x.id, x.partition_key,
               bool_and(x.status = 'pending' AND x.run_at <= now())
                   OVER (ORDER BY x.id ROWS UNBOUNDED PRECEDING) AS claimable
        FROM inbox x
        WHERE x.partition_key = head.partition_key AND x.id >= head.id
          AND x.state IN (@BLOCKING@)
        ORDER BY x.id LIMIT $2) r
    WHERE r.claimable
    LIMIT $2),
picked AS MATERIALIZED (
    SELECT id, false AS aged FROM (
        SELECT run.id, bool_and(l.id IS NOT NULL)
                           OVER (PARTITION BY run.partition_key ORDER BY run.id
                                 ROWS UNBOUNDED PRECEDING) AS whole
        FROM run LEFT JOIN LATERAL (
            SELECT id FROM inbox WHERE inbox.id = run.id AND inbox.status = 'pending'
            FOR UPDATE SKIP LOCKED) l ON true) s
    WHERE whole)
